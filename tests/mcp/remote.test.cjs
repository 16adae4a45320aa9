'use strict';
/*
 * REM-RELAY: the same tools on another host, relayed to its aiterm-mcp
 * over ssh (a real sshd on 127.0.0.1, key auth, BatchMode).  The "other
 * host" is this machine reached through ssh: its aiterm-mcp runs with a
 * state root of its own (AITERM_REMOTE_MCP names a wrapper that sets it),
 * so a session opened there is not in the local server's list.  Cases:
 * open/send/read/close with exit codes and reducers applied there, one
 * ssh connection (one login, one sshd session in sshd's log) reused by
 * two dozen calls, the connection killed mid-wait (an error that says to
 * read again; the next call reads from the same cursor every line from
 * before and after the drop, each once: nothing lost, nothing resent),
 * an unreachable host and a missing remote aiterm-mcp
 * (clear errors, nothing hangs), a destination that is an ssh option.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { hasLine, countLine, show } = require('./lib/pty.cjs');
const { remoteRig, sshProcs } = require('./lib/remote.cjs');

const T = { timeout: 120000 };

test('REM-RELAY: pty_open, pty_send and pty_close on another host; exit codes and reducers there; one ssh for all', T, async (t) => {
	const r = await remoteRig(t);
	if (!r)
		return;
	const { rig, c } = r;
	const o = await c.ok('pty_open', { remote: 'far', name: 'far1' }, 60000);
	assert.equal(o.sc.session_id, 'far1', show(o.r));
	let res = await c.ok('pty_send', { remote: 'far', session_id: 'far1', text: 'echo "$AITERM_STATE_DIR"; (exit 3)', wait: true, timeout: 20 });
	assert.ok(hasLine(res.text, r.farState), show(res.r));
	assert.equal(res.sc.exit_code, 3, show(res.r));
	/* The reducers run there: a long listing comes back folded. */
	res = await c.ok('pty_send', { remote: 'far', session_id: 'far1', text: 'seq 1 30000', wait: true, timeout: 30 });
	assert.ok(res.text.length < 20000, `reduced on the far side: ${res.text.length} chars`);
	/*
	 * Not a local session, but recorded as one opened on that host
	 * (REM-RELAY records: <root>/remote/<host hash>/), which a restarted
	 * server still lists.
	 */
	const local = await c.ok('pty_list', {});
	assert.ok(!local.sc.sessions.some((x) => x.session_id === 'far1'), show(local.r));
	assert.deepEqual(local.sc.remote_sessions.map((x) => [x.host, x.session_id, x.tool]), [['far', 'far1', 'pty_open']], show(local.r));
	assert.match(local.text, /^far1\tremote far$/m, local.text);
	const again = await rig.server();
	const relisted = await again.ok('pty_list', {});
	assert.match(relisted.text, /^far1\tremote far$/m, relisted.text);
	await again.close();
	const remote = await c.ok('pty_list', { remote: 'far' });
	assert.ok(remote.text.includes('far1'), remote.text);
	assert.equal(sshProcs(rig).length, 1, 'one ssh connection carried every call');
	/* REM-AUTH: one login and one session on the far side for all of them. */
	for (let i = 0; i < 20; i++)
		await c.ok('pty_list', { remote: 'far' });
	const log = r.sshd.log();
	assert.equal((log.match(/Accepted publickey for /g) || []).length, 1, log);
	assert.equal((log.match(/Starting session: /g) || []).length, 1, log);
	await c.ok('pty_close', { remote: 'far', session_id: 'far1' });
	const after = await c.ok('pty_list', {});
	assert.equal(after.sc.remote_sessions, undefined, `closed there, no record here: ${show(after.r)}`);
	assert.equal(after.text, 'no sessions');
});

test('REM-RELAY: the connection killed mid-wait is an error that says to read again; the next call reads the rest', T, async (t) => {
	const r = await remoteRig(t);
	if (!r)
		return;
	const { rig, c } = r;
	await c.ok('pty_open', { remote: 'far', name: 'far2' }, 60000);
	const wait = c.call('pty_send', { remote: 'far', session_id: 'far2', text: 'for i in 1 2 3 4 5 6; do echo drop-line-$i; sleep 0.4; done; echo after-the-drop', wait: true, timeout: 30 });
	await new Promise((res) => setTimeout(res, 700));
	for (const pid of sshProcs(rig))
		process.kill(pid, 'SIGKILL');
	const cut = await wait;
	assert.equal(cut.isError, true, show(cut));
	assert.match(cut.content[0].text, /REMOTE_CONNECTION_LOST: ssh far exited/);
	assert.match(cut.content[0].text, /read again \(same cursor\), nothing was resent/);
	await new Promise((res) => setTimeout(res, 2500));
	const res = await c.ok('pty_read', { remote: 'far', session_id: 'far2', wait: true, timeout: 10 }, 60000);
	assert.ok(hasLine(res.text, 'after-the-drop'), show(res.r));
	/* From the same cursor: what came before the drop too, each line once. */
	for (let i = 1; i <= 6; i++)
		assert.equal(countLine(res.text, `drop-line-${i}`), 1, show(res.r));
});

test('REM-RELAY: an unreachable host, a missing remote aiterm-mcp and an option for a host are clear errors', T, async (t) => {
	const r = await remoteRig(t, { mcp: '/nonexistent/aiterm-mcp' });
	if (!r)
		return;
	const { c } = r;
	const t0 = Date.now();
	const missing = await c.err('pty_list', { remote: 'far' }, 60000);
	assert.match(missing.text, /^pty_list \(remote far\): REMOTE_AITERM_MISSING: far has no aiterm-mcp to run \(aiterm-remote: no \/nonexistent\/aiterm-mcp on PATH=/, missing.text);
	const gone = await c.err('pty_list', { remote: '127.0.0.1:1' }, 60000);
	assert.match(gone.text, /REMOTE_UNREACHABLE: ssh 127\.0\.0\.1:1 exited with status 255 before the remote aiterm-mcp answered/, gone.text);
	assert.ok(Date.now() - t0 < 30000, 'nothing hangs');
	const opt = await c.err('pty_list', { remote: '-oProxyCommand=touch /tmp/x' });
	assert.match(opt.text, /is not an ssh destination/);
	/* The local server still answers. */
	await c.ok('pty_list', {});
});
