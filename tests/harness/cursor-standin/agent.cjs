#!/usr/bin/env node
'use strict';
/*
 * A scripted stand-in for Cursor's CLI agent (`cursor-agent`, also
 * installed as `agent`), for tests/harness/cursor.test.cjs: no package
 * ships the real binary (its installer downloads it from the vendor).
 * Written from the public documentation (cursor.com/docs/cli: overview,
 * reference/parameters, reference/output-format; cursor.com/docs/agent/
 * hooks) and third-party descriptions of its files.  It answers from a
 * loopback mock model (tests/harness/lib/cursor-mock.cjs) so an answer
 * really comes from the mock: the real CLI talks to Cursor's backend;
 * this one speaks OpenAI Chat Completions to $CURSOR_STANDIN_MODEL_URL
 * (stand-in only).
 *
 * DOCUMENTED and modelled here:
 *   - `agent [prompt]` starts the interactive agent; `-p/--print` runs
 *     one prompt and exits, with `--output-format text|json|stream-json`
 *     (json: one {"type":"result","subtype":"success","is_error",
 *     "duration_ms","result","session_id"} object; stream-json: NDJSON
 *     system/init, user, assistant and result events);
 *   - `--model <name>`, `--trust` (trust the workspace without a prompt),
 *     `--api-key` / CURSOR_API_KEY, `-v/--version`, `status`;
 *   - `models`: the account's model catalog, "<id> - <label>" lines under
 *     a heading, "(current)" after the one in use; signed out it exits 1
 *     with "Authentication required" (the lines' form is from
 *     third-party descriptions of its output; the ids are the stand-in's
 *     own: CURSOR_STANDIN_MODELS, comma-separated, default
 *     "auto,mock-model,sonnet-4");
 *   - transcripts and hooks: see store.cjs.
 * ASSUMED (no capture of the real TUI exists): every screen (all in
 * screens.cjs), and the keys: the composer submits on an extended-
 * keyboard-protocol Enter (CSI 13 u, "\x1b[13u"); a plain Enter (CR)
 * inserts a newline; text submitted while a turn runs waits in
 * "Follow-ups"; Enter (CSI 13 u) on an empty composer then steers the
 * first follow-up into the running turn ("enter steer"): the running
 * request is abandoned, the text joins the turn, and the turn ends once.
 * ASSUMED too (issue 33): a paste that is only the absolute path of a
 * PNG, JPEG, GIF or WebP file, as a shell word (a backslash before a
 * space), attaches that image ("[Image #N]" in the
 * composer), as Claude Code, Codex and Grok Build do; the next prompt
 * sends it as an image_url part (a data URL of the file's bytes).
 *
 * ASSUMED as well (issue 33): a usage limit is a 429 from the model whose
 * body is {"error": {"type": "usage_limit_exceeded", "message": words}};
 * the turn ends with an error (the words) and the limit screen
 * (screens.limit) takes the composer's place until Esc dismisses it
 * ("u" would open the upgrade page: the stand-in does nothing).  The
 * documented beforeSubmitPrompt hook (input: prompt; output: continue,
 * user_message) that answers continue:false keeps the prompt from the
 * model and the transcript; the screen shows the prompt and "Hook blocked
 * with message: <user_message>" under it, and the composer is emptied.
 *
 * Knobs for fault injection (stand-in only): CURSOR_STANDIN_IGNORE_
 * SUBMIT_WHILE_RUNNING=1 leaves text submitted during a turn in the
 * composer; CURSOR_STANDIN_IGNORE_STEER=1 leaves follow-ups queued;
 * CURSOR_STANDIN_LOADING_MS=N draws a loading screen for N ms first,
 * taking no keys (a slow start); CURSOR_STANDIN_TRUSTED=1 starts as if
 * the workspace had been trusted before (no trust prompt without --trust);
 * CURSOR_STANDIN_DIALOG_ON_INPUT=1 opens the trust dialog at the first
 * input to the composer, dropping that input (a dialog that opens as the
 * prompt goes in).
 */
const fs = require('node:fs');
const crypto = require('node:crypto');
const { Transcript } = require('./store.cjs');

const VERSION = '2026.11.20-standin';

function parseArgs(argv) {
	const o = { print: false, format: 'text', model: 'mock-model', trust: false, prompt: [], cmd: null };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '-p' || a === '--print')
			o.print = true;
		else if (a === '--output-format')
			o.format = argv[++i];
		else if (a === '--model' || a === '-m')
			o.model = argv[++i];
		else if (a === '--trust' || a === '-f' || a === '--force')
			o.trust = o.trust || a === '--trust';
		else if (a === '--api-key')
			o.apiKey = argv[++i];
		else if (a === '-v' || a === '--version')
			o.cmd = 'version';
		else if (o.prompt.length === 0 && a === 'status')
			o.cmd = 'status';
		else if (o.prompt.length === 0 && a === 'models')
			o.cmd = 'models';
		else
			o.prompt.push(a);
	}
	o.prompt = o.prompt.join(' ');
	return o;
}

