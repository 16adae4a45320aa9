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

test('AGT-LAUNCH AGT-TURN: Codex, a plain turn and then a second one, each with its own answer', T, async (t) => {
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

test('AGT-SEND: Codex, text sent while a turn runs steers it: one turn, its answer after the steer', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'hold', text: 'Held answer.' });
	mock.push({ type: 'text', text: 'After the steer.' });
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.work, prompt: 'Start a long task' });
	const id = sid(l.text);
	const s = await rig.call('pty_send', { session_id: id, text: 'Steer it this way' });
	assert.match(s.text, /^added to the running turn 1 \(no new turn\)/, s.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	mock.release();
	assert.match(a.text, /After the steer\.\n\[turn 1 done/, a.text);
	const steered = mock.requests.filter((r) => r.url.includes('/responses') && JSON.stringify(r.body).includes('Steer it this way'));
	assert.ok(steered.length >= 1, 'the steer reached the model in turn 1');
});
