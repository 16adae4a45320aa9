'use strict';
/*
 * agent_launch, pty_send and pty_read{agent_transcript} with harness
 * cursor-cli, on a STAND-IN of Cursor's CLI agent (cursor-standin/; no
 * package ships the real `cursor-agent`), in a private tmux server with
 * its own HOME, the stand-in answering from a mock Chat Completions model
 * on 127.0.0.1 (lib/cursor-mock.cjs): AGT-LAUNCH, AGT-START, AGT-TURN,
 * AGT-SEND.  The stand-in's screens are assumed (cursor-standin/
 * screens.cjs), so these tests check Aiterm against that model of the
 * CLI, not against Cursor itself.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig } = require('./lib/agent-rig.cjs');
const { startCursorMock, seedCursor, cursorBinary, projectId } = require('./lib/cursor-mock.cjs');
const { imageTurns, IMAGE_ANSWERS } = require('./lib/images.cjs');

const T = { timeout: 120000 };

async function rigWithMock(t, parts = {}, extraEnv = {}) {
	const mock = await startCursorMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const env = { CURSOR_STANDIN_MODEL_URL: mock.url };
	if (!parts.noKey)
		env.CURSOR_API_KEY = 'mock-cursor-key-for-the-aiterm-harness';
	Object.assign(env, extraEnv);
	const rig = new AgentRig(t, { env });
	if (!parts.noBinary)
		fs.symlinkSync(cursorBinary(), path.join(rig.dirs.bin, 'cursor-agent'));
	seedCursor(rig.dirs.home, parts);
	rig.show(t);
	await rig.start();
	return { rig, mock };
}

function sid(text) {
	const m = text.match(/^launched cursor-cli \S+ in (\S+) \(launch /m);
	assert.ok(m, `the receipt names the session: ${text}`);
	return m[1];
}

function lines(file) {
	return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

const launch = (rig, args) => rig.call('agent_launch', Object.assign({ harness: 'cursor-cli', cwd: rig.dirs.work, trust_project: true }, args));

async function screenUntil(rig, id, re, n = 100) {
	let s = '';
	for (let i = 0; i < n && !re.test(s); i++) {
		await new Promise((r) => setTimeout(r, 100));
		s = (await rig.call('pty_read', { session_id: id, screen: true })).text;
	}
	return s;
}

test('AGT-LAUNCH AGT-TURN AGT-CONFIGURE: Cursor (stand-in), ready, a plain turn and a second one, each with its own answer from the model; the model changed in place', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Cursor first answer.', chunks: 3, delayMs: 150 });
	const l = await launch(rig, { prompt: 'First question' });
	assert.equal(l.isError, false, l.text);
	assert.match(l.text, /^startup: ready/m, l.text);
	assert.match(l.text, /^prompt: (start_confirmed \(\w+\)|sent_unconfirmed), turn 1, event_cursor 1:0$/m, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Cursor first answer\.\n\[turn 1 done( · [\d.]+s)?\]$/, a.text);
	const dir = path.join(rig.dirs.home, '.cursor', 'projects', projectId(rig.dirs.work), 'agent-transcripts');
	assert.ok(a.sc.transcript.startsWith(dir + '/'), a.sc.transcript);
	assert.match(path.basename(a.sc.transcript), /^[0-9a-f-]{36}\.jsonl$/);
	mock.push({ type: 'text', text: 'Cursor second answer.' });
	const b = await rig.call('pty_send', { session_id: id, text: 'Second question', wait: true, timeout: 60 });
	assert.match(b.text, /^Cursor second answer\.\n\[turn 2 done/, b.text);
	const old = await rig.call('pty_read', { session_id: id, agent_transcript: true, turn: 1 });
	assert.match(old.text, /^Cursor first answer\.\n\[turn 1, saved\]$/, old.text);
	/* The prompts reached the model as typed: the CSI 13 u Enter submitted them. */
	const asked = mock.main().map((r) => r.body.messages[r.body.messages.length - 1].content);
	assert.deepEqual(asked, ['First question', 'Second question']);
	assert.equal(lines(a.sc.transcript).filter((x) => x.type === 'turn_ended').length, 2);
	/*
	 * AGT-CONFIGURE (issue 33), on the stand-in's ASSUMED /model picker:
	 * an unknown model and an effort refused, sonnet-4 confirmed and
	 * named by the next request; the /model is no turn.
	 */
	const bad = await rig.call('agent_configure', { session_id: id, model: 'gpt-9' });
	assert.match(bad.text, /CURSOR_MODEL_NOT_OFFERED: model 'gpt-9' is not offered: Cursor's \/model offers auto, mock-model, sonnet-4; the picker was closed, the model stays/, bad.text);
	const eff = await rig.call('agent_configure', { session_id: id, model: 'sonnet-4', effort: 'high' });
	assert.match(eff.text, /CURSOR_EFFORT_NOT_OFFERED: effort 'high' is not offered: Cursor names an effort in its model ids/, eff.text);
	const c = await rig.call('agent_configure', { session_id: id, model: 'sonnet-4' });
	assert.equal(c.isError, false, c.text);
	assert.match(c.text, new RegExp(`^configured ${id} \\(cursor-cli\\): model \\(launch default\\) -> sonnet-4\nconfirmed on the screen: Model set to sonnet-4$`), c.text);
	mock.push({ type: 'text', text: 'Cursor third answer.' });
	const d = await rig.call('pty_send', { session_id: id, text: 'Third question', wait: true, timeout: 60 });
	assert.match(d.text, /^Cursor third answer\.\n\[turn 3 done/, d.text);
	assert.equal(mock.main().at(-1).body.model, 'sonnet-4');
});

