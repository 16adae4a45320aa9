'use strict';
/*
 * Records the Claude Code 2.1.197 fixtures (screens, transcripts, hook
 * input, timings) against lib/claude-mock.cjs in private tmux servers.
 * Usage: node record-claude.cjs [case...]   cases: turns bash error exit onboarding
 * Writes fixtures/claude-code-2.1.197/{screens,transcripts,hooks}/ and
 * timings-<case>.json.
 */
const fs = require('node:fs');
const path = require('node:path');
const { makeRun, claudeEnv, CLAUDE_BIN, FIX, sleep } = require('./lib/tui.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');

const READY = (s) => /\? for shortcuts/.test(s) && /^❯/m.test(s) && !/esc to interrupt/.test(s);
const IDLE = READY;

function stopHookSetup(run, extra) {
	const hook = path.join(run.dirs.root, 'stop-hook.sh');
	fs.mkdirSync(path.join(run.dirs.root, 'hooklog'));
	/* One file per call, named by the time (ms) the hook started. */
	fs.writeFileSync(hook, `#!/bin/sh\nt=$(date +%s%3N)\ncat $HOME/.claude/projects/*/*.jsonl | grep -c '"type":"assistant"' > ${run.dirs.root}/hooklog/tx-$t-$$.txt\ncat > ${run.dirs.root}/hooklog/$t-$$.json\n`, { mode: 0o755 });
	run.writeSettings(Object.assign({ hooks: { Stop: [{ hooks: [{ type: 'command', command: hook }] }], StopFailure: [{ hooks: [{ type: 'command', command: hook }] }] } }, extra || {}));
}

function hookLog(run) {
	const d = path.join(run.dirs.root, 'hooklog');
	try {
		return fs.readdirSync(d).filter((f) => f.endsWith('.json')).sort().map((f) => ({ hook_time_ms: Number(f.split('-')[0]), stdin: JSON.parse(fs.readFileSync(path.join(d, f), 'utf8')), assistantRecordsInTranscriptWhenHookRan: Number(fs.readFileSync(path.join(d, 'tx-' + f.replace('.json', '.txt')), 'utf8').trim()) }));
	} catch { return []; }
}

function sessionFile(run) {
	const d = path.join(run.dirs.home, '.claude', 'sessions');
	try {
		const f = fs.readdirSync(d).filter((x) => x.endsWith('.json'));
		return f.length ? JSON.parse(fs.readFileSync(path.join(d, f[0]), 'utf8')) : null;
	} catch { return null; }
}

/* Watches the transcript: time each record type/subtype first appears (by line count). */
function watchTranscript(run) {
	const w = { lines: 0, events: [], created: null, timer: null };
	w.timer = setInterval(() => {
		const files = run.transcripts();
		if (!files.length) return;
		if (!w.created) w.created = Date.now();
		let text = '';
		try { text = fs.readFileSync(files[0], 'utf8'); } catch { return; }
		const lines = text.split('\n').filter(Boolean);
		for (let i = w.lines; i < lines.length; i++) {
			let r; try { r = JSON.parse(lines[i]); } catch { continue; }
			w.events.push({ t: Date.now(), type: r.type, subtype: r.subtype, stop: r.message && r.message.stop_reason });
		}
		w.lines = lines.length;
	}, 10);
	w.stop = () => clearInterval(w.timer);
	w.after = (t0, pred) => { const e = w.events.find((x) => x.t >= t0 && pred(x)); return e ? e.t : null; };
	return w;
}

async function setup(opts = {}) {
	const mock = await startClaudeMock();
	const run = makeRun();
	run.env.ANTHROPIC_BASE_URL = mock.url;
	live.push({ mock, run });
	if (opts.claudeJson !== false) run.writeClaudeJson(opts.claudeJson || {});
	if (opts.hook) stopHookSetup(run, opts.settings);
	else if (opts.settings) run.writeSettings(opts.settings);
	const env = claudeEnv(mock.url, opts.env);
	if (opts.nokey) delete env.ANTHROPIC_API_KEY;
	run.start([CLAUDE_BIN, ...(opts.args || [])], env);
	return { mock, run };
}

