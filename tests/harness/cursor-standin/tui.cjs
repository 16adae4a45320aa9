'use strict';
/*
 * The Cursor stand-in's interactive mode: keys in, frames out (the frames
 * are screens.cjs's, all ASSUMED), turns through the mock model, the
 * transcript and the stop hook (store.cjs).  See agent.cjs for what is
 * documented and what is assumed.
 */
const fs = require('node:fs');
const crypto = require('node:crypto');
const screens = require('./screens.cjs');
const { Transcript, runHooks } = require('./store.cjs');
const { ask, apiKey, catalog } = require('./agent.cjs');

/* ASSUMED key bytes (agent.cjs). */
const SUBMIT = '\x1b[13u';
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/* ASSUMED (agent.cjs): the type of an image file a paste names, or null. */
function imageType(p) {
	if (!p.startsWith('/') || p.includes('\n'))
		return null;
	let head;
	try {
		const fd = fs.openSync(p, 'r');
		head = Buffer.alloc(12);
		fs.readSync(fd, head, 0, 12, 0);
		fs.closeSync(fd);
	} catch {
		return null;
	}
	if (head.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10])))
		return 'image/png';
	if (head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff)
		return 'image/jpeg';
	if (/^GIF8[79]a/.test(head.toString('latin1', 0, 6)))
		return 'image/gif';
	if (head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
		return 'image/webp';
	return null;
}

