'use strict';
/*
 * Records the Codex CLI 0.171.0 TUI fixtures under
 * tests/harness/fixtures/codex-cli-0.171.0/: screens (capture-pane -p and
 * -p -e), rollouts (temp paths replaced by /home/user/project), the mock's
 * requests and a timings file.  Usage: node codex-record.cjs [case...]
 * (cases: onboarding trust exited session approval error; default all).
 * Every run has its own temp HOME, CODEX_HOME and tmux socket; only the
 * processes a run started are killed, by PID.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const R = require('./codex-rig.cjs');
const { startCodexMock } = require('./codex-mock.cjs');

const FIX = path.resolve(__dirname, '../fixtures/codex-cli-0.171.0');
const LOG = process.env.CODEX_RECORD_LOG || path.join(require('node:os').tmpdir(), 'codex-record-log');
fs.mkdirSync(path.join(FIX, 'screens'), { recursive: true });
fs.mkdirSync(path.join(FIX, 'rollouts'), { recursive: true });
fs.mkdirSync(path.join(FIX, 'requests'), { recursive: true });
fs.mkdirSync(LOG, { recursive: true });

const timings = {};
const TIMINGS = path.join(FIX, 'timings.json');
try { Object.assign(timings, JSON.parse(fs.readFileSync(TIMINGS, 'utf8'))); } catch { /* first run */ }

function note(kase, key, value) {
	timings[kase] = timings[kase] || {};
	timings[kase][key] = value;
	fs.writeFileSync(TIMINGS, JSON.stringify(timings, null, 1) + '\n');
	console.log(`[${kase}] ${key}:`, typeof value === 'object' ? JSON.stringify(value) : value);
}

/* A log of every distinct screen, for reading what happened when. */
function watcher(run, name) {
	const file = path.join(LOG, `${name}.log`);
	fs.writeFileSync(file, '');
	let last = '';
	let stop = false;
	(async () => {
		while (!stop) {
			let s = '';
			try { s = R.capture(run); } catch { break; }
			if (s !== last) {
				fs.appendFileSync(file, `=== t=${Date.now() - run.spawnAt}ms abs=${Date.now()}\n${s}\n`);
				last = s;
			}
			await R.delay(40);
		}
	})();
	return () => { stop = true; };
}

function scrubDeep(run, v) {
	return JSON.parse(R.scrub(run, JSON.stringify(v)));
}

function saveRollout(run, name, file) {
	const f = file || R.rollouts(run)[0];
	if (!f)
		return null;
	const text = fs.readFileSync(f, 'utf8');
	fs.writeFileSync(path.join(FIX, 'rollouts', `${name}.jsonl`), R.scrub(run, text));
	return f;
}

function saveRequests(run, mock, name) {
	const reqs = mock.requests.map((r) => ({
		method: r.method, url: r.url, kind: r.kind, t: r.time - run.spawnAt,
		headers: r.headers, body: r.body, action: r.action,
		events: r.events.map((e) => ({ type: e.type, t: e.time - run.spawnAt })),
	}));
	fs.writeFileSync(path.join(FIX, 'requests', `${name}.json`), JSON.stringify(scrubDeep(run, reqs), null, 1) + '\n');
}

function rolloutLines(run) {
	const f = R.rollouts(run)[0];
	return f ? R.readJsonl(f) : [];
}

function countType(run, t) {
	return rolloutLines(run).filter((l) => l.type === 'event_msg' && l.payload && l.payload.type === t).length;
}

async function waitRollout(run, pred, ms = 30000) {
	return R.waitFor(() => {
		const lines = rolloutLines(run);
		return pred(lines) || null;
	}, ms, 10);
}

const READY = (s) => s.includes('mock-model default') && s.includes('? for shortcuts');
const BUSY = (s) => /esc to interrupt/.test(s);

async function withRun(name, setup, body) {
	const mock = await startCodexMock({ title: 'Mock title' });
	const run = R.makeRun(name);
	let stopWatch = () => {};
	try {
		await setup(run, mock);
		R.start(run, []);
		stopWatch = watcher(run, name);
		await body(run, mock);
	} catch (err) {
		console.error(`[${name}] FAILED`, err.stack || err);
		try { fs.writeFileSync(path.join(LOG, `${name}.last.txt`), R.capture(run)); } catch { /* dead */ }
	} finally {
		stopWatch();
		try { saveRequests(run, mock, name); } catch { /* none */ }
		const killed = await R.cleanup(run, !!process.env.KEEP);
		console.log(`[${name}] cleanup killed`, killed);
		await mock.close();
	}
}