async function finish(mock, run, name, timings) {
	run.rememberTree();
	if (timings) fs.writeFileSync(path.join(FIX, `timings-${name}.json`), JSON.stringify(timings, null, 2) + '\n');
	await run.cleanup(process.env.KEEP);
	await mock.close();
}

function mainReqs(mock, since) { return mock.main.filter((r) => r.time >= since); }

/* One turn: type prompt, C-m, wait idle; returns timing figures. */
async function turn(run, mock, w, prompt, opts = {}) {
	run.literal(prompt);
	await sleep(150);
	const tSubmit = Date.now();
	run.keys('C-m');
	let tRunning = null;
	if (opts.onRunning) {
		await run.waitFor(/esc to interrupt/, 10000, 'running');
		tRunning = Date.now();
		await opts.onRunning();
	}
	await run.waitFor((s) => IDLE(s) && mainReqs(mock, tSubmit).every((r) => r.lastEvent) && mainReqs(mock, tSubmit).length > 0 && w.after(tSubmit, (e) => e.subtype === 'turn_duration' || e.type === 'assistant'), opts.timeoutMs || 30000, 'idle');
	const tIdle = Date.now();
	await sleep(300);
	const reqs = mainReqs(mock, tSubmit);
	const last = reqs[reqs.length - 1];
	const tAssistant = w.after(last.lastEvent - 5, (e) => e.type === 'assistant');
	const tDur = w.after(tSubmit, (e) => e.subtype === 'turn_duration');
	const hook = hookLog(run).find((h) => h.hook_time_ms >= tSubmit);
	return {
		prompt,
		submitToFirstMainRequestMs: reqs[0].time - tSubmit,
		submitToRunningScreenMs: tRunning && tRunning - tSubmit,
		mainRequests: reqs.length,
		lastSseEventToAssistantRecordMs: tAssistant && tAssistant - last.lastEvent,
		lastSseEventToTurnDurationRecordMs: tDur && tDur - last.lastEvent,
		lastSseEventToStopHookMs: hook ? hook.hook_time_ms - last.lastEvent : null,
		lastSseEventToIdleScreenMs: tIdle - last.lastEvent,
		note: 'idle screen time is when the 50 ms poll first saw it and the transcript had the record',
	};
}

const cases = {};
const live = [];