test('AGT-IMAGE issue 33: Cursor (stand-in, attaching ASSUMED), images with the launch prompt and with a send reach the next model request', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push(...IMAGE_ANSWERS);
	await imageTurns(assert, rig, { launch: (args) => launch(rig, args), main: () => mock.requests.filter((r) => r.kind === 'main'), sid });
});

test('PTY-CLOSE issue 37: Cursor (stand-in) closed after a turn: no process of its session is left', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	await rig.closeAfterTurn(t, assert, mock, async (prompt) => sid((await launch(rig, { prompt })).text));
});

test('AGT-SEND: Cursor (stand-in), text sent while a turn runs goes to follow-ups and is steered in: one turn, one turn_ended', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'hold', text: 'Held answer.' });
	mock.push({ type: 'text', text: 'After the steer.' });
	const l = await launch(rig, { prompt: 'Start a long task' });
	const id = sid(l.text);
	assert.ok(await mock.held(), 'the first request waits');
	const s = await rig.call('pty_send', { session_id: id, text: 'Do it this way instead' });
	assert.equal(s.isError, false, s.text);
	assert.match(s.text, /^added to the running turn 1 \(no new turn\)/, s.text);
	assert.equal(s.sc.route, 'steered');
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	mock.release();
	assert.match(a.text, /^After the steer\.\n\[turn 1 done/, a.text);
	const rec = lines(a.sc.transcript);
	assert.equal(rec.filter((x) => x.type === 'turn_ended').length, 1, JSON.stringify(rec));
	assert.deepEqual(rec.filter((x) => x.role === 'user').map((x) => x.message.content[0].text), ['Start a long task', 'Do it this way instead']);
	/* The model saw the steered text in the same conversation. */
	const last = mock.main().at(-1).body.messages.map((m) => m.content);
	assert.deepEqual(last, ['Start a long task', 'Do it this way instead']);
	mock.push({ type: 'text', text: 'Next one.' });
	const n = await rig.call('pty_send', { session_id: id, text: 'And then?', wait: true, timeout: 60 });
	assert.match(n.text, /^Next one\.\n\[turn 2 done/, n.text);
});

test('AGT-SEND: Cursor (stand-in), a steer whose text stays in the input box is CURSOR_STEER_NOT_TAKEN, never steered', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, {}, { CURSOR_STANDIN_IGNORE_SUBMIT_WHILE_RUNNING: '1' });
	mock.push({ type: 'hold', text: 'Held answer.' });
	const l = await launch(rig, { prompt: 'Start a long task' });
	const id = sid(l.text);
	assert.ok(await mock.held(), 'the first request waits');
	const s = await rig.call('pty_send', { session_id: id, text: 'Stuck in the box' });
	assert.equal(s.isError, true, s.text);
	assert.match(s.text, /CURSOR_STEER_NOT_TAKEN: the text is still in the agent's input box 1500 ms after the steer/, s.text);
	assert.match(await screenUntil(rig, id, /Stuck in the box/, 1), /│ → Stuck in the box/);
	mock.release();
});

test('AGT-SEND: Cursor (stand-in), a follow-up that is never steered in is CURSOR_STEER_UNCONFIRMED', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, {}, { CURSOR_STANDIN_IGNORE_STEER: '1' });
	mock.push({ type: 'hold', text: 'Held answer.' });
	const l = await launch(rig, { prompt: 'Start a long task' });
	const id = sid(l.text);
	assert.ok(await mock.held(), 'the first request waits');
	const s = await rig.call('pty_send', { session_id: id, text: 'Left queued' });
	assert.equal(s.isError, true, s.text);
	assert.match(s.text, /CURSOR_STEER_UNCONFIRMED: the text still waits in the agent's queue/, s.text);
	mock.release();
});