/* ---- cases ---- */

async function caseOnboarding() {
	await withRun('onboarding', (run) => {
		R.configToml(run, { baseUrl: null });
		delete run.env.MOCK_API_KEY;
	}, async (run) => {
		const w = await R.waitScreen(run, 'Sign in with ChatGPT', 30000);
		note('onboarding', 'spawn_to_screen_ms', w.ms);
		await R.delay(1000);
		R.saveScreen(run, FIX, 'onboarding-login');
		/* Option 3 ("Sign in another way") shows the API key / provider choice. */
		R.keys(run, 'Down'); await R.delay(300); R.keys(run, 'Down'); await R.delay(300);
		R.keys(run, 'Enter');
		await R.delay(2000);
		R.saveScreen(run, FIX, 'onboarding-login-other');
		note('onboarding', 'pane', R.paneInfo(run));
	});
}

async function caseTrust() {
	await withRun('trust', (run, mock) => {
		R.configToml(run, { baseUrl: mock.url, trusted: false });
		execFileSync('git', ['init', '-q', run.work]);
	}, async (run) => {
		const w = await R.waitScreen(run, 'Trust this folder?', 30000);
		note('trust', 'spawn_to_dialog_ms', w.ms);
		await R.delay(500);
		R.saveScreen(run, FIX, 'trust-dialog');
		const t = Date.now();
		R.keys(run, 'Enter');
		const r = await R.waitScreen(run, READY, 30000);
		note('trust', 'enter_to_ready_ms', Date.now() - t);
		R.saveScreen(run, FIX, 'trust-accepted');
		const cfg = fs.readFileSync(path.join(run.codexHome, 'config.toml'), 'utf8');
		fs.writeFileSync(path.join(FIX, 'config-after-trust.toml'), R.scrub(run, cfg).replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT'));
	});
	/* Esc (back) on the trust dialog. */
	await withRun('trust-esc', (run, mock) => {
		R.configToml(run, { baseUrl: mock.url, trusted: false });
		execFileSync('git', ['init', '-q', run.work]);
	}, async (run) => {
		await R.waitScreen(run, 'Trust this folder?', 30000);
		await R.delay(500);
		R.keys(run, 'Escape');
		await R.delay(2500);
		R.saveScreen(run, FIX, 'trust-escaped');
		note('trust', 'after_esc_pane', R.paneInfo(run));
		R.keys(run, 'Escape');
		await R.delay(2000);
		R.saveScreen(run, FIX, 'trust-escaped-twice');
		note('trust', 'after_esc2_pane', R.paneInfo(run));
	});
}

async function caseExited() {
	await withRun('exited', (run, mock) => {
		R.configToml(run, { baseUrl: mock.url, approvalPolicy: 'bogus' });
	}, async (run) => {
		let r = await R.waitFor(() => { const p = R.paneInfo(run); return p.dead ? p : null; }, 30000);
		const deadAt = Date.now() - run.spawnAt;
		r = (await R.waitFor(() => { const p = R.paneInfo(run); return p.status !== null ? p : null; }, 3000)) || R.paneInfo(run);
		await R.delay(300);
		note('exited', 'spawn_to_dead_ms', deadAt);
		note('exited', 'pane', r);
		R.saveScreen(run, FIX, 'exited-at-start');
		const hist = R.tmux(run, 'capture-pane', '-p', '-S', '-', '-E', '-', '-t', 'main');
		fs.writeFileSync(path.join(FIX, 'screens', 'exited-at-start.history.txt'), R.scrub(run, hist));
		/* The same config run outside tmux: exit status and stderr. */
		try {
			execFileSync(process.execPath, [R.SHIM], { cwd: run.work, env: run.env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 20000 });
			note('exited', 'direct', { status: 0 });
		} catch (e) {
			note('exited', 'direct', { status: e.status, signal: e.signal, stdout: String(e.stdout), stderr: String(e.stderr) });
		}
	});
	await withRun('exited-toml', (run, mock) => {
		R.configToml(run, { baseUrl: mock.url });
		fs.appendFileSync(path.join(run.codexHome, 'config.toml'), '\nthis is = not toml [\n');
	}, async (run) => {
		let r = await R.waitFor(() => { const p = R.paneInfo(run); return p.dead ? p : null; }, 30000);
		const deadAt = Date.now() - run.spawnAt;
		r = (await R.waitFor(() => { const p = R.paneInfo(run); return p.status !== null ? p : null; }, 3000)) || R.paneInfo(run);
		await R.delay(300);
		note('exited', 'toml_spawn_to_dead_ms', deadAt);
		note('exited', 'toml_pane', r);
		R.saveScreen(run, FIX, 'exited-at-start-toml');
		const hist = R.tmux(run, 'capture-pane', '-p', '-S', '-', '-E', '-', '-t', 'main');
		fs.writeFileSync(path.join(FIX, 'screens', 'exited-at-start-toml.history.txt'), R.scrub(run, hist));
	});
}

/* Sends a prompt, returns timing marks for the turn. */
async function turn(run, mock, kase, opts) {
	const before = countType(run, 'task_complete');
	const nreq = mock.main().length;
	/* Enter within ~30 ms of typed text counts as part of a paste burst and
	 * inserts a newline; wait before the submit key. */
	await R.delay(opts.preDelay === undefined ? 300 : opts.preDelay);
	const t0 = Date.now();
	if (opts.submit)
		opts.submit();
	else
		R.keys(run, 'Enter');
	const req = await R.waitFor(() => mock.main()[nreq], 30000, 5);
	const marks = { prompt_to_request_ms: req ? req.time - t0 : null };
	if (opts.during)
		await opts.during(req);
	const done = await waitRollout(run, (ls) => ls.filter((l) => l.type === 'event_msg' && l.payload.type === 'task_complete').length > before && ls, 60000);
	const tIdle = await R.waitScreen(run, (s) => !BUSY(s) && s.includes('? for shortcuts'), 30000, 10);
	const reqs = mock.main().slice(nreq);
	const last = reqs[reqs.length - 1];
	const lastEv = last && last.events.length ? last.events[last.events.length - 1].time : null;
	if (done) {
		const tc = done.filter((l) => l.type === 'event_msg' && l.payload.type === 'task_complete').pop();
		const tcTime = Date.parse(tc.timestamp);
		marks.last_sse_to_task_complete_ms = lastEv ? tcTime - lastEv : null;
		marks.task_complete_to_screen_idle_ms = tIdle.ok ? tIdle.at - tcTime : null;
	}
	marks.last_sse_to_screen_idle_ms = lastEv && tIdle.ok ? tIdle.at - lastEv : null;
	marks.main_requests = reqs.length;
	note(kase, opts.label || 'turn', marks);
	return marks;
}

async function caseSession() {
	await withRun('session', (run, mock) => {
		R.configToml(run, { baseUrl: mock.url });
	}, async (run, mock) => {
		const w = await R.waitScreen(run, READY, 30000, 10);
		note('session', 'spawn_to_ready_ms', w.ms);
		note('session', 'rollouts_at_ready', R.rollouts(run).length);
		await R.delay(1500);
		R.saveScreen(run, FIX, 'ready');
		fs.writeFileSync(path.join(FIX, 'process-tree.json'), JSON.stringify(scrubDeep(run, R.processTree(run)).map((p) => {
			p.cmd = p.cmd.map((c) => c.replace(/\/work\/main\/build\/tests\/clients\/node_modules/g, '<node_modules>'));
			p.exe = p.exe && p.exe.replace(/\/work\/main\/build\/tests\/clients\/node_modules/g, '<node_modules>');
			for (const k of Object.keys(p.env))
				p.env[k] = p.env[k].replace(/\/work\/main\/build\/tests\/clients\/node_modules/g, '<node_modules>');
			return p;
		}), null, 1) + '\n');
		fs.writeFileSync(path.join(FIX, 'codex-home-after-start.txt'), R.scrub(run, R.listTree(run.codexHome).filter((l) => !/skills\/\.system\/|codex-resources\/voice\//.test(l)).join('\n')) + '\n');

		/* typed-not-submitted */
		R.literal(run, 'Say hello to the fixture');
		await R.delay(700);
		R.saveScreen(run, FIX, 'typed-not-submitted');
		note('session', 'requests_while_typed', mock.main().length);

		/* turn 1: held stream -> running; release -> answered */
		mock.push({ type: 'hold', text: 'Hello, fixture. This is the first answer.' });
		await turn(run, mock, 'session', {
			label: 'turn1_plain',
			during: async () => {
				const r = await R.waitScreen(run, BUSY, 10000, 10);
				note('session', 'request_to_busy_visible', r.ok);
				await R.delay(2500);
				R.saveScreen(run, FIX, 'running');
				await R.delay(100);
				mock.release();
			},
		});
		await R.delay(1500);
		R.saveScreen(run, FIX, 'answered');
		saveRollout(run, 'plain-turn');
		note('session', 'rollout_file', R.scrub(run, R.rollouts(run)[0] || ''));

		/* turn 2 back to back, streamed in chunks */
		R.literal(run, 'And a second question');
		mock.push({ type: 'text', text: 'Second answer, streamed in four chunks.', chunks: 4, delayMs: 300 });
		await turn(run, mock, 'session', { label: 'turn2_streamed' });
		await R.delay(1000);
		R.saveScreen(run, FIX, 'answered-2');
		saveRollout(run, 'two-turns');

		/* multi-line 1: send-keys -l with \n */
		mock.push({ type: 'text', text: 'Answer to the multi-line literal prompt.' });
		const nBefore = mock.main().length;
		R.literal(run, 'line one (literal)\nline two (literal)');
		await R.delay(1500);
		R.saveScreen(run, FIX, 'multiline-literal-newline');
		note('session', 'literal_newline_submitted', mock.main().length > nBefore);
		if (mock.main().length > nBefore) {
			await waitRollout(run, (ls) => ls.filter((l) => l.type === 'event_msg' && l.payload.type === 'task_complete').length >= 3 && ls);
			await R.waitScreen(run, (s) => !BUSY(s), 10000);
		} else {
			await turn(run, mock, 'session', { label: 'turn3_literal_newline' });
		}
		await R.delay(800);
		note('session', 'literal_prompt_seen_by_model', lastUserText(mock));
		R.saveScreen(run, FIX, 'multiline-literal-after');

		/* multi-line 2: bracketed paste */
		mock.push({ type: 'text', text: 'Answer to the pasted prompt.' });
		const nB2 = mock.main().length;
		R.paste(run, 'pasted line one\npasted line two\npasted line three');
		await R.delay(1500);
		R.saveScreen(run, FIX, 'multiline-paste');
		note('session', 'paste_submitted_by_itself', mock.main().length > nB2);
		await turn(run, mock, 'session', { label: 'turn4_paste' });
		note('session', 'paste_prompt_seen_by_model', lastUserText(mock));
		await R.delay(800);

		/* multi-line 3: C-j and S-Enter / M-Enter between lines */
		const tries = [['C-j', 'ctrl-j'], ['M-Enter', 'alt-enter']];
		for (const [key, label] of tries) {
			const nB = mock.main().length;
			R.literal(run, `first (${label})`);
			await R.delay(300);
			R.keys(run, key);
			await R.delay(300);
			R.literal(run, `second (${label})`);
			await R.delay(1200);
			const submitted = mock.main().length > nB;
			R.saveScreen(run, FIX, `multiline-${label}`);
			note('session', `${label}_submitted`, submitted);
			if (submitted) {
				await R.waitScreen(run, (s) => !BUSY(s), 20000);
				await R.delay(1500);
				/* clear whatever is left in the composer */
				R.keys(run, 'C-u');
			} else {
				mock.push({ type: 'text', text: `Answer (${label}).` });
				await turn(run, mock, 'session', { label: `turn_${label}` });
				note('session', `${label}_prompt_seen_by_model`, lastUserText(mock));
				await R.delay(800);
			}
		}

		/* steer: type and Enter while a turn runs */
		mock.push({ type: 'hold', text: 'Answer to the held turn.' });
		mock.push({ type: 'text', text: 'Answer after the steer.' });
		R.literal(run, 'Start a long task');
		await turn(run, mock, 'session', {
			label: 'turn_steer',
			during: async () => {
				await R.waitScreen(run, BUSY, 10000, 10);
				await R.delay(800);
				R.literal(run, 'steer text typed while running');
				await R.delay(700);
				note('session', 'steer_main_requests_before_enter', mock.main().length);
				R.saveScreen(run, FIX, 'steer-typed');
				R.keys(run, 'Enter');
				await R.delay(1200);
				R.saveScreen(run, FIX, 'steer-submitted');
				note('session', 'steer_requests_while_held', mock.main().length);
				await R.delay(300);
				mock.release();
				await R.delay(2000);
				R.saveScreen(run, FIX, 'steer-after-release');
			},
		});
		await R.delay(1500);
		R.saveScreen(run, FIX, 'steer-answered');
		note('session', 'steer_main_requests', mock.main().slice(-3).map((r) => ({ turn: turnId(r), users: userTexts(r).slice(-3) })));

		/* queue (Tab) while running */
		mock.push({ type: 'hold', text: 'Answer to the second held turn.' });
		R.literal(run, 'Another long task');
		await turn(run, mock, 'session', {
			label: 'turn_tab_queue',
			during: async () => {
				await R.waitScreen(run, BUSY, 10000, 10);
				await R.delay(500);
				R.literal(run, 'queued with tab');
				await R.delay(300);
				R.keys(run, 'Tab');
				await R.delay(1200);
				R.saveScreen(run, FIX, 'queued-tab');
				mock.release();
			},
		});
		await R.delay(300);
		R.saveScreen(run, FIX, 'queued-tab-released');
		await waitRollout(run, (ls) => ls.filter((l) => l.type === 'event_msg' && l.payload.type === 'task_complete').length >= countType(run, 'task_started') && ls, 20000);
		await R.delay(2000);
		R.saveScreen(run, FIX, 'queued-tab-after');
		note('session', 'tab_queue_main_requests', mock.main().slice(-3).map((r) => ({ turn: turnId(r), users: userTexts(r).slice(-3) })));
		saveRollout(run, 'session-all');
	});
}

function userTexts(r) {
	return (r.body.input || []).filter((i) => i.type === 'message' && i.role === 'user')
		.map((i) => (i.content || []).map((c) => c.text || '').join('')).filter((t) => !t.startsWith('<environment_context>'));
}

function lastUserText(mock) {
	const m = mock.main();
	const r = m[m.length - 1];
	if (!r)
		return null;
	const u = userTexts(r);
	return u[u.length - 1];
}

function turnId(r) {
	try { return JSON.parse(r.headers['x-codex-turn-metadata']).turn_id; } catch { return null; }
}

async function caseApproval() {
	await withRun('approval', (run, mock) => {
		/* approval_policy = "untrusted" makes 0.171.0 exit at start ("is no
		 * longer supported"); the default on-request asks when the model
		 * requests escalation. */
		R.configToml(run, { baseUrl: mock.url, approvalPolicy: 'on-request' });
	}, async (run, mock) => {
		await R.waitScreen(run, READY, 30000, 10);
		await R.delay(1000);
		mock.push({ type: 'call', name: 'exec_command', args: { cmd: 'touch approved.txt && echo made-it', workdir: run.work, sandbox_permissions: 'require_escalated', justification: 'Create approved.txt for the fixture?' } });
		mock.push({ type: 'text', text: 'The command ran.' });
		R.literal(run, 'Create the file approved.txt');
		await R.delay(300);
		const nreq = mock.main().length;
		const t0 = Date.now();
		R.keys(run, 'Enter');
		const DIALOG = 'Would you like to run the following command?';
		await R.waitScreen(run, DIALOG, 20000, 10);
		note('approval', 'enter_to_dialog_ms', Date.now() - t0);
		await R.delay(800);
		R.saveScreen(run, FIX, 'approval-exec');
		note('approval', 'main_requests_at_dialog', mock.main().length);
		note('approval', 'rollout_lines_at_dialog', rolloutLines(run).map((l) => l.type + (l.payload && l.payload.type ? ':' + l.payload.type : '')));
		const tA = Date.now();
		R.keys(run, 'y');
		const after = await waitRollout(run, (ls) => ls.some((l) => l.type === 'event_msg' && l.payload.type === 'task_complete') && ls, 30000);
		note('approval', 'approve_to_task_complete_ms', Date.now() - tA);
		note('approval', 'file_created', fs.existsSync(path.join(run.work, 'approved.txt')));
		await R.waitScreen(run, (s) => !BUSY(s), 10000);
		await R.delay(1500);
		R.saveScreen(run, FIX, 'approval-exec-approved');
		saveRollout(run, 'exec-approved');

		/* second call: deny */
		mock.push({ type: 'call', name: 'exec_command', args: { cmd: 'touch denied.txt', workdir: run.work, sandbox_permissions: 'require_escalated', justification: 'Create denied.txt for the fixture?' } });
		mock.push({ type: 'text', text: 'The command was not run.' });
		R.literal(run, 'Create the file denied.txt');
		await R.delay(300);
		R.keys(run, 'Enter');
		await R.waitScreen(run, (s) => s.includes(DIALOG) && s.includes('$ touch denied.txt'), 20000, 10);
		await R.delay(1000);
		R.saveScreen(run, FIX, 'approval-exec-2');
		const tD = Date.now();
		R.keys(run, 'Escape');
		await R.delay(2500);
		R.saveScreen(run, FIX, 'approval-exec-denied');
		note('approval', 'deny_screen_busy', BUSY(R.capture(run)));
		note('approval', 'file_denied_created', fs.existsSync(path.join(run.work, 'denied.txt')));
		note('approval', 'requests_after_deny', mock.main().length);
		await R.delay(2000);
		R.saveScreen(run, FIX, 'approval-exec-denied-later');
		saveRollout(run, 'exec-approved-then-denied');
	});
}

async function caseError() {
	await withRun('error', (run, mock) => {
		R.configToml(run, { baseUrl: mock.url });
	}, async (run, mock) => {
		await R.waitScreen(run, READY, 30000, 10);
		await R.delay(1000);
		mock.push({ type: 'status', status: 529, body: { error: { type: 'overloaded_error', code: 'overloaded', message: 'Overloaded (mock 529)' } } });
		R.literal(run, 'This turn will fail with 529');
		await R.delay(300);
		const t0 = Date.now();
		R.keys(run, 'Enter');
		const r = await waitRollout(run, (ls) => ls.some((l) => l.type === 'event_msg' && /task_complete|error|turn_aborted/.test(l.payload.type)) && ls, 60000);
		note('error', 'enter_to_rollout_end_ms_529', Date.now() - t0);
		await R.waitScreen(run, (s) => !BUSY(s), 60000);
		note('error', 'enter_to_screen_idle_ms_529', Date.now() - t0);
		await R.delay(1500);
		R.saveScreen(run, FIX, 'api-error');
		note('error', 'main_requests_529', mock.main().length);
		saveRollout(run, 'error-turn');

		mock.push({ type: 'failed', code: 'server_error', message: 'The mock failed this response.' });
		R.literal(run, 'This turn will get response.failed');
		await R.delay(300);
		const t1 = Date.now();
		R.keys(run, 'Enter');
		await R.delay(500);
		await R.waitScreen(run, (s) => !BUSY(s), 60000);
		note('error', 'enter_to_screen_idle_ms_failed', Date.now() - t1);
		await R.delay(1500);
		R.saveScreen(run, FIX, 'api-error-failed');
		note('error', 'main_requests_total', mock.main().length);

		/* a normal turn afterwards: does the session recover? */
		mock.push({ type: 'text', text: 'Recovered answer.' });
		R.literal(run, 'Now answer normally');
		await turn(run, mock, 'error', { label: 'recovery_turn' });
		await R.delay(1000);
		R.saveScreen(run, FIX, 'api-error-recovered');
		saveRollout(run, 'error-turns-then-ok');
	});
}

const CASES = { onboarding: caseOnboarding, trust: caseTrust, exited: caseExited, session: caseSession, approval: caseApproval, error: caseError };

(async () => {
	const want = process.argv.slice(2);
	for (const name of want.length ? want : Object.keys(CASES)) {
		const t = Date.now();
		await CASES[name]();
		console.log(`== ${name} ${Date.now() - t} ms`);
	}
})();