cases.turns = async () => {
	const { mock, run } = await setup({ hook: true });
	const w = watchTranscript(run);
	const T = { case: 'turns' };
	const sfWatch = setInterval(() => { if (!T.sessionFileAppearedMs && sessionFile(run)) T.sessionFileAppearedMs = Date.now() - run.spawnT; }, 10);
	await run.waitFor(READY, 20000, 'ready');
	T.spawnToReadyMs = Date.now() - run.spawnT;
	const sf = sessionFile(run);
	T.sessionFileAtReady = sf;
	T.transcriptExistsAtReady = run.transcripts().length > 0;
	T.projectsDirExistsAtReady = fs.existsSync(run.projectDir());
	T.requestsBeforePrompt = mock.requests.map((r) => ({ t: r.time - run.spawnT, method: r.method, url: r.url, kind: r.kind }));
	T.procTreeIdle = run.procTree();
	run.save('ready');
	await sleep(2000);
	run.save('ready-after-2s');
	clearInterval(sfWatch);
	T.sessionFileAtReady2 = sessionFile(run);
	/* Turn 1: slow text. */
	mock.push({ type: 'text', text: 'The answer is forty-two. This reply was streamed slowly by the mock.', chunks: 5, delayMs: 800, holdMs: 1000 });
	run.literal('What is the answer?');
	await sleep(300);
	run.save('typed-not-submitted');
	T.typedSessionStatus = sessionFile(run) && sessionFile(run).status;
	/* turn() types again: clear the composer first (C-u), then retype. */
	run.keys('C-u');
	await sleep(200);
	run.save('composer-after-ctrl-u');
	T.turn1 = await turn(run, mock, w, 'What is the answer?', {
		onRunning: async () => {
			await sleep(1200);
			run.save('running');
			T.runningSessionFile = sessionFile(run);
			T.procTreeRunning = run.procTree();
			await sleep(1500);
			run.save('running-streaming');
		},
	});
	T.turn1.sessionFileAfter = sessionFile(run);
	run.save('answered');
	await sleep(4000);
	run.save('answered-after-4s');
	run.saveTranscript('plain-turn');
	T.transcriptFile = path.basename(run.transcripts()[0]);
	/* Turn 2: fast. */
	mock.push({ type: 'text', text: 'Second answer: seven.' });
	T.turn2 = await turn(run, mock, w, 'And the second question?');
	run.save('answered-two-turns');
	run.saveTranscript('two-turns');
	/* Turn 3: text-only turn with a message typed (and submitted) while it runs. */
	mock.push({ type: 'text', text: 'Slow third answer.', chunks: 4, delayMs: 1000, holdMs: 500 },
		{ type: 'text', text: 'Answer to the queued message.' });
	const t3 = Date.now();
	T.turn3 = await turn(run, mock, w, 'Third, slow', {
		onRunning: async () => {
			await sleep(700);
			run.literal('queued during text');
			await sleep(200);
			run.save('running-typed-while-busy');
			run.keys('C-m');
			await sleep(500);
			run.save('running-steer-queued');
		},
	});
	/* turn() returns at the first idle; the queued message then runs as its own turn. */
	await sleep(500);
	await run.waitFor((s) => IDLE(s) && /Answer to the queued message/.test(s), 20000, 'queued turn done');
	T.turn3.mainRequestsIncludingQueued = mainReqs(mock, t3).map((r) => ({ t: r.time - t3, last: JSON.stringify(r.body.messages[r.body.messages.length - 1]).slice(0, 300) }));
	run.save('answered-after-queued');
	run.saveTranscript('steer-queued-text-turn');
	T.stopHookInputs = hookLog(run).map((h) => JSON.parse(run.sanitize(JSON.stringify(h))));
	fs.mkdirSync(path.join(FIX, 'hooks'), { recursive: true });
	fs.writeFileSync(path.join(FIX, 'hooks', 'stop-hook-stdin.jsonl'), T.stopHookInputs.map((h) => JSON.stringify(h.stdin)).join('\n') + '\n');
	T.sideRequests = mock.side.map((r) => ({ t: r.time - run.spawnT, model: r.body.model, system0: JSON.stringify(r.body.system).slice(0, 200), last: JSON.stringify(r.body.messages[r.body.messages.length - 1]).slice(0, 200) }));
	T.mainRequestSummary = mock.main.map((r) => ({ t: r.time - run.spawnT, model: r.body.model, ntools: r.body.tools.length, tools: r.body.tools.map((t) => t.name), stream: r.body.stream, nmsg: r.body.messages.length }));
	w.stop();
	T.transcriptEvents = w.events.map((e) => Object.assign({}, e, { t: e.t - run.spawnT }));
	T.transcriptCreatedMsAfterSpawn = w.created - run.spawnT;
	await finish(mock, run, 'turns', JSON.parse(run.sanitize(JSON.stringify(T))));
};

cases.early = async () => {
	/* Typing as soon as the ready screen shows, and before it. */
	const R = {};
	{
		const { mock, run } = await setup({});
		await run.waitFor(READY, 20000, 'ready');
		R.readyMs = Date.now() - run.spawnT;
		run.literal('typed at ready');
		await sleep(800);
		R.atReady = run.capture(false).split('\n').filter((l) => l.startsWith('❯'));
		await finish(mock, run, 'x');
	}
	{
		const { mock, run } = await setup({});
		await sleep(150);
		run.literal('typed at 150ms');
		await run.waitFor(READY, 20000, 'ready');
		await sleep(1000);
		R.at150ms = run.capture(false).split('\n').filter((l) => l.startsWith('❯'));
		await finish(mock, run, 'x');
	}
	{
		const { mock, run } = await setup({});
		await run.waitFor(READY, 20000, 'ready');
		run.literal('submitted at ready');
		run.keys('C-m');
		await sleep(1500);
		R.submitAtReady = { lines: run.capture(false).split('\n').filter((l) => /^[❯●]/.test(l)), mainRequests: mock.main.length };
		await finish(mock, run, 'x');
	}
	fs.writeFileSync(path.join(FIX, 'timings-early.json'), JSON.stringify(R, null, 2) + '\n');
};

