'use strict';
/*
 * agent_launch, pty_send and pty_read{agent_transcript} on the real Codex
 * CLI (@openai/codex 0.171.0, tests/clients' lock) in a private tmux
 * server, against a mock OpenAI Responses API on 127.0.0.1
 * (lib/codex-mock.cjs): AGT-LAUNCH, AGT-START, AGT-TURN, AGT-SEND.  What
 * is asserted is the text the model reads.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { AgentRig, seedCodex } = require('./lib/agent-rig.cjs');
const { startCodexMock } = require('./lib/codex-mock.cjs');
const { imageTurns, IMAGE_ANSWERS } = require('./lib/images.cjs');
const { until } = require('./lib/until.cjs');

const T = { timeout: 180000 };


async function rigWithMock(t, parts = {}) {
	const mock = await startCodexMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const rig = new AgentRig(t);
	seedCodex(rig.dirs.codex, rig.dirs.work, `${mock.url}/v1`.replace(/\/v1\/v1$/, '/v1'), parts);
	rig.show(t);
	await rig.start();
	return { rig, mock };
}

function sid(text) {
	const m = text.match(/^launched codex-cli \S+ in (\S+) \(launch /m);
	assert.ok(m, `the receipt names the session: ${text}`);
	return m[1];
}

test('AGT-LAUNCH AGT-TURN AGT-CONFIGURE: Codex, a plain turn and then a second one, each with its own answer; the model changed in place', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Codex first answer.', chunks: 2, delayMs: 200 });
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'First question' });
	assert.equal(l.isError, false, l.text);
	assert.match(l.text, /^startup: ready$/m, l.text);
	assert.match(l.text, /^prompt: (start_confirmed \(\w+\)|sent_unconfirmed), turn 1, event_cursor 1:0$/m, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Codex first answer\.\n\[turn 1 done( · [\d.]+s)?\]$/, a.text);
	mock.push({ type: 'text', text: 'Codex second answer.' });
	const b = await rig.call('pty_send', { session_id: id, text: 'Second question', wait: true, timeout: 60 });
	assert.match(b.text, /^Codex second answer\.\n\[turn 2 done/, b.text);
	const old = await rig.call('pty_read', { session_id: id, agent_transcript: true, turn: 1 });
	assert.match(old.text, /^Codex first answer\.\n\[turn 1, saved\]$/, old.text);
	/*
	 * AGT-CONFIGURE (issue 33): /model's picker lists Codex's own catalog
	 * (not the provider's /models); a model on its second page, an effort
	 * of its own list, for this session only; the next request names both.
	 */
	const bad = await rig.call('agent_configure', { session_id: id, model: 'mock-model-9' });
	assert.equal(bad.isError, true, bad.text);
	assert.match(bad.text, /CODEX_MODEL_NOT_OFFERED: model 'mock-model-9' is not offered: Codex's \/model offers .*GPT-5\.5.*the picker was closed, the model stays/, bad.text);
	const c = await rig.call('agent_configure', { session_id: id, model: 'gpt-5.5', effort: 'xhigh' });
	assert.equal(c.isError, false, c.text);
	assert.match(c.text, new RegExp(`^configured ${id} \\(codex-cli\\): model \\(launch default\\) -> gpt-5\\.5, effort \\(unset\\) -> xhigh\nconfirmed on the screen: Model changed to gpt-5\\.5 xhigh for this session only$`), c.text);
	const n = mock.requests.length;
	mock.push({ type: 'text', text: 'Codex third answer.' });
	const d = await rig.call('pty_send', { session_id: id, text: 'Third question', wait: true, timeout: 60 });
	assert.match(d.text, /^Codex third answer\.\n\[turn 3 done/, d.text);
	const next = mock.requests.slice(n).find((r) => r.url.includes('/responses') && r.kind !== 'title' && JSON.stringify(r.body).includes('Third question'));
	assert.equal(next.body.model, 'gpt-5.5');
	assert.equal(next.body.reasoning && next.body.reasoning.effort, 'xhigh');
	assert.match(require('node:fs').readFileSync(require('node:path').join(rig.dirs.codex, 'config.toml'), 'utf8'), /^model = "mock-model"$/m, 'the user\'s config keeps its model');
});

