'use strict';
/*
 * What the seed says of agent_launch and the code did not do (issue 32),
 * through the real server, on the Cursor stand-in of tests/harness (a
 * node script answering from a mock model on 127.0.0.1):
 *
 * - AGT-START: a launch without a prompt and without trust_project is only
 *   requested: it answers at once with startup "not_checked", and the
 *   first pty_send brings the agent to its composer before it types (a
 *   stand-in that loads for seconds); one that stops at a screen the send
 *   may not pass is refused with nothing typed.  trust_project:true
 *   without a prompt still checks and says "ready".
 * - AGT-LAUNCH: throughline_supplement, Throughline's file, reaches the
 *   agent's environment as THROUGHLINE_SUPPLEMENT, its path unchanged; a
 *   relative or missing path is refused before anything is launched.
 * - AGT-LAUNCH, OPS-BOUNDARY: a model the harness's own catalog (the
 *   stand-in's `models`) does not list is refused before anything is
 *   launched, never run as another model; a catalog that cannot be
 *   listed (signed out) is refused too.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const test = require('node:test');
const assert = require('node:assert/strict');
const { until } = require('./lib/pty.cjs');
const { cursorRig } = require('./lib/cursor-rig.cjs');

const T = { timeout: 180000 };

/* agent_launch that must succeed; the session is closed at cleanup. */
async function launch(rig, conn, args, ms = 120000) {
	const t0 = Date.now();
	const res = await conn.ok('agent_launch', Object.assign({ harness: 'cursor-cli', cwd: rig.dirs.work }, args), ms);
	rig.sessions.add(res.sc.session_id);
	return Object.assign(res, { ms: Date.now() - t0 });
}

/* The session ids pty_list names. */
async function listed(conn) {
	const { sc } = await conn.ok('pty_list', {});
	return sc.sessions.map((s) => s.session_id);
}