cases.bash = async () => {
	const { mock, run } = await setup({ hook: true });
	const w = watchTranscript(run);
	const T = { case: 'bash' };
	await run.waitFor(READY, 20000, 'ready');
	const x = path.join(run.dirs.root, 'x');
	mock.push({ type: 'tool', name: 'Bash', input: { command: `sleep 2 && echo hi > ${x}`, description: 'Write hi to a file' } },
		{ type: 'text', text: 'Wrote hi to the file.' });
	run.literal('Write hi to the file');
	await sleep(150);
	const t0 = Date.now();
	run.keys('C-m');
	await run.waitFor(/Do you want to proceed\?/, 15000, 'permission');
	T.submitToPermissionMs = Date.now() - t0;
	await sleep(300);
	run.save('permission-bash');
	T.sessionFileAtPermission = sessionFile(run);
	const tKey = Date.now();
	run.keys('1');
	await sleep(700);
	run.save('permission-bash-running-command');
	T.procTreeRunningBash = run.procTree();
	await run.waitFor((s) => IDLE(s) && /Wrote hi to the file\./.test(s), 20000, 'idle after yes');
	T.yesToIdleMs = Date.now() - tKey;
	T.fileWritten = fs.existsSync(x) && fs.readFileSync(x, 'utf8');
	await sleep(300);
	run.save('permission-bash-after-yes');
	run.saveTranscript('bash-approved');
	/* Second: rejected with 3. */
	const y = path.join(run.dirs.root, 'y');
	mock.push({ type: 'tool', name: 'Bash', input: { command: `echo no > ${y}`, description: 'Write no to a file' } },
		{ type: 'text', text: 'never sent' });
	run.literal('Now write no');
	await sleep(150);
	run.keys('C-m');
	await run.waitFor(/Do you want to proceed\?/, 15000, 'permission 2');
	await sleep(300);
	run.keys('3');
	await run.waitFor((s) => IDLE(s) && /What should Claude do instead\?/.test(s), 15000, 'idle after no');
	await sleep(500);
	run.save('permission-bash-after-no');
	T.rejectedFileExists = fs.existsSync(y);
	T.requestsAfterReject = mock.main.length;
	T.hooksFired = hookLog(run).length;
	/* Third: Esc on the dialog. */
	mock.queue.length = 0;
	mock.push({ type: 'tool', name: 'Bash', input: { command: `echo esc > ${y}`, description: 'Write esc to a file' } });
	run.literal('Now try again');
	await sleep(150);
	run.keys('C-m');
	await run.waitFor(/Do you want to proceed\?/, 15000, 'permission 3');
	await sleep(300);
	run.keys('Escape');
	await run.waitFor((s) => IDLE(s) && /Interrupted/.test(s.split('Now try again')[1] || ''), 15000, 'idle after esc');
	await sleep(500);
	run.save('permission-bash-after-esc');
	T.hooksFiredTotal = hookLog(run).length;
	T.stopHookInputs = hookLog(run).map((h) => JSON.parse(run.sanitize(JSON.stringify(h))));
	run.saveTranscript('bash-approved-rejected-escaped');
	w.stop();
	T.transcriptEvents = w.events.map((e) => Object.assign({}, e, { t: e.t - run.spawnT }));
	await finish(mock, run, 'bash', JSON.parse(run.sanitize(JSON.stringify(T))));
};