test('AGT-IMAGE issue 33: Codex, images with the launch prompt and with a send reach the next model request', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push(...IMAGE_ANSWERS);
	await imageTurns(assert, rig, { launch: (args) => rig.call('agent_launch', Object.assign({ harness: 'codex-cli', cwd: rig.dirs.work }, args)), main: () => mock.requests.filter((r) => r.kind === 'main'), sid });
});

test('PTY-CLOSE: Codex closed after a turn: no process of its session is left, its app-server daemon included', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	await rig.closeAfterTurn(t, assert, mock, async (prompt) => sid((await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt })).text));
});

test('AGT-TURN: Codex, an API error (529) ends the turn with that error', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'status', status: 529, body: { error: { message: 'Overloaded (mock 529)' } } });
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'Will fail' });
	const a = await rig.call('pty_read', { session_id: sid(l.text), agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /529/, a.text);
	assert.match(a.text, /\[turn 1 ended with an error \(api_error\)/, a.text);
});

test('AGT-START: Codex exits at start on a broken config: exited with its status, nothing sent', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, { top: ['approval_policy = "bogus"'] });
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'Never sent' });
	assert.equal(l.isError, false, l.text);
	assert.match(l.text, /^startup: exited, status (1|unknown); screen exited\/(pane_exited|config_error)$/m, l.text);
	assert.match(l.text, /^prompt: not_sent$/m, l.text);
	assert.equal(mock.requests.filter((r) => r.url.includes('/responses')).length, 0);
});

test('AGT-START: Codex in an untrusted git repo stops at the trust screen; trust_project passes it', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, { trusted: false });
	execFileSync('git', ['init', '-q', rig.dirs.work]);
	const stop = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'Never sent', name: 'untrusted' });
	assert.match(stop.text, /^startup: needs_user; screen blocking_dialog\/trust_folder$/m, stop.text);
	assert.equal(mock.requests.filter((r) => r.url.includes('/responses')).length, 0);
	await rig.call('pty_close', { session_id: 'untrusted' });
	mock.push({ type: 'text', text: 'Trusted answer.' });
	const go = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, trust_project: true, prompt: 'Go' });
	assert.match(go.text, /^startup: ready \(advanced: trust_folder\)$/m, go.text);
	const a = await rig.call('pty_read', { session_id: sid(go.text), agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^Trusted answer\.\n\[turn 1 done/, a.text);
});

test('AGT-APPROVAL: Codex asks to run a command; agent_approval answers with the digest, a denial interrupts the turn', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, { top: ['approval_policy = "on-request"'] });
	mock.push({ type: 'call', name: 'exec_command', args: { cmd: 'touch approved.txt', workdir: rig.dirs.work, sandbox_permissions: 'require_escalated', justification: 'Create approved.txt?' } });
	mock.push({ type: 'text', text: 'The command ran.' });
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'Create the file' });
	const id = sid(l.text);
	const w = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(w.text, /waits for an approval \(command_approval\)/, w.text);
	const i = await rig.call('agent_approval', { session_id: id });
	assert.match(i.text, /^Reason: Create approved\.txt\?\n\$ touch approved\.txt$/m, i.text);
	const d = i.text.match(/choice=approve_once digest=([0-9a-f]{16})$/m)[1];
	const ok = await rig.call('agent_approval', { session_id: id, choice: 'approve_once', digest: d });
	assert.equal(ok.isError, false, ok.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^The command ran\.\n\[turn 1 done/, a.text);
	assert.ok(require('node:fs').existsSync(require('node:path').join(rig.dirs.work, 'approved.txt')));
	mock.push({ type: 'call', name: 'exec_command', args: { cmd: 'touch denied.txt', workdir: rig.dirs.work, sandbox_permissions: 'require_escalated', justification: 'Create denied.txt?' } });
	await rig.call('pty_send', { session_id: id, text: 'And the other file' });
	const w2 = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(w2.text, /waits for an approval/, w2.text);
	const i2 = await rig.call('agent_approval', { session_id: id });
	const deny = i2.text.match(/choice=deny digest=([0-9a-f]{16})$/m)[1];
	await rig.call('agent_approval', { session_id: id, choice: 'deny', digest: deny });
	const a2 = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a2.text, /\[turn 2 ended with an error \(interrupted\)/, a2.text);
	assert.ok(!require('node:fs').existsSync(require('node:path').join(rig.dirs.work, 'denied.txt')));
});