/* The environment of the agent's process, the pane's own command. */
function agentEnv(rig, id) {
	const sock = path.join(rig.dirs.state, 'tmux.sock');
	const pid = execFileSync('tmux', ['-S', sock, 'display-message', '-p', '-t', id, '#{pane_pid}'],
		{ encoding: 'utf8' }).trim();
	const env = {};
	for (const kv of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'))
		if (kv.includes('='))
			env[kv.slice(0, kv.indexOf('='))] = kv.slice(kv.indexOf('=') + 1);
	return env;
}

test('AGT-START issue 32: no prompt, no trust_project: not_checked at once; the first send waits for the composer', T, async (t) => {
	/* Four seconds of loading before the composer; a workspace trusted before. */
	const { rig, mock } = await cursorRig(t, { CURSOR_STANDIN_LOADING_MS: '4000', CURSOR_STANDIN_TRUSTED: '1' });
	const conn = await rig.server();
	const l = await launch(rig, conn, { name: 'seed-nc' });
	assert.equal(l.sc.startup, 'not_checked', l.text);
	assert.equal(l.sc.dispatch, 'not_requested', l.text);
	assert.ok(l.ms < 3000, `the launch answered in ${l.ms} ms, before the agent could be ready: ${l.text}`);
	assert.match(l.text, /^startup: not_checked$/m);
	assert.match(l.text, /^send: pty_send session_id=seed-nc/m);

	/* Still loading: the send waits for the composer, then the turn runs. */
	mock.push({ type: 'text', text: 'Answer after the wait.' });
	const s = await conn.ok('pty_send', { session_id: 'seed-nc', text: 'First question', wait: true, timeout: 60 }, 90000);
	assert.match(s.text, /Answer after the wait\./, s.text);
	assert.equal(mock.requests.filter((r) => r.kind === 'main').length, 1, 'one model request');

	/* Checked once: the next send goes straight on. */
	mock.push({ type: 'text', text: 'Second answer.' });
	const s2 = await conn.ok('pty_send', { session_id: 'seed-nc', text: 'Second question', wait: true, timeout: 60 }, 90000);
	assert.match(s2.text, /Second answer\./, s2.text);
});

test('AGT-START issue 32: a not_checked agent at a screen the send may not pass: refused, nothing typed', T, async (t) => {
	/* No trust before and no trust_project: the stand-in asks to trust the folder. */
	const { rig, mock } = await cursorRig(t);
	const conn = await rig.server();
	const l = await launch(rig, conn, { name: 'seed-trust', timeout: 5 });
	assert.equal(l.sc.startup, 'not_checked', l.text);
	const e = await conn.err('pty_send', { session_id: 'seed-trust', text: 'Never typed' }, 30000);
	assert.match(e.text, /not ready for a prompt: its start-up ended needs_user \(screen blocking_dialog\/workspace_trust\)/, e.text);
	assert.match(e.text, /nothing was sent/, e.text);
	const scr = await conn.ok('pty_read', { session_id: 'seed-trust', screen: true });
	assert.doesNotMatch(scr.text, /Never typed/, 'nothing reached the pane');
	assert.equal(mock.requests.length, 0, 'no model request');
});

test('AGT-START: trust_project without a prompt still checks and says ready', T, async (t) => {
	const { rig } = await cursorRig(t, { CURSOR_STANDIN_LOADING_MS: '1500' });
	const conn = await rig.server();
	const l = await launch(rig, conn, { name: 'seed-trusted', trust_project: true });
	assert.equal(l.sc.startup, 'ready', l.text);
	assert.ok(l.ms >= 1500, `it waited for the composer (${l.ms} ms)`);
	assert.match(l.text, /advanced: workspace_trust/);
});

test('AGT-START issue 37: a composer drawn while a look is in flight is looked at again, not missed', T, async (t) => {
	/*
	 * Every look comes back 2 s late (a loaded machine, a slow tmux): the
	 * first one reads the loading screen, the composer comes 1 s later,
	 * while it is still in flight, and nothing changes after that.
	 */
	const { rig } = await cursorRig(t, {
		CURSOR_STANDIN_LOADING_MS: '1000', CURSOR_STANDIN_TRUSTED: '1',
		AITERM_TEST_TOOLS: '1', AITERM_TEST_LOOK_LAG_MS: '2000',
	});
	const conn = await rig.server();
	const l = await launch(rig, conn, { name: 'seed-lag', trust_project: true, timeout: 15 });
	assert.equal(l.sc.startup, 'ready', l.text);
	assert.ok(l.ms < 14000, `ready before its deadline (${l.ms} ms): ${l.text}`);
});

test('AGT-START AGT-TURN issue 37: a dialog that opens as the prompt goes in and eats it: not_sent, needs_user, no turn opened', T, async (t) => {
	/*
	 * The composer is ready when looked at; the stand-in opens its trust
	 * dialog at the first input and drops it (Claude Code 2.1.332's
	 * auto-mode offer comes a moment after the composer and eats a paste).
	 * Before: "prompt: sent_unconfirmed", and turn 1 counted for a prompt
	 * no model ever saw.
	 */
	const { rig, mock } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1', CURSOR_STANDIN_DIALOG_ON_INPUT: '1' });
	const conn = await rig.server();
	const l = await launch(rig, conn, { name: 'seed-eaten', prompt: 'Eaten by the dialog' });
	assert.match(l.text, /^startup: needs_user; screen blocking_dialog\/workspace_trust$/m, l.text);
	assert.match(l.text, /^prompt: not_sent \(a dialog opened over the agent's composer as the text went in \(blocking_dialog\/workspace_trust\), and the agent took nothing: no turn was opened/m, l.text);
	assert.equal(l.sc.dispatch, 'not_sent', l.text);
	assert.equal(l.sc.startup, 'needs_user', l.text);
	assert.equal(mock.requests.filter((r) => r.kind === 'main').length, 0, 'no model request');
	const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', 'seed-eaten', 'agent.json'), 'utf8'));
	assert.equal(rec.turn, 0, `no turn opened: ${JSON.stringify(rec)}`);

	/* The user answers the dialog; the next prompt is turn 1 and gets its answer. */
	await conn.ok('pty_key', { session_id: 'seed-eaten', key: 'a' });
	await until(async () => /Plan, search, build anything/.test((await conn.ok('pty_read', { session_id: 'seed-eaten', screen: true })).text), 10000, 'the composer is back');
	mock.push({ type: 'text', text: 'Answer to the resent prompt.' });
	const s = await conn.ok('pty_send', { session_id: 'seed-eaten', text: 'Sent again', wait: true, timeout: 60 }, 90000);
	assert.match(s.text, /^Answer to the resent prompt\.\n\[turn 1 done/, s.text);
});

test('AGT-SEND AGT-TURN: a submit key lost after the paste is pressed once more, and the prompt is answered', T, async (t) => {
	/*
	 * The stand-in loses the first submit key: the prompt stays in its
	 * box (Gemini CLI 0.61 lost the Enter after a paste, three starting
	 * at once under AddressSanitizer).  Before ADR 0048: "prompt:
	 * sent_unconfirmed" after 5 s, turn 1 counted, the text never sent,
	 * and the next send typed into the same box.
	 */
	const { rig, mock } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1', CURSOR_STANDIN_DROP_SUBMITS: '1' });
	const conn = await rig.server();
	mock.push({ type: 'text', text: 'Answer after the second key.' });
	const l = await launch(rig, conn, { name: 'seed-lost', prompt: 'Lost its first Enter' });
	assert.match(l.text, /^prompt: start_confirmed \(\w+\), turn 1, event_cursor 1:0$/m, l.text);
	assert.equal(l.sc.dispatch, 'start_confirmed', l.text);
	assert.ok(l.ms >= 5000, `the key pressed again after the deadline (${l.ms} ms)`);
	const r = await conn.ok('pty_read', { session_id: 'seed-lost', agent_transcript: true, wait: true, timeout: 60 }, 90000);
	assert.match(r.text, /^Answer after the second key\.\n\[turn 1 done/, r.text);
	assert.equal(mock.requests.filter((q) => q.kind === 'main').length, 1, 'one model request');

	/*
	 * A draft in the box of an idle agent (a person typed it): a new
	 * turn typed there would join it, one prompt for two texts.
	 * Refused, nothing typed, no turn opened; once cleared, sent.
	 */
	const screen = async () => (await conn.ok('pty_read', { session_id: 'seed-lost', screen: true })).text;
	await conn.ok('pty_key', { session_id: 'seed-lost', key: 'x' });
	await until(async () => /│ → x\s*│/.test(await screen()), 10000, 'the draft in the box');
	const e = await conn.err('pty_send', { session_id: 'seed-lost', text: 'Would join it' });
	assert.match(e.text, /CURSOR_INPUT_PENDING: the agent's input box holds text that was not submitted .*nothing was typed, no turn was opened/, e.text);
	const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', 'seed-lost', 'agent.json'), 'utf8'));
	assert.equal(rec.turn, 1, `still turn 1: ${JSON.stringify(rec)}`);
	assert.doesNotMatch(await screen(), /Would join it/);
	await conn.ok('pty_key', { session_id: 'seed-lost', key: 'BSpace' });
	await until(async () => /│ → Plan, search, build anything/.test(await screen()), 10000, 'the draft cleared');
	mock.push({ type: 'text', text: 'Answer to turn two.' });
	const s2 = await conn.ok('pty_send', { session_id: 'seed-lost', text: 'Turn two', wait: true, timeout: 60 }, 90000);
	assert.match(s2.text, /^Answer to turn two\.\n\[turn 2 done/, s2.text);

	/* Two lost: pressed once more only, then said unconfirmed; the text waits in the box. */
	const { rig: rig2, mock: mock2 } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1', CURSOR_STANDIN_DROP_SUBMITS: '2' });
	const conn2 = await rig2.server();
	const l2 = await launch(rig2, conn2, { name: 'seed-lost2', prompt: 'Lost two Enters' });
	assert.match(l2.text, /^prompt: sent_unconfirmed, turn 1, event_cursor 1:0$/m, l2.text);
	assert.ok(l2.ms >= 10000, `two deadlines, one key between them (${l2.ms} ms)`);
	assert.equal(mock2.requests.filter((q) => q.kind === 'main').length, 0, 'no model request');
	const scr = await conn2.ok('pty_read', { session_id: 'seed-lost2', screen: true });
	assert.match(scr.text, /Lost two Enters/, scr.text);
	/* The wait says why nothing comes, not only that the prompt is not in the transcript. */
	const w = await conn2.ok('pty_read', { session_id: 'seed-lost2', agent_transcript: true, wait: true, timeout: 1 }, 30000);
	assert.match(w.text, /^\[turn 1: its prompt is not in the transcript, and the agent's input box holds text that was not submitted: nothing starts until it is submitted or cleared/, w.text);
	assert.equal(w.sc.state, 'not_started', JSON.stringify(w.sc));
	assert.equal(w.sc.reason, 'input_pending', JSON.stringify(w.sc));
});

test('AGT-SEND AGT-TURN: a second server sends while the first prompt waits for its lost key: it joins turn 1 and both say turn 1', T, async (t) => {
	/*
	 * Many callers on one session: server A's prompt lost its submit key,
	 * and server B sends before A's deadline.  Turn 1 is open (A's mark),
	 * so B's text goes into it as a steer and its keys submit both texts
	 * as one prompt; B says "added to the running turn 1", A's launch
	 * says turn 1 started, the model is asked once, and turn 1's answer
	 * is the one both read.  Never a turn 2 that answers A's text.
	 */
	const { rig, mock } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1', CURSOR_STANDIN_DROP_SUBMITS: '1' });
	const a = await rig.server();
	const b = await rig.server();
	mock.push({ type: 'text', text: 'One answer for both.' });
	const launched = launch(rig, a, { name: 'seed-race', prompt: 'First part.' });
	const screen = async () => (await b.ok('pty_read', { session_id: 'seed-race', screen: true })).text;
	await until(async () => { try { return /│ → First part\.\s*│/.test(await screen()); } catch { return false; } }, 15000, 'A\'s text in the box');
	/* A's pause after its (lost) key is over: A no longer holds the send lock. */
	await new Promise((r) => setTimeout(r, 1000));
	const s = await b.ok('pty_send', { session_id: 'seed-race', text: ' Second part.' });
	assert.match(s.text, /^added to the running turn 1 \(no new turn\)/, s.text);
	const l = await launched;
	assert.match(l.text, /^prompt: start_confirmed \(\w+\), turn 1, event_cursor 1:0$/m, l.text);
	const r = await a.ok('pty_read', { session_id: 'seed-race', agent_transcript: true, wait: true, timeout: 60 }, 90000);
	assert.match(r.text, /^One answer for both\.\n\[turn 1 done/, r.text);
	const main = mock.requests.filter((q) => q.kind === 'main');
	assert.equal(main.length, 1, 'the model is asked once');
	assert.match(JSON.stringify(main[0].body), /First part\. Second part\./, 'both texts in the one prompt');
	const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', 'seed-race', 'agent.json'), 'utf8'));
	assert.equal(rec.turn, 1, JSON.stringify(rec));
});

test('AGT-TURN: a transcript deleted outside Aiterm is said to be gone, not waited for as a prompt to come', T, async (t) => {
	/* Gemini CLI 0.61 deletes other new chats of the folder at its start (ADR 0039). */
	const { rig, mock } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1' });
	mock.push({ type: 'hold', text: 'Never read.' });
	t.after(() => mock.release && mock.release());
	const conn = await rig.server();
	const l = await launch(rig, conn, { name: 'seed-gone', prompt: 'Held question' });
	assert.match(l.text, /^prompt: start_confirmed/m, l.text);
	const rec = () => JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', 'seed-gone', 'agent.json'), 'utf8'));
	await until(async () => {
		await conn.ok('pty_read', { session_id: 'seed-gone', agent_transcript: true });
		return rec().transcript && fs.existsSync(rec().transcript);
	}, 20000, 'the transcript bound');
	fs.rmSync(rec().transcript);
	const r = await conn.ok('pty_read', { session_id: 'seed-gone', agent_transcript: true, wait: true, timeout: 2 }, 30000);
	assert.match(r.text, /^\[turn 1: its transcript \S+ is gone, deleted outside Aiterm; the turn's answer cannot be read from it/, r.text);
	assert.equal(r.sc.state, 'no_transcript', JSON.stringify(r.sc));
	assert.equal(r.sc.reason, 'transcript_deleted', JSON.stringify(r.sc));
});

test('AGT-LAUNCH issue 32: throughline_supplement reaches the agent unchanged; relative and missing paths are refused', T, async (t) => {
	const { rig } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1' });
	/* Through a symbolic link and a "..": the path as given, never resolved. */
	const real = path.join(rig.dirs.root, 'throughline');
	fs.mkdirSync(real, { mode: 0o700 });
	fs.writeFileSync(path.join(real, 'supplement.md'), 'Throughline owns this text.\n');
	fs.symlinkSync(real, path.join(rig.dirs.root, 'tl-link'));
	const given = path.join(rig.dirs.root, 'tl-link') + '/../tl-link/supplement.md';
	const conn = await rig.server();
	const l = await launch(rig, conn, { name: 'seed-sup', throughline_supplement: given });
	await until(() => fs.existsSync(`/proc/${execFileSync('tmux', ['-S', path.join(rig.dirs.state, 'tmux.sock'),
		'display-message', '-p', '-t', 'seed-sup', '#{pane_pid}'], { encoding: 'utf8' }).trim()}/environ`), 10000, 'the agent runs');
	assert.equal(agentEnv(rig, 'seed-sup').THROUGHLINE_SUPPLEMENT, given, l.text);

	/* Without it, the pane has none. */
	const l2 = await launch(rig, conn, { name: 'seed-nosup' });
	assert.equal(agentEnv(rig, l2.sc.session_id).THROUGHLINE_SUPPLEMENT, undefined);

	const rel = await conn.err('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'seed-rel',
		throughline_supplement: 'throughline/supplement.md' });
	assert.match(rel.text, /throughline_supplement 'throughline\/supplement\.md' is not an absolute path/, rel.text);
	assert.match(rel.text, /nothing was launched/, rel.text);
	const missing = path.join(real, 'no-such-file.md');
	const miss = await conn.err('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'seed-miss',
		throughline_supplement: missing });
	assert.ok(miss.text.includes(`throughline_supplement '${missing}': No such file or directory`), miss.text);
	const dir = await conn.err('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'seed-dir',
		throughline_supplement: real });
	assert.match(dir.text, /is not a regular file/, dir.text);
	const ids = await listed(conn);
	for (const id of ['seed-rel', 'seed-miss', 'seed-dir'])
		assert.ok(!ids.includes(id), `${id} was not launched: ${ids}`);
});

test('AGT-LAUNCH OPS-BOUNDARY issue 32: a model the harness catalog does not list is refused before the launch', T, async (t) => {
	const { rig } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1' });
	const conn = await rig.server();
	const bad = await conn.err('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'seed-badmodel',
		model: 'sonnet-4-fake' });
	assert.match(bad.text, /CURSOR_MODEL_NOT_IN_CATALOG: model 'sonnet-4-fake' is not in Cursor's catalog \(it lists auto, mock-model, sonnet-4\)/, bad.text);
	assert.match(bad.text, /nothing was launched and no other model is used/, bad.text);
	assert.ok(!(await listed(conn)).includes('seed-badmodel'), 'nothing was launched');

	/* A listed model is launched with exactly that model. */
	const ok = await launch(rig, conn, { name: 'seed-model', model: 'sonnet-4' });
	const scr = await until(async () => {
		const r = await conn.ok('pty_read', { session_id: ok.sc.session_id, screen: true });
		return /sonnet-4 · /.test(r.text) && r;
	}, 20000, 'the composer names the model');
	assert.ok(scr);

	/* Signed out, the catalog cannot be listed: refused, not guessed. */
	const out = await rig.server({ env: { CURSOR_API_KEY: undefined } });
	const so = await out.err('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'seed-signedout',
		model: 'sonnet-4' });
	assert.match(so.text, /CURSOR_MODEL_CATALOG_UNAVAILABLE: `cursor-agent models` could not list the cursor-cli catalog to check model 'sonnet-4' \(status 1\): Authentication required/, so.text);
	assert.ok(!(await listed(out)).includes('seed-signedout'), 'nothing was launched');
});