/* One model call: the answer's text, streamed to onText; throws on error. */
async function ask(messages, model, signal, onText) {
	const url = process.env.CURSOR_STANDIN_MODEL_URL;
	if (!url)
		throw new Error('CURSOR_STANDIN_MODEL_URL is not set (stand-in)');
	const res = await fetch(`${url}/chat/completions`, {
		method: 'POST', signal,
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ model, stream: true, messages }),
	});
	if (!res.ok) {
		const body = await res.text();
		const e = new Error(`model error ${res.status}: ${body.slice(0, 300)}`);
		e.status = res.status;
		try {
			e.body = JSON.parse(body);
		} catch { /* not JSON */ }
		throw e;
	}
	let text = '';
	let buf = '';
	const dec = new TextDecoder();
	for await (const chunk of res.body) {
		buf += dec.decode(chunk, { stream: true });
		let k;
		while ((k = buf.indexOf('\n\n')) >= 0) {
			const ev = buf.slice(0, k);
			buf = buf.slice(k + 2);
			const d = ev.replace(/^data: /, '');
			if (d === '[DONE]')
				continue;
			try {
				const delta = JSON.parse(d).choices?.[0]?.delta?.content;
				if (delta) {
					text += delta;
					onText(text);
				}
			} catch { /* not JSON */ }
		}
	}
	return text;
}

const apiKey = (o) => o.apiKey || process.env.CURSOR_API_KEY;

/* -p: one prompt, printed in the asked format (documented), then exit. */
async function printMode(o) {
	const sid = crypto.randomUUID();
	const t0 = Date.now();
	if (!apiKey(o)) {
		process.stderr.write('Authentication required. Run `agent login` or set CURSOR_API_KEY.\n');
		process.exit(1);
	}
	const t = new Transcript(process.env.HOME, fs.realpathSync(process.cwd()), sid);
	t.user(o.prompt);
	const emit = (x) => process.stdout.write(JSON.stringify(x) + '\n');
	if (o.format === 'stream-json') {
		emit({ type: 'system', subtype: 'init', session_id: sid, model: o.model, cwd: process.cwd(), apiKeySource: 'env', permissionMode: 'default' });
		emit({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: o.prompt }] }, session_id: sid });
	}
	let answer;
	try {
		answer = await ask([{ role: 'user', content: o.prompt }], o.model, undefined, () => {});
	} catch (e) {
		t.ended('error', e.message);
		process.stderr.write(`${e.message}\n`);
		process.exit(1);
	}
	t.assistant(answer);
	t.ended('completed');
	const result = { type: 'result', subtype: 'success', is_error: false, duration_ms: Date.now() - t0, duration_api_ms: Date.now() - t0, result: answer, session_id: sid };
	if (o.format === 'stream-json') {
		emit({ type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: answer }] }, session_id: sid });
		emit(result);
	} else if (o.format === 'json')
		emit(result);
	else
		process.stdout.write(answer + '\n');
}

/* The account's model ids (CURSOR_STANDIN_MODELS, comma-separated). */
function catalog() {
	return (process.env.CURSOR_STANDIN_MODELS || 'auto,mock-model,sonnet-4').split(',');
}

/* `models`: the catalog (see the head of this file). */
function models(o) {
	if (!apiKey(o)) {
		process.stderr.write('Authentication required. Run `agent login` or set CURSOR_API_KEY.\n');
		process.exit(1);
	}
	const ids = catalog();
	process.stdout.write('Available models\n\n' + ids.map((id) =>
		`${id} - ${id.replace(/-/g, ' ')}${id === o.model ? ' (current)' : ''}\n`).join('') +
		'\nTip: use --model <id> to switch.\n');
}

module.exports = { parseArgs, ask, apiKey, catalog, VERSION };

if (require.main === module) {
	const o = parseArgs(process.argv.slice(2));
	if (o.cmd === 'version')
		process.stdout.write(`${VERSION}\n`);
	else if (o.cmd === 'models')
		models(o);
	else if (o.cmd === 'status')
		process.stdout.write(apiKey(o) ? 'Logged in (API key)\n' : 'Not logged in\n');
	else if (o.print)
		printMode(o).catch((e) => { process.stderr.write(`${e.stack}\n`); process.exit(1); });
	else
		require('./tui.cjs').run(o);
}
