'use strict';
/*
 * agent_launch, pty_send, agent_approval and pty_read{agent_transcript} on
 * the real Gemini CLI (@google/gemini-cli 0.61.0, tests/clients' lock) in
 * a private tmux server with its own HOME (~/.gemini/settings.json seeded
 * there: signed in with an API key), against a mock of the Gemini API on
 * 127.0.0.1 (lib/gemini-mock.cjs, reached through GOOGLE_GEMINI_BASE_URL):
 * AGT-LAUNCH, AGT-START, AGT-TURN, AGT-SEND, AGT-APPROVAL, AGT-JOB,
 * AGT-GEMINI (issue 39).  What is asserted is the text the model reads.
 *
 * GEMINI_CLI_NO_RELAUNCH=true: the CLI does not start itself a second
 * time with a larger heap (what costs most of its start-up here).
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { AgentRig } = require('./lib/agent-rig.cjs');
const { startGeminiMock, seedGemini, geminiEntry, delay } = require('./lib/gemini-mock.cjs');
const { until } = require('./lib/until.cjs');

const T = { timeout: 180000 };

/* A "gemini" on the rig's PATH: node and the pinned package's entry point. */
function linkGemini(rig) {
	const bin = path.join(rig.dirs.bin, 'gemini');
	fs.writeFileSync(bin, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(geminiEntry())} "$@"\n`, { mode: 0o755 });
}

async function rigWithMock(t, parts = {}, mockOpts = {}, env = {}) {
	const mock = await startGeminiMock(Object.assign({ defaultText: 'Default answer.' }, mockOpts));
	t.after(() => mock.close());
	const rig = new AgentRig(t, { env: Object.assign({
		GEMINI_API_KEY: 'mock-gemini-key-for-the-aiterm-harness',
		GOOGLE_GEMINI_BASE_URL: mock.url,
		GEMINI_CLI_NO_RELAUNCH: 'true',
	}, env) });
	linkGemini(rig);
	seedGemini(rig.dirs.home, parts);
	rig.show(t);
	await rig.start();
	return { rig, mock };
}

/* agent_launch; the screen into the diagnostics when the prompt is not confirmed. */
async function launch(rig, args) {
	const l = await rig.call('agent_launch', Object.assign({ harness: 'gemini-cli', cwd: rig.dirs.work, trust_project: true }, args));
	if (/sent_unconfirmed/.test(l.text))
		await rig.call('pty_read', { session_id: sid(l.text), screen: true });
	return l;
}

function sid(text) {
	const m = text.match(/^launched gemini-cli \S+ in (\S+) \(launch /m);
	assert.ok(m, `the receipt names the session: ${text}`);
	return m[1];
}

/* The prompt texts the model was asked, in order (main requests). */
function asked(mock) {
	return mock.main().map((r) => {
		const c = r.body.contents || [];
		const last = c[c.length - 1] || {};
		/* The session's context block is a part of the first request's user content. */
		return (last.parts || []).filter((p) => !(p.text || '').startsWith('<session_context>'))
			.map((p) => p.text || (p.functionResponse ? `[result ${p.functionResponse.name}]` : '')).join('');
	});
}

test('AGT-LAUNCH AGT-TURN AGT-GEMINI: Gemini, a plain turn and then a second one, each with its own answer', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Gemini first answer.', chunks: 3, delayMs: 150 });
	const t0 = Date.now();
	const l = await launch(rig, { prompt: 'First question' });
	t.diagnostic(`launch to ready and sent: ${Date.now() - t0} ms`);
	assert.equal(l.isError, false, l.text);
	assert.match(l.text, /^startup: ready$/m, l.text);
	assert.match(l.text, /^prompt: (start_confirmed \(\w+\)|sent_unconfirmed), turn 1, event_cursor 1:0$/m, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Gemini first answer\.\n\[turn 1 done( · [\d.]+s)?\]$/, a.text);
	/* The chat file: tmp/<project id>/chats/session-<time>-<id8>.jsonl, claimed by the session id. */
	assert.match(a.sc.transcript, /\/\.gemini\/tmp\/work\/chats\/session-[\dT-]+-[0-9a-f]{8}\.jsonl$/, a.sc.transcript);
	const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', id, 'agent.json'), 'utf8'));
	assert.equal(rec.bound_by, 'session_id');
	/* The project registry names the folder so (the file the plugin does not read). */
	const reg = JSON.parse(fs.readFileSync(path.join(rig.dirs.home, '.gemini', 'projects.json'), 'utf8'));
	assert.equal(reg.projects[rig.dirs.work], 'work');
	mock.push({ type: 'text', text: 'Gemini second answer.' });
	const b = await rig.call('pty_send', { session_id: id, text: 'Second question', wait: true, timeout: 60 });
	assert.match(b.text, /^Gemini second answer\.\n\[turn 2 done/, b.text);
	const old = await rig.call('pty_read', { session_id: id, agent_transcript: true, turn: 1 });
	assert.match(old.text, /^Gemini first answer\.\n\[turn 1, saved\]$/, old.text);
	assert.deepEqual(asked(mock), ['First question', 'Second question']);
	/* Model "auto": the router classifier was asked for JSON first (generateContent). */
	assert.ok(mock.requests.some((r) => r.kind === 'json' && /:generateContent$/.test(r.url.split('?')[0])), 'the router was asked');
	/* Trusted for this session only: nothing written to trustedFolders.json. */
	assert.equal(fs.existsSync(path.join(rig.dirs.home, '.gemini', 'trustedFolders.json')), false);
});

test('AGT-SEND AGT-GEMINI: an Enter lost after the paste is pressed once more; the prompt is turn 1, asked once', T, async (t) => {
	/*
	 * Three Gemini CLIs starting at once under AddressSanitizer: one took
	 * the paste and lost the Enter, and the launch said sent_unconfirmed
	 * for a prompt never asked (stop 49's CI).  AITERM_TEST_LOSE_SUBMITS=1
	 * types the first prompt without its Enter: Gemini's box holds it, the
	 * dispatch presses Enter once more at its deadline (ADR 0048).
	 */
	const { rig, mock } = await rigWithMock(t, {}, {}, { AITERM_TEST_TOOLS: '1', AITERM_TEST_LOSE_SUBMITS: '1' });
	mock.push({ type: 'text', text: 'Answer after the second Enter.' });
	const t0 = Date.now();
	const l = await launch(rig, { prompt: 'Lost its Enter' });
	assert.match(l.text, /^prompt: start_confirmed \(\w+\), turn 1, event_cursor 1:0$/m, l.text);
	assert.ok(Date.now() - t0 >= 5000, 'pressed again after the deadline');
	const a = await rig.call('pty_read', { session_id: sid(l.text), agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Answer after the second Enter\.\n\[turn 1 done/, a.text);
	assert.deepEqual(asked(mock), ['Lost its Enter']);
});

test('AGT-SEND AGT-GEMINI: Gemini\'s box in its modes: vim mode\'s hints are no typed text, YOLO\'s "*" box takes prompts, shell mode is the user\'s', T, async (t) => {
	/*
	 * Gemini draws "Press 'Esc' for NORMAL mode." (vim mode, INSERT) or
	 * "Press 'i' for INSERT mode." where its box is empty, as it draws
	 * "Type your message or @path/to/file" otherwise: read as typed text,
	 * every new turn would be refused INPUT_PENDING (ADR 0048).
	 */
	const { rig, mock } = await rigWithMock(t, { settings: { general: { disableAutoUpdate: true, disableUpdateNag: true, vimMode: true } } });
	mock.push({ type: 'text', text: 'Vim answer one.' });
	const l = await launch(rig, { prompt: 'Vim question one' });
	assert.match(l.text, /^prompt: start_confirmed \(\w+\), turn 1, event_cursor 1:0$/m, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Vim answer one\.\n\[turn 1 done/, a.text);
	const scr = await rig.call('pty_read', { session_id: id, screen: true });
	assert.match(scr.text, /Press '(Esc|i)' for (NORMAL|INSERT) mode\./, scr.text);
	mock.push({ type: 'text', text: 'Vim answer two.' });
	const b = await rig.call('pty_send', { session_id: id, text: 'Vim question two', wait: true, timeout: 60 });
	assert.match(b.text, /^Vim answer two\.\n\[turn 2 done/, b.text);
	/* Ctrl+Y: YOLO mode, whose box's sign is "*", not ">": still a composer. */
	await rig.call('pty_key', { session_id: id, key: 'C-y' });
	await until('YOLO mode', async () => /^ \*   Press 'Esc' for NORMAL mode\.$/m.test((await rig.call('pty_read', { session_id: id, screen: true })).text), 10000);
	mock.push({ type: 'text', text: 'YOLO answer.' });
	const y = await rig.call('pty_send', { session_id: id, text: 'YOLO question', wait: true, timeout: 60 });
	assert.match(y.text, /^YOLO answer\.\n\[turn 3 done/, y.text);
	assert.deepEqual(asked(mock), ['Vim question one', 'Vim question two', 'YOLO question']);
	/* "!" at the empty box: shell mode, where a prompt would run as a command: nothing typed. */
	await rig.call('pty_key', { session_id: id, key: '!' });
	await until('shell mode', async () => /shell mode enabled/.test((await rig.call('pty_read', { session_id: id, screen: true })).text), 10000);
	const c = await rig.call('pty_send', { session_id: id, text: 'rm -rf never-typed' });
	assert.equal(c.isError, true, c.text);
	assert.match(c.text, /its screen is blocking_dialog \(shell_mode\)/, c.text);
	assert.doesNotMatch((await rig.call('pty_read', { session_id: id, screen: true })).text, /never-typed/);
});

/* The chat file's message lines (not the header, not $set). */
function chatLines(file) {
	return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)).filter((o) => o.type);
}

test('AGT-TURN AGT-GEMINI issue 39: a reply whose text comes before its tool call is no answer until the screen is idle', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	fs.writeFileSync(path.join(rig.dirs.work, 'a.txt'), 'hi\n');
	/* The text, then (a while later) the tool call of the same message; the tool's result; the answer. */
	mock.push({ type: 'call', text: 'Let me look.', name: 'list_directory', args: { dir_path: '.' }, delayMs: 1500 },
		{ type: 'text', text: 'The folder holds a.txt.', delayMs: 1000, chunks: 2 });
	const l = await launch(rig, { prompt: 'List the folder' });
	assert.equal(l.isError, false, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^The folder holds a\.txt\.\n\[turn 1 done/, a.text);
	/* Gemini did write the text alone first, then the same message with its tool call. */
	const lines = chatLines(a.sc.transcript).filter((o) => o.type === 'gemini' && o.content === 'Let me look.');
	assert.equal(lines.length, 2, JSON.stringify(lines));
	assert.equal(lines[0].id, lines[1].id);
	assert.ok(!lines[0].toolCalls && lines[1].toolCalls && lines[1].toolCalls[0].name === 'list_directory', JSON.stringify(lines));
	assert.deepEqual(asked(mock), ['List the folder', '[result list_directory]']);
});

test('AGT-APPROVAL AGT-GEMINI: a shell command waits for its approval; approved once it runs, denied the turn is cancelled', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'call', text: 'Making it.', name: 'run_shell_command', args: { command: 'touch made.txt', description: 'make a file' } },
		{ type: 'text', text: 'Made it.' });
	const l = await launch(rig, { prompt: 'Make a file' });
	assert.equal(l.isError, false, l.text);
	const id = sid(l.text);
	const w = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(w.text, /^\[turn 1 waits for an approval \(tool_approval\): agent_approval session_id=\S+ shows it\]$/, w.text);
	const show = await rig.call('agent_approval', { session_id: id });
	assert.equal(show.isError, false, show.text);
	assert.match(show.text, /Shell touch made\.txt/, show.text);
	assert.match(show.text, /approve_once/, show.text);
	assert.match(show.text, /deny/, show.text);
	const digest = (text, choice) => text.match(new RegExp(`choice=${choice} digest=([0-9a-f]{16})$`, 'm'))[1];
	const yes = await rig.call('agent_approval', { session_id: id, choice: 'approve_once', digest: digest(show.text, 'approve_once') });
	assert.equal(yes.isError, false, yes.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Made it\.\n\[turn 1 done/, a.text);
	assert.ok(fs.existsSync(path.join(rig.dirs.work, 'made.txt')));
	/* Denied: Gemini cancels the request (and rewrites its history without that prompt). */
	mock.push({ type: 'call', text: 'Removing it.', name: 'run_shell_command', args: { command: 'rm made.txt', description: 'remove' } });
	const s = await rig.call('pty_send', { session_id: id, text: 'Remove the file' });
	assert.equal(s.isError, false, s.text);
	await until('the approval', async () => /waits for an approval/.test((await rig.call('pty_read', { session_id: id, agent_transcript: true })).text), 30000);
	const show2 = await rig.call('agent_approval', { session_id: id });
	const no = await rig.call('agent_approval', { session_id: id, choice: 'deny', digest: digest(show2.text, 'deny') });
	assert.equal(no.isError, false, no.text);
	const d = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(d.text, /^Request cancelled\.\n\[turn 2 ended with an error \(cancelled\)/, d.text);
	assert.ok(fs.existsSync(path.join(rig.dirs.work, 'made.txt')));
	/* The next turn is counted right after Gemini's rewrite of its history. */
	mock.push({ type: 'text', text: 'Third answer.' });
	const c = await rig.call('pty_send', { session_id: id, text: 'Third question', wait: true, timeout: 60 });
	assert.match(c.text, /^Third answer\.\n\[turn 3 done/, c.text);
});

test('AGT-TURN AGT-GEMINI: an API error ends the turn with Gemini\'s error text', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'status', status: 400, body: { error: { code: 400, message: 'Mock bad request: the model refused.', status: 'INVALID_ARGUMENT' } } });
	const l = await launch(rig, { prompt: 'Break please' });
	assert.equal(l.isError, false, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^\[API Error: .*Mock bad request: the model refused\..*\]\n\[turn 1 ended with an error \(api_error\)/, a.text);
	mock.push({ type: 'text', text: 'Recovered.' });
	const b = await rig.call('pty_send', { session_id: id, text: 'Try again', wait: true, timeout: 60 });
	assert.match(b.text, /^Recovered\.\n\[turn 2 done/, b.text);
});

test('AGT-START AGT-GEMINI: no sign-in chosen stops at the chooser; an untrusted folder stops at the trust question', T, async (t) => {
	const { rig } = await rigWithMock(t, { noAuth: true });
	const r = await launch(rig, { prompt: 'Hello' });
	assert.match(r.text, /^startup: vendor_onboarding_required; screen onboarding\/vendor_onboarding_required$/m, r.text);
	assert.match(r.text, /^prompt: not_sent/m, r.text);
	seedGemini(rig.dirs.home);
	const u = await rig.call('agent_launch', { harness: 'gemini-cli', cwd: rig.dirs.work, prompt: 'Hello' });
	assert.match(u.text, /^startup: .*trust_folder/m, u.text);
	assert.match(u.text, /^prompt: not_sent/m, u.text);
	assert.equal(fs.existsSync(path.join(rig.dirs.home, '.gemini', 'trustedFolders.json')), false);
});

test('AGT-SEND AGT-GEMINI: text sent during a turn is queued by Gemini: reported unconfirmed, run as a turn of its own', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'hold', text: 'Held answer.' }, { type: 'text', text: 'Queued answer.' }, { type: 'text', text: 'Next answer.' });
	const l = await launch(rig, { prompt: 'Slow one' });
	assert.equal(l.isError, false, l.text);
	const id = sid(l.text);
	assert.ok(await mock.held(), 'the turn is held');
	const s = await rig.call('pty_send', { session_id: id, text: 'Also this' });
	await rig.call('pty_read', { session_id: id, screen: true });
	assert.equal(s.isError, true, s.text);
	assert.match(s.text, /GEMINI_STEER_UNCONFIRMED/, s.text);
	mock.release();
	/* Turn 1's answer is its own: Gemini ran the queued text as a turn of its own after it. */
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Held answer\.\n\[turn 1 done/, a.text);
	await until('the queued text answered', () => chatLines(a.sc.transcript).some((o) => o.type === 'gemini' && o.content === 'Queued answer.'), 30000);
	assert.deepEqual(asked(mock), ['Slow one', 'Also this']);
	const prompts = chatLines(a.sc.transcript).filter((o) => o.type === 'user' && o.content[0].text && !o.content[0].text.startsWith('<session_context>'));
	assert.deepEqual(prompts.map((o) => o.content[0].text), ['Slow one', 'Also this']);
	await until('an idle screen', async () => /Type your message/.test((await rig.call('pty_read', { session_id: id, screen: true })).text) &&
		!/esc to cancel/.test((await rig.call('pty_read', { session_id: id, screen: true })).text), 30000);
	/* The next send is counted after the queued turn (index 2), and checked against its prompt. */
	const b = await rig.call('pty_send', { session_id: id, text: 'Next one', wait: true, timeout: 60 });
	assert.match(b.text, /^Next answer\.\n\[turn 2 done/, b.text);
});

test('AGT-JOB AGT-GEMINI issue 22: Gemini agents launched at once in one folder each read only their own answers', T, async (t) => {
	const n = Number(process.env.AITERM_GEMINI_FANOUT || 3);
	const TOKEN = /ASK-g\d+-turn\d/g;
	const reply = (body) => {
		/* The question of the last user content (the router's request is not a turn). */
		const all = JSON.stringify((body.contents || []).slice(-1)).match(TOKEN);
		return `ANSWER to ${all ? all[all.length - 1] : 'nothing'}.`;
	};
	const { rig } = await rigWithMock(t, {}, { reply });
	const prompt = (name, turn) => `Answer the question ASK-${name}-turn${turn} in one line.`;
	const agents = [];
	for (let i = 1; i <= n; i++)
		agents.push({ name: `g${i}`, srv: await rig.start(), seq: 0 });
	const call = async (a, name, args, ms) => {
		const res = await a.srv.request('tools/call', { name, arguments: args }, `${a.name}-${++a.seq}`, ms);
		const r = res.result || {};
		const text = (r.content || []).map((c) => c.text).join('\n');
		t.diagnostic(`${a.name} ${name} -> ${JSON.stringify(text).slice(0, 200)}`);
		return { text, sc: r.structuredContent, isError: r.isError === true };
	};
	/* A wrong answer: the agent's screen and record, and every chat file Gemini wrote (first lines). */
	const explain = async (a) => {
		t.diagnostic(`${a.name} screen:\n${(await call(a, 'pty_read', { session_id: a.id, screen: true }, 30000)).text}`);
		t.diagnostic(`${a.name} agent.json: ${fs.readFileSync(path.join(rig.dirs.state, 'sessions', a.id, 'agent.json'), 'utf8')}`);
		const tmp = path.join(rig.dirs.home, '.gemini', 'tmp');
		for (const f of fs.readdirSync(tmp, { recursive: true }).filter((f) => f.endsWith('.jsonl'))) {
			const st = fs.statSync(path.join(tmp, f));
			const head = fs.readFileSync(path.join(tmp, f), 'utf8').split('\n').slice(0, 3).join(' | ');
			t.diagnostic(`chat ${f} (${st.size} bytes, mtime ${st.mtimeMs}): ${head.slice(0, 400)}`);
		}
	};
	const t0 = Date.now();
	await Promise.all(agents.map(async (a) => {
		const l = await call(a, 'agent_launch', { harness: 'gemini-cli', cwd: rig.dirs.work, prompt: prompt(a.name, 1), trust_project: true }, 120000);
		assert.equal(l.isError, false, l.text);
		a.id = sid(l.text);
	}));
	/*
	 * Gemini's start-up clean-up may delete another launch's chat file
	 * after its last record, answer and all (it read the file before the
	 * prompt was written): the answer is then nowhere to read, and
	 * pty_read must say so, never give another's (ADR 0039).
	 */
	const deleted = [];
	const live = () => agents.filter((a) => !deleted.includes(a));
	for (const turn of [1, 2]) {
		if (turn === 2)
			await Promise.all(live().map(async (a) => {
				const s = await call(a, 'pty_send', { session_id: a.id, text: prompt(a.name, 2) }, 60000);
				assert.equal(s.isError, false, s.text);
			}));
		await Promise.all(live().map(async (a) => {
			const r = await call(a, 'pty_read', { session_id: a.id, agent_transcript: true, wait: true, timeout: 90 }, 120000);
			const want = new RegExp(`^ANSWER to ASK-${a.name}-turn${turn}\\.\\n\\[turn ${turn} done`);
			const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', a.id, 'agent.json'), 'utf8'));
			if (/^\[turn \d+: its transcript \S+ is gone, deleted outside Aiterm;/.test(r.text) &&
			    rec.transcript && !fs.existsSync(rec.transcript)) {
				t.diagnostic(`${a.name}: its chat file was deleted by another Gemini's clean-up: ${r.text}`);
				deleted.push(a);
				return;
			}
			if (!want.test(r.text))
				await explain(a);
			assert.match(r.text, want, `${a.name}: ${r.text}`);
			assert.deepEqual([...new Set(r.text.match(TOKEN))], [`ASK-${a.name}-turn${turn}`]);
		}));
	}
	assert.ok(deleted.length < n, 'at least one agent kept its chat file');
	const seen = new Set();
	for (const a of agents) {
		const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', a.id, 'agent.json'), 'utf8'));
		assert.equal(rec.bound_by, 'session_id', a.name);
		assert.ok(!seen.has(rec.transcript), rec.transcript);
		seen.add(rec.transcript);
	}
	/* Files Gemini's start-up clean-up cut (ADR 0039): each was still its launch's. */
	const tmp = path.join(rig.dirs.home, '.gemini', 'tmp');
	const cut = fs.readdirSync(tmp, { recursive: true }).filter((f) => f.endsWith('.jsonl') &&
		!fs.readFileSync(path.join(tmp, f), 'utf8').startsWith('{"sessionId":'));
	t.diagnostic(`gemini fan-out of ${n}: ${Date.now() - t0} ms; chat files without their header: ${cut.length}; ` +
		`deleted: ${deleted.length}`);
});