test('AGT-START: Cursor (stand-in) with no key and no login shows its sign-in screen: vendor_onboarding_required, nothing typed', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, { noKey: true });
	const r = await launch(rig, { prompt: 'Never sent' });
	assert.equal(r.isError, false, r.text);
	assert.match(r.text, /^startup: vendor_onboarding_required; screen onboarding\/login_required$/m, r.text);
	assert.match(r.text, /^prompt: not_sent$/m, r.text);
	assert.equal(mock.main().length, 0);
});

test('AGT-START: Cursor (stand-in), the workspace-trust prompt is passed only with trust_project', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	const r = await launch(rig, { prompt: 'Never sent', trust_project: false, timeout: 5 });
	assert.match(r.text, /^startup: needs_user; screen blocking_dialog\/workspace_trust$/m, r.text);
	assert.match(r.text, /^prompt: not_sent$/m, r.text);
	assert.equal(mock.main().length, 0);
});

test('AGT-LAUNCH: Cursor (stand-in) in a cwd reached through a symlink: the transcript is found from the real path', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	const link = path.join(rig.dirs.root, 'link-to-work');
	fs.symlinkSync(rig.dirs.work, link);
	mock.push({ type: 'text', text: 'Through the link.' });
	const l = await launch(rig, { cwd: link, prompt: 'Where am I?' });
	assert.equal(l.isError, false, l.text);
	const a = await rig.call('pty_read', { session_id: sid(l.text), agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Through the link\.\n\[turn 1 done/, a.text);
	assert.ok(a.sc.transcript.includes(`/projects/${projectId(rig.dirs.work)}/`), a.sc.transcript);
});

test('AGT-TURN: Cursor (stand-in), a model error ends the turn with that error', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'status', status: 400, body: { error: { message: 'Bad request (mock 400)' } } });
	const l = await launch(rig, { prompt: 'Will fail' });
	const a = await rig.call('pty_read', { session_id: sid(l.text), agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /mock 400/, a.text);
	assert.match(a.text, /\[turn 1 ended with an error \(api_error\)/, a.text);
});

test('AGT-LAUNCH: bad input: an unknown harness and a missing cursor-agent are clear errors', T, async (t) => {
	const { rig } = await rigWithMock(t, { noBinary: true });
	const u = await rig.call('agent_launch', { harness: 'cursor-ide', cwd: rig.dirs.work });
	assert.equal(u.isError, true, u.text);
	assert.match(u.text, /no harness 'cursor-ide' is installed \(installed: [^)]*cursor-cli/, u.text);
	const m = await launch(rig, {});
	assert.equal(m.isError, true, m.text);
	assert.match(m.text, /cursor-agent/, m.text);
});

test('AGT-SEND: the stand-in runs the documented stop hook (a followup_message is the next prompt) and print mode', T, async (t) => {
	/* The stand-in's own behaviour (hooks.json version 1, -p --output-format json). */
	const { rig, mock } = await rigWithMock(t);
	const log = path.join(rig.dirs.root, 'stop-hook.jsonl');
	const hook = path.join(rig.dirs.root, 'stop-hook.cjs');
	fs.writeFileSync(hook, `let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>{
		require('fs').appendFileSync(${JSON.stringify(log)}, s + '\\n');
		const i = JSON.parse(s);
		if (i.loop_count === 0) process.stdout.write(JSON.stringify({ followup_message: 'Hook follow-up' }));
	});`);
	fs.writeFileSync(path.join(rig.dirs.home, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: { stop: [{ command: `node ${hook}` }] } }));
	mock.push({ type: 'text', text: 'Printed answer.' });
	const { execFile } = require('node:child_process');
	const out = await new Promise((resolve, reject) => execFile(cursorBinary(), ['-p', '--output-format', 'json', 'Print me'],
		{ cwd: rig.dirs.work, env: rig.env, encoding: 'utf8' }, (e, so) => (e ? reject(e) : resolve(so))).stdin.end());
	const res = JSON.parse(out);
	assert.equal(res.type, 'result');
	assert.equal(res.is_error, false);
	assert.equal(res.result, 'Printed answer.');
	mock.push({ type: 'text', text: 'Hooked answer.' });
	mock.push({ type: 'text', text: 'Answer to the hook.' });
	const l = await launch(rig, { prompt: 'Hook me' });
	/* The -p run's transcript, just written in the same project, is not this launch's. */
	assert.match(l.text, /, turn 1, event_cursor 1:0$/m, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Hooked answer\./, a.text);
	/* The follow-up the hook asked for runs as the next turn of the transcript. */
	let calls = [];
	for (let i = 0; i < 50 && calls.length < 2; i++) {
		await new Promise((r) => setTimeout(r, 100));
		calls = mock.main().slice(1);
	}
	assert.equal(calls[1].body.messages.at(-1).content, 'Hook follow-up');
	const inputs = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).map((x) => JSON.parse(x));
	assert.equal(inputs[0].hook_event_name, 'stop');
	assert.equal(inputs[0].status, 'completed');
	assert.equal(inputs[0].transcript_path, a.sc.transcript);
});