cases.error = async () => {
	const { mock, run } = await setup({ hook: true, env: { CLAUDE_CODE_MAX_RETRIES: '0' } });
	const w = watchTranscript(run);
	const T = { case: 'error', env: 'CLAUDE_CODE_MAX_RETRIES=0' };
	await run.waitFor(READY, 20000, 'ready');
	mock.push({ type: 'error', status: 529 });
	run.literal('Hello?');
	await sleep(150);
	const t0 = Date.now();
	run.keys('C-m');
	await run.waitFor((s) => IDLE(s) && /API Error/.test(s), 20000, 'api error');
	T.submitToErrorScreenMs = Date.now() - t0;
	await sleep(500);
	run.save('api-error');
	T.mainRequests = mock.main.length;
	T.stopHookFired = hookLog(run).length;
	T.hookInputs = hookLog(run).map((h) => JSON.parse(run.sanitize(JSON.stringify(h))));
	T.sessionFile = sessionFile(run);
	run.saveTranscript('api-error');
	/* A 500 with default retries: what the retry screen shows. */
	w.stop();
	await finish(mock, run, 'error', JSON.parse(run.sanitize(JSON.stringify(T))));

	const b = await setup({});
	await b.run.waitFor(READY, 20000, 'ready');
	for (let i = 0; i < 30; i++) b.mock.push({ type: 'error', status: 500, body: { type: 'error', error: { type: 'api_error', message: 'Internal server error' } } });
	b.run.literal('Hello?');
	await sleep(150);
	const t1 = Date.now();
	b.run.keys('C-m');
	const U = { case: 'error-500-default-retries' };
	try {
		await b.run.waitFor(/Retrying in|retry|attempt/i, 20000, 'retry');
		U.submitToRetryScreenMs = Date.now() - t1;
		b.run.save('api-error-retrying');
	} catch (e) { U.noRetryScreen = e.screen; }
	await sleep(8000);
	b.run.save('api-error-retrying-later');
	U.requestTimes = b.mock.main.map((r) => r.time - t1);
	await finish(b.mock, b.run, 'error-500', U);
};

cases.exit = async () => {
	const R = {};
	for (const [name, opts] of [
		['exited-at-start-unknown-flag', { args: ['--bogus-flag'] }],
		['exited-at-start-bad-model-flag', { args: ['--model'] }],
	]) {
		const { mock, run } = await setup(opts);
		await run.waitFor(() => run.paneInfo().startsWith('1'), 10000, 'dead');
		R[name] = { msToDead: Date.now() - run.spawnT, pane: run.tmux('display', '-p', '-t', 'c', '#{pane_dead} status=#{pane_dead_status} signal=#{pane_dead_signal}').trim() };
		await sleep(300);
		run.save(name);
		await finish(mock, run, name);
	}
	/* Invalid JSON in ~/.claude/settings.json. */
	{
		const { mock, run } = await setup({ settings: '{ this is not json' });
		await sleep(3500);
		R.invalidJson = { pane: run.paneInfo() };
		run.save('settings-invalid-json');
		await finish(mock, run, 'x');
	}
	fs.writeFileSync(path.join(FIX, 'timings-exit.json'), JSON.stringify(R, null, 2) + '\n');
};