test('AGT-SEND AGT-CONFIGURE: Codex, text sent while a turn runs steers it: one turn, its answer after the steer; no model change meanwhile', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'hold', text: 'Held answer.' });
	mock.push({ type: 'text', text: 'After the steer.' });
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'Start a long task' });
	const id = sid(l.text);
	/*
	 * AGT-CONFIGURE: never while a turn runs.  Asked while the first
	 * request is held (after the steer the turn may end at once: the
	 * mock answers the steered request without holding it).
	 */
	const busy = await rig.call('agent_configure', { session_id: id, model: 'gpt-5.5' });
	assert.equal(busy.isError, true, busy.text);
	assert.match(busy.text, /CODEX_TURN_RUNNING: turn 1 of \S+ is running; the model changes between turns only.*nothing was typed/, busy.text);
	const s = await rig.call('pty_send', { session_id: id, text: 'Steer it this way' });
	assert.match(s.text, /^added to the running turn 1 \(no new turn\)/, s.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	mock.release();
	assert.match(a.text, /After the steer\.\n\[turn 1 done/, a.text);
	const steered = mock.requests.filter((r) => r.url.includes('/responses') && JSON.stringify(r.body).includes('Steer it this way'));
	assert.ok(steered.length >= 1, 'the steer reached the model in turn 1');
});

test('AGT-LIMIT PTY-OBSERVE DLV-CORE: Codex on its usage limit (429 usage_limit_reached): rate_limited with Codex\'s words, observe says blocked; the next turn is done, not limited by the old notice', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	const reset = Math.floor(Date.now() / 1000) + 3 * 3600;
	mock.push({ type: 'status', status: 429, body: { error: { type: 'usage_limit_reached', message: 'The usage limit has been reached', plan_type: 'plus', resets_at: reset } } });
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'Will be limited' });
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	/* The rollout's task_complete error, codex_error_info usage_limit_exceeded. */
	assert.match(a.text, /^You’ve hit your usage limit\. .*\n\[turn 1 ended with an error \(rate_limited\)/, a.text);
	assert.equal(a.sc.reason, 'rate_limited');
	let obs;
	for (let i = 0; i < 30 && !/screen blocked\//.test((obs = await rig.call('pty_observe', { session_id: id })).text); i++)
		await new Promise((r) => setTimeout(r, 100));
	assert.match(obs.text, /; screen blocked\/rate_limited;/, obs.text);
	let list;
	for (let i = 0; i < 30 && !/\trate_limited$/m.test((list = await rig.call('parent_deliveries', { session_id: id })).text); i++)
		await new Promise((r) => setTimeout(r, 100));
	assert.match(list.text, /^\S+\tready\t\S+ turn 1\trate_limited$/m, list.text);
	const asked = mock.requests.filter((r) => JSON.stringify(r.body || {}).includes('Will be limited') && r.kind !== 'title').length;
	mock.push({ type: 'text', text: 'Codex after the limit.' });
	const s = await rig.call('pty_send', { session_id: id, text: 'Again?', wait: true, timeout: 60 });
	assert.match(s.text, /^Codex after the limit\.\n\[turn 2 done/, s.text);
	assert.match((await rig.call('pty_read', { session_id: id, screen: true })).text, /hit your usage limit/);
	/*
	 * Codex writes the turn's end to its rollout before it redraws: under
	 * load its screen still said "esc to interrupt" a moment after the
	 * wait read "turn 2 done" (a CI run of stop 50).
	 */
	const o = await until('the screen after the turn', async () => {
		const r = await rig.call('pty_observe', { session_id: id });
		return /; screen running\//.test(r.text) ? null : r;
	}, 20000);
	assert.match(o.text, /; screen input_ready\/composer_empty;/, o.text);
	assert.equal(asked, 1, 'the limited prompt was sent once, never again');
});