function run(o) {
	const out = process.stdout;
	const cwd = fs.realpathSync(process.cwd());
	const sid = crypto.randomUUID();
	const tr = new Transcript(process.env.HOME, cwd, sid);
	const st = {
		phase: !apiKey(o) ? 'login' : o.trust || process.env.CURSOR_STANDIN_TRUSTED === '1' ? 'main' : 'trust',
		input: '', images: [], followups: [], history: [], running: false, tick: 0,
		model: o.model, cwd, messages: [], loop: 0,
	};
	let pending = '';
	let inPaste = false;
	let abort = null;

	function draw() {
		const rows = process.stdout.rows || 40;
		const frame = st.loading ? screens.loading() : st.phase === 'login' ? screens.login() :
			st.phase === 'trust' ? screens.trust(cwd) :
			st.picker ? screens.modelPicker(st.picker.ids, st.picker.at, st.model) : screens.main(st, rows);
		out.write('\x1b[H\x1b[2J' + frame.join('\r\n'));
	}

	function quit(code) {
		out.write('\x1b[?2004l\x1b[<u\x1b[?1049l');
		process.exit(code);
	}

	/* The stop hook (documented): a followup_message is the next prompt. */
	function stopHook(status) {
		const r = runHooks(process.env.HOME, 'stop', {
			conversation_id: sid, generation_id: crypto.randomUUID(), workspace_roots: [cwd],
			transcript_path: tr.file, status, loop_count: st.loop,
		});
		if (r && typeof r.followup_message === 'string' && r.followup_message && st.loop < 5) {
			st.loop++;
			setImmediate(() => startTurn(r.followup_message));
		} else
			st.loop = 0;
	}

	function endTurn(status, error) {
		tr.ended(status, error);
		st.running = false;
		abort = null;
		st.followups = [];
		draw();
		stopHook(status);
	}

	/* One model request of the running turn; a steer abandons it. */
	async function request() {
		const ctl = new AbortController();
		abort = ctl;
		const live = { role: 'assistant', text: '' };
		st.history.push(live);
		try {
			const answer = await ask(st.messages, st.model, ctl.signal, (t) => { live.text = t; draw(); });
			if (ctl.signal.aborted)
				return;
			live.text = answer;
			st.messages.push({ role: 'assistant', content: answer });
			tr.assistant(answer);
			endTurn('completed');
		} catch (e) {
			if (ctl.signal.aborted)
				return;	/* steered: the next request runs */
			const err = e.body && e.body.error;
			if (e.status === 429 && err && err.type === 'usage_limit_exceeded') {
				/* ASSUMED (agent.cjs): the limit screen, the words as the error. */
				st.history.pop();
				st.limit = err.message;
				endTurn('error', err.message);
				return;
			}
			live.text = `Error: ${e.message}`;
			endTurn('error', e.message);
		}
	}

	/* ASSUMED (agent.cjs): the attached images go with the prompt. */
	function content(text) {
		const images = st.images;
		st.images = [];
		if (!images.length)
			return text;
		return [{ type: 'text', text }, ...images.map((f) => ({ type: 'image_url',
			image_url: { url: `data:${imageType(f)};base64,${fs.readFileSync(f).toString('base64')}` } }))];
	}

	function startTurn(text) {
		st.history.push({ role: 'user', text });
		st.messages.push({ role: 'user', content: content(text) });
		tr.user(text);
		st.running = true;
		draw();
		request();
	}

	/* "enter steer": the first follow-up joins the running turn. */
	function steer() {
		const text = st.followups.shift();
		if (abort)
			abort.abort();
		st.history = st.history.filter((e) => !(e.role === 'assistant' && e.text === ''));
		st.history.push({ role: 'user', text });
		st.messages.push({ role: 'user', content: content(text) });
		tr.user(text, true);
		draw();
		request();
	}

	/*
	 * CURSOR_STANDIN_DROP_SUBMITS=N: the first N submit keys at an idle
	 * composer holding text are lost, the text left in the box (Gemini
	 * CLI 0.61 lost the Enter after a paste, starting beside two others
	 * under AddressSanitizer).
	 */
	let dropSubmits = Number(process.env.CURSOR_STANDIN_DROP_SUBMITS || 0);

	function submit() {
		if (st.input === '') {
			if (st.running && st.followups.length && process.env.CURSOR_STANDIN_IGNORE_STEER !== '1')
				steer();
			return;
		}
		if (!st.running && dropSubmits > 0) {
			dropSubmits--;
			return;
		}
		if (st.running) {
			if (process.env.CURSOR_STANDIN_IGNORE_SUBMIT_WHILE_RUNNING === '1')
				return;
			st.followups.push(st.input);
			st.input = '';
			draw();
			return;
		}
		const text = st.input;
		st.input = '';
		if (text.trim() === '/model') {
			const ids = catalog();
			st.picker = { ids, at: Math.max(0, ids.indexOf(st.model)) };
			draw();
			return;
		}
		/* The documented beforeSubmitPrompt hook; continue:false keeps it back. */
		const r = runHooks(process.env.HOME, 'beforeSubmitPrompt', {
			conversation_id: sid, generation_id: crypto.randomUUID(), workspace_roots: [cwd],
			transcript_path: tr.file, prompt: text, attachments: [],
		});
		if (r && r.continue === false) {
			st.history.push({ role: 'user', text });
			st.history.push({ role: 'notice', text: `Hook blocked with message: ${r.user_message || 'no message'}` });
			draw();
			return;
		}
		startTurn(text);
	}

	/* ASSUMED (issue 33): the /model picker's keys. */
	function pickerKey(k) {
		const p = st.picker;
		if (k === '\x1b[A')
			p.at = Math.max(0, p.at - 1);
		else if (k === '\x1b[B')
			p.at = Math.min(p.ids.length - 1, p.at + 1);
		else if (k === '\r' || k === SUBMIT) {
			st.model = p.ids[p.at];
			st.history.push({ role: 'note', text: `Model set to ${st.model}` });
			st.picker = null;
		} else if (k === '\x1b')
			st.picker = null;
		draw();
	}

	function key(k) {
		if (k === '\x03') {
			if (st.running) {
				if (abort)
					abort.abort();
				endTurn('aborted');
			} else
				quit(0);
			return;
		}
		if (st.loading || st.phase === 'login')
			return;	/* loading; a browser sign-in is the user's */
		if (st.limit) {
			/* ASSUMED: Esc dismisses the limit screen; "u" (upgrade) and the rest do nothing. */
			if (k === '\x1b') {
				st.limit = null;
				draw();
			}
			return;
		}
		if (st.phase === 'trust') {
			if (k === 'a') {
				st.phase = 'main';
				draw();
			} else if (k === 'q')
				quit(0);
			return;
		}
		if (st.picker) {
			pickerKey(k);
			return;
		}
		if (dialogOnInput()) {
			draw();
			return;
		}
		if (k === SUBMIT)
			submit();
		else if (k === '\r' || k === '\n')
			st.input += '\n';	/* ASSUMED: a plain Enter is a newline */
		else if (k === '\x7f')
			st.input = st.input.slice(0, -1);
		else if (!k.startsWith('\x1b'))
			st.input += k;
		draw();
	}

	/*
	 * CURSOR_STANDIN_DIALOG_ON_INPUT=1: the first input at the composer
	 * opens the trust dialog instead and is dropped with everything after
	 * it (a dialog that opens a moment after the composer, as Claude
	 * Code 2.1.332's auto-mode offer does, and eats what is pasted).
	 */
	function dialogOnInput() {
		if (process.env.CURSOR_STANDIN_DIALOG_ON_INPUT !== '1' || st.dialogShown)
			return false;
		st.dialogShown = true;
		st.phase = 'trust';
		return true;
	}

	let escTimer = null;

	function feed(data) {
		clearTimeout(escTimer);
		pending += data;
		while (pending.length) {
			if (inPaste) {
				const e = pending.indexOf(PASTE_END);
				if (e < 0)
					return;
				const pasted = pending.slice(0, e).replace(/\r\n?/g, '\n');
				if (st.phase === 'trust' || dialogOnInput()) {
					pending = pending.slice(e + PASTE_END.length);
					inPaste = false;
					draw();
					continue;
				}
				/* ASSUMED: a shell word, as a drag and drop pastes it. */
				const file = pasted.replace(/\\(.)/g, '$1');
				if (imageType(file))
					st.input += `[Image #${st.images.push(file)}] `;
				else
					st.input += pasted;
				pending = pending.slice(e + PASTE_END.length);
				inPaste = false;
				draw();
				continue;
			}
			if (pending.startsWith(PASTE_START)) {
				pending = pending.slice(PASTE_START.length);
				inPaste = true;
				continue;
			}
			if (pending[0] === '\x1b') {
				const m = pending.match(/^\x1b\[[0-9;?>]*[ -/]*[@-~]/);
				if (!m) {
					if (/^\x1b(\[[0-9;?>]*)?$/.test(pending)) {
						/* A lone ESC that nothing follows is the Escape key. */
						if (pending === '\x1b')
							escTimer = setTimeout(() => {
								if (pending === '\x1b') {
									pending = '';
									key('\x1b');
								}
							}, 50);
						return;	/* incomplete */
					}
					pending = pending.slice(1);
					continue;
				}
				pending = pending.slice(m[0].length);
				key(m[0]);
				continue;
			}
			const ch = String.fromCodePoint(pending.codePointAt(0));
			pending = pending.slice(ch.length);
			key(ch);
		}
	}

	/* Alternate screen, bracketed paste, the extended keyboard (kitty) protocol. */
	out.write('\x1b[?1049h\x1b[?2004h\x1b[>1u');
	process.stdin.setRawMode?.(true);
	process.stdin.setEncoding('utf8');
	process.stdin.on('data', feed);
	process.on('SIGHUP', () => quit(129));
	process.stdout.on('resize', draw);
	setInterval(() => { if (st.running) { st.tick++; draw(); } }, 120);
	const begin = () => {
		st.loading = false;
		draw();
		if (o.prompt && st.phase === 'main')
			startTurn(o.prompt);
	};
	const loadingMs = Number(process.env.CURSOR_STANDIN_LOADING_MS || 0);
	if (loadingMs > 0) {
		st.loading = true;
		draw();
		setTimeout(begin, loadingMs);
	} else
		begin();
}

module.exports = { run };