cases.onboarding = async () => {
	/* Nothing pre-seeded: record each distinct screen until the pane dies. */
	const R = {};
	for (const [name, opts] of [['onboarding-nothing-seeded', { claudeJson: false, nokey: true }], ['onboarding-key-not-approved', { claudeJson: false }]]) {
		const { mock, run } = await setup(opts);
		const seen = [];
		let prev = '';
		const t = Date.now();
		while (Date.now() - t < 6000) {
			const s = run.capture(false);
			if (s !== prev) { seen.push({ t: Date.now() - run.spawnT, screen: run.sanitize(s).replace(/\n+$/, '') }); prev = s; }
			if (run.paneInfo().startsWith('1')) break;
			await sleep(25);
		}
		await sleep(300);
		run.save(name);
		R[name] = { pane: run.paneInfo(), screens: seen.map((x) => ({ t: x.t, firstLines: x.screen.split('\n').filter((l) => l.trim()).slice(-6) })) , requests: mock.requests.map((r) => `${r.method} ${r.url}`) };
		await finish(mock, run, 'x');
	}
	/* Theme only not set (onboarding not completed, key approved). */
	{
		const { mock, run } = await setup({ claudeJson: { onboarded: false, theme: false } });
		await run.waitFor(/Choose the text style/, 10000, 'theme');
		R.themeAt = Date.now() - run.spawnT;
		await sleep(300);
		run.save('theme-picker');
		run.keys('Down');
		await sleep(300);
		run.save('theme-picker-after-down');
		run.keys('Enter');
		await run.waitFor(/Security notes/, 10000, 'security');
		await sleep(300);
		run.save('security-notes');
		run.keys('Enter');
		await run.waitFor(READY, 10000, 'ready');
		await sleep(300);
		run.save('ready-after-onboarding');
		const cfg = JSON.parse(fs.readFileSync(path.join(run.dirs.home, '.claude.json'), 'utf8'));
		R.afterOnboarding = { theme: cfg.theme, hasCompletedOnboarding: cfg.hasCompletedOnboarding };
		await finish(mock, run, 'x');
	}
	/* hasCompletedOnboarding true, theme absent. */
	{
		const { mock, run } = await setup({ claudeJson: { theme: false } });
		await sleep(3000);
		R.themeAbsentOnboarded = run.capture(false).split('\n').filter((l) => l.trim()).slice(-3);
		await finish(mock, run, 'x');
	}
	/* Key not approved, onboarded. */
	{
		const { mock, run } = await setup({ claudeJson: { approveKey: false } });
		await run.waitFor(/Detected a custom API key/, 10000, 'key');
		await sleep(300);
		run.save('api-key-prompt');
		run.keys('Up');
		await sleep(300);
		run.save('api-key-prompt-after-up');
		run.keys('Enter');
		await run.waitFor(READY, 10000, 'ready');
		R.keyApproved = JSON.parse(fs.readFileSync(path.join(run.dirs.home, '.claude.json'), 'utf8')).customApiKeyResponses;
		await finish(mock, run, 'x');
	}
	/* Not trusted + project .mcp.json. */
	{
		const mock = await startClaudeMock();
		const run = makeRun();
		live.push({ mock, run });
		run.env.ANTHROPIC_BASE_URL = mock.url;
		run.writeClaudeJson({ trust: false });
		fs.writeFileSync(path.join(run.dirs.work, '.mcp.json'), JSON.stringify({ mcpServers: { demo: { type: 'stdio', command: '/bin/cat', args: [] } } }));
		run.start([CLAUDE_BIN], claudeEnv(mock.url));
		await run.waitFor(/trust this folder/, 10000, 'trust');
		await sleep(300);
		run.save('trust-dialog');
		run.keys('Enter');
		await run.waitFor(/New MCP server found/, 10000, 'mcp');
		await sleep(300);
		run.save('mcp-server-approval');
		run.keys('Enter');
		await run.waitFor(READY, 10000, 'ready');
		await sleep(1500);
		run.save('ready-with-mcp-server');
		const cfg = JSON.parse(fs.readFileSync(path.join(run.dirs.home, '.claude.json'), 'utf8'));
		R.trustAndMcp = { project: cfg.projects[run.dirs.work], settingsLocal: (() => { try { return fs.readFileSync(path.join(run.dirs.work, '.claude', 'settings.local.json'), 'utf8'); } catch { return null; } })() };
		await finish(mock, run, 'x');
	}
	/* Trust dialog: "2. No, exit". */
	{
		const { mock, run } = await setup({ claudeJson: { trust: false } });
		await run.waitFor(/trust this folder/, 10000, 'trust');
		run.keys('2');
		await run.waitFor(() => run.paneInfo().startsWith('1'), 10000, 'dead');
		await sleep(300);
		run.save('trust-dialog-after-no');
		R.trustNo = run.paneInfo();
		await finish(mock, run, 'x');
	}
	fs.writeFileSync(path.join(FIX, 'timings-onboarding.json'), JSON.stringify(R, null, 2) + '\n');
};

(async () => {
	const want = process.argv.slice(2);
	for (const name of want.length ? want : Object.keys(cases)) {
		const t = Date.now();
		try {
			await cases[name]();
			console.log(`${name}: ok (${Date.now() - t} ms)`);
		} catch (e) {
			console.log(`${name}: FAILED ${e.stack}`);
			for (const { mock, run } of live.splice(0)) {
				try { run.rememberTree(); } catch { /* gone */ }
				await run.cleanup(process.env.KEEP);
				await mock.close();
			}
		}
	}
})();