/* ASSUMED (cursor-standin/agent.cjs): the limit's 429 and its words. */
const LIMIT_WORDS = 'You\'ve hit your usage limit for mock-model. Switch to Auto or upgrade to keep going.';

test('AGT-LIMIT PTY-OBSERVE DLV-CORE: Cursor (stand-in) on its limit screen: rate_limited with its words, observe blocked; the next send dismisses it once (Esc, never upgrade) and runs a new turn', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'status', status: 429, body: { error: { type: 'usage_limit_exceeded', message: LIMIT_WORDS } } });
	const l = await launch(rig, { prompt: 'Will be limited' });
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^You've hit your usage limit for mock-model\. Switch to Auto or upgrade to keep going\.\n\[turn 1 ended with an error \(rate_limited\)/, a.text);
	const obs = await rig.call('pty_observe', { session_id: id });
	assert.match(obs.text, /; screen blocked\/rate_limited;/, obs.text);
	let list;
	for (let i = 0; i < 30 && !/\trate_limited$/m.test((list = await rig.call('parent_deliveries', { session_id: id })).text); i++)
		await new Promise((r) => setTimeout(r, 100));
	assert.match(list.text, /^\S+\tready\t\S+ turn 1\trate_limited$/m, list.text);
	assert.equal(mock.requests.filter((r) => r.kind === 'main').length, 1);
	mock.push({ type: 'text', text: 'Cursor after the limit.' });
	const s = await rig.call('pty_send', { session_id: id, text: 'Again?' });
	assert.equal(s.isError, false, s.text);
	assert.match(s.text, /^pane_input_recovery: cursor_usage_limit_dismissed\nturn 2: /, s.text);
	const b = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(b.text, /^Cursor after the limit\.\n\[turn 2 done/, b.text);
	assert.equal(mock.requests.filter((r) => r.kind === 'main').length, 2, 'one request for turn 2; turn 1 not sent again on its own');
	assert.match((await rig.call('pty_observe', { session_id: id })).text, /; screen input_ready\/composer_empty;/);
});

test('AGT-SEND AGT-LAUNCH: Cursor (stand-in), a prompt the user\'s beforeSubmitPrompt hook refuses is USER_HOOK_BLOCKED with the hook\'s words, not a receipt; initial_prompt=failed; the next allowed prompt is turn 1', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	const hook = path.join(rig.dirs.root, 'gate.cjs');
	fs.writeFileSync(hook, `let s='';process.stdin.on('data',(d)=>s+=d).on('end',()=>{
		const i = JSON.parse(s);
		if (/secret/.test(i.prompt)) process.stdout.write(JSON.stringify({ continue: false, user_message: 'Prompts naming a secret are not allowed here.' }));
		else process.stdout.write(JSON.stringify({ continue: true }));
	});`);
	fs.writeFileSync(path.join(rig.dirs.home, '.cursor', 'hooks.json'), JSON.stringify({ version: 1, hooks: { beforeSubmitPrompt: [{ command: `node ${hook}` }] } }));
	const l = await launch(rig, { prompt: 'Tell me the secret' });
	assert.equal(l.isError, false, l.text);
	assert.match(l.text, /^initial_prompt: failed\nprompt: USER_HOOK_BLOCKED: the user's hook refused the prompt: Prompts naming a secret are not allowed here\.$/m, l.text);
	assert.equal(l.sc.initial_prompt, 'failed');
	assert.equal(l.sc.dispatch, 'failed');
	assert.equal(l.sc.code, 'USER_HOOK_BLOCKED');
	assert.doesNotMatch(l.text, /^(answer|delivery): /m, 'no answer or delivery is promised');
	const id = sid(l.text);
	const s = await rig.call('pty_send', { session_id: id, text: 'Another secret, please' });
	assert.equal(s.isError, true, s.text);
	assert.match(s.text, /USER_HOOK_BLOCKED: the user's hook refused the prompt: Prompts naming a secret are not allowed here\./, s.text);
	assert.equal(mock.requests.filter((r) => r.kind === 'main').length, 0, 'nothing reached the model');
	/* An allowed prompt: a plain receipt; the old refusal above it is history. */
	mock.push({ type: 'text', text: 'Allowed answer.' });
	const ok = await rig.call('pty_send', { session_id: id, text: 'A plain question', wait: true, timeout: 60 });
	assert.equal(ok.isError, false, ok.text);
	assert.match(ok.text, /^Allowed answer\.\n\[turn 1 done/, ok.text);
	assert.match((await rig.call('pty_read', { session_id: id, screen: true })).text, /Hook blocked with message:/);
});
