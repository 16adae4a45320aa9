'use strict';
/*
 * PTY-OPEN sessions survive the MCP server: SIGKILL aiterm-mcp, start a
 * new one on the same state root, and the session, its read cursor and
 * its shell state are still there; a wait cut by the kill is answered by
 * the next server (PTY-DONE); a tmux server killed under a live session
 * gives a clear "lost" (PTY-LIST, PTY-SEND, PTY-READ) and pty_open works
 * again afterwards.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, hasLine, countLine, show, delay, waitGone, alive } = require('./lib/pty.cjs');
const { needProgram, skip } = require('./lib/skip.cjs');

const T = { timeout: 90000 };

test('PTY-OPEN persistence: SIGKILL the server, a new one continues the session, cursor and shell state', T, async (t) => {
	const rig = new Rig(t);
	const c1 = await rig.server();
	const o = await c1.open({ name: 'keep', shell: 'bash' });
	const id = o.sc.session_id;
	await c1.expectExit(id, 'cd /tmp && export FOO=bar', 0);
	const seen = await c1.expectExit(id, 'echo read-$((1+1))', 0);
	assert.ok(hasLine(seen.text, 'read-2'), show(seen.r));
	/* Output produced but not read before the kill. */
	const sent = await c1.ok('pty_send', { session_id: id, text: 'echo unread-$((3+4))' });
	assert.equal(sent.sc.complete, null);
	await delay(300);
	await c1.kill('SIGKILL');

	const c2 = await rig.server();
	const list = await c2.ok('pty_list', {});
	const e = list.sc.sessions.find((s) => s.session_id === id);
	assert.ok(e, `the session is listed by the new server: ${show(list.r)}`);
	assert.equal(e.alive, true, show(list.r));
	assert.equal(e.managed, true, show(list.r));
	assert.notEqual(e.lost, true, show(list.r));

	const r = await c2.ok('pty_read', { session_id: id, wait: true, timeout: 10 }, 30000);
	assert.equal(countLine(r.text, 'unread-7'), 1, `the unread output comes once: ${show(r.r)}`);
	assert.ok(!hasLine(r.text, 'read-2'), `output already read is not repeated: ${show(r.r)}`);
	assert.equal(r.sc.complete, true, show(r.r));
	assert.equal(r.sc.exit_code, 0, show(r.r));

	const res = await c2.expectExit(id, 'pwd; echo $FOO', 0);
	assert.ok(hasLine(res.text, '/tmp'), `cwd survived: ${show(res.r)}`);
	assert.ok(hasLine(res.text, 'bar'), `the variable survived: ${show(res.r)}`);
	assert.ok(!hasLine(res.text, 'unread-7'), `no repeat of the previous read: ${show(res.r)}`);
	const cl = await c2.ok('pty_close', { session_id: id });
	assert.equal(cl.sc.closed, true);
});

test('PTY-DONE server killed during a wait: the next server answers the read with the completion', T, async (t) => {
	const rig = new Rig(t);
	const c1 = await rig.server();
	const o = await c1.open({ shell: 'bash' });
	const id = o.sc.session_id;
	await c1.expectExit(id, 'true', 0);
	const pending = c1.call('pty_send', { session_id: id, text: 'sleep 1; echo done', wait: true, timeout: 20 }, 40000)
		.then((r) => ({ r }), (err) => ({ err }));
	await delay(300);
	await c1.kill('SIGKILL');
	const p = await pending;
	assert.ok(p.err || p.r, 'the call settled');
	if (p.r)
		assert.fail(`the killed server answered the wait: ${show(p.r)}`);

	const c2 = await rig.server();
	const started = Date.now();
	const r = await c2.ok('pty_read', { session_id: id, wait: true, timeout: 10 }, 30000);
	assert.equal(r.sc.complete, true, show(r.r));
	assert.equal(r.sc.exit_code, 0, show(r.r));
	assert.equal(countLine(r.text, 'done'), 1, `"done" in the output: ${show(r.r)}`);
	assert.ok(Date.now() - started < 9000, 'the read did not run into its timeout');
	/* The session goes on normally. */
	const res = await c2.expectExit(id, 'echo after-$((2*3))', 0);
	assert.ok(hasLine(res.text, 'after-6'), show(res.r));
	assert.ok(!hasLine(res.text, 'done'), `no repeat: ${show(res.r)}`);
});

test('PTY-LIST tmux server killed under a live session: "lost" errors, listed as lost, pty_open works again', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await c.open({ name: 'doomed', shell: 'bash' });
	await c.expectExit('doomed', 'echo alive-1', 0);
	const pid = rig.tmuxPid();
	assert.ok(pid, 'the private tmux server answers on its socket');
	process.kill(pid, 'SIGKILL');
	assert.ok(await waitGone(pid, 5000), 'tmux server gone');
	assert.ok(!alive(pid));

	const s = await c.err('pty_send', { session_id: 'doomed', text: 'echo hi', wait: true, timeout: 2 }, 20000);
	assert.match(s.text, /lost/i, `pty_send says lost: ${s.text}`);
	assert.match(s.text, /doomed/, 'and names the session');
	const r = await c.call('pty_read', { session_id: 'doomed', wait: true, timeout: 2 }, 20000);
	if (r.isError === true)
		assert.match(r.content.map((x) => x.text).join('\n'), /lost/i, `pty_read says lost: ${show(r)}`);
	else
		assert.equal(r.structuredContent.via, 'lost', `pty_read: isError or via lost: ${show(r)}`);
	const k = await c.err('pty_key', { session_id: 'doomed', key: 'enter' });
	assert.match(k.text, /lost|doomed/i, k.text);

	const list = await c.ok('pty_list', {});
	const e = list.sc.sessions.find((x) => x.session_id === 'doomed');
	assert.ok(e, `still listed: ${show(list.r)}`);
	assert.equal(e.lost, true, `marked lost: ${show(list.r)}`);
	assert.equal(e.alive, false, show(list.r));
	assert.match(list.text, /doomed\s+lost/, list.text);

	/* A new session (new tmux server) works. */
	const o2 = await c.open({ name: 'fresh', shell: 'bash' });
	assert.equal(o2.sc.session_id, 'fresh');
	const res = await c.expectExit('fresh', 'echo fresh-$((5*5))', 0);
	assert.ok(hasLine(res.text, 'fresh-25'), show(res.r));
	const pid2 = rig.tmuxPid();
	assert.ok(pid2 && pid2 !== pid, `a new tmux server: ${pid2}`);
	/* The lost session can be closed, and its name reused. */
	const cl = await c.ok('pty_close', { session_id: 'doomed' });
	assert.equal(cl.sc.session_id, 'doomed');
	const list2 = await c.ok('pty_list', {});
	assert.ok(!list2.sc.sessions.some((x) => x.session_id === 'doomed'), `closed: ${show(list2.r)}`);
	await c.open({ name: 'doomed', shell: 'bash' });
	const res2 = await c.expectExit('doomed', 'echo reborn', 0);
	assert.ok(hasLine(res2.text, 'reborn'), show(res2.r));
	assert.ok(!hasLine(res2.text, 'alive-1'), 'the old log is not replayed');
});

/*
 * Issue 38: a command's record (command.json) is renamed into place, no
 * longer fsynced.  A server SIGKILLed right after it acknowledged a send
 * has lost nothing: the next server finds the command and its result (the
 * page cache holds what the dead server wrote).  Five rounds, each killed
 * at once after the "sent".
 */
test('PTY-SEND a send acknowledged just before a SIGKILL of the server: the next server finds the command with its output and exit code (issue 38)', T, async (t) => {
	const rig = new Rig(t);
	let c = await rig.server();
	const o = await c.open({ shell: 'bash' });
	const id = o.sc.session_id;
	await c.expectExit(id, 'true', 0);
	for (let i = 1; i <= 5; i++) {
		const sent = await c.ok('pty_send', { session_id: id, text: `sleep 0.2; echo ack-$((${i}*11)); (exit ${i})` });
		assert.equal(sent.sc.complete, null, show(sent.r));
		await c.kill('SIGKILL');
		c = await rig.server();
		const r = await c.ok('pty_read', { session_id: id, wait: true, timeout: 10 }, 30000);
		assert.equal(r.sc.complete, true, `round ${i}: ${show(r.r)}`);
		assert.equal(r.sc.exit_code, i, `round ${i}: its own exit code: ${show(r.r)}`);
		assert.equal(countLine(r.text, `ack-${i * 11}`), 1, `round ${i}: its output once: ${show(r.r)}`);
	}
});

/* The server's fsync and rename calls over n round trips (strace -c). */
async function syncCalls(c, id, n) {
	const { spawn } = require('node:child_process');
	const fs = require('node:fs');
	const os = require('node:os');
	const path = require('node:path');
	const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-strace-')), 'c.txt');
	const st = spawn('strace', ['-f', '-c', '-e', 'trace=fsync,fdatasync,sync_file_range,rename,renameat,renameat2',
		'-o', out, '-p', String(c.pid)], { stdio: 'ignore' });
	await delay(700);
	for (let i = 0; i < n; i++)
		await c.expectExit(id, 'true', 0);
	st.kill('SIGINT');
	await new Promise((r) => st.on('exit', r));
	const summary = fs.readFileSync(out, 'utf8');
	if (!/% time/.test(summary)) {
		fs.rmSync(path.dirname(out), { recursive: true, force: true });
		return null;	/* strace could not attach (no ptrace here) */
	}
	const calls = {};
	for (const line of summary.split('\n')) {
		const m = line.match(/^\s*[\d.]+\s+[\d.]+\s+\d+\s+(\d+)\s+(?:\d+\s+)?(\w+)\s*$/);
		if (m && m[2] !== 'total')
			calls[m[2]] = Number(m[1]);
	}
	fs.rmSync(path.dirname(out), { recursive: true, force: true });
	return calls;
}

/*
 * Issue 38 (was 4 fsyncs, issue 20): what a true round trip writes only
 * has to outlive the server, not a power cut that ends the shell anyway
 * (ADR 0003), so it is renamed into place and never fsynced.
 */
test('OPS-BOUNDARY a true round trip makes no fsync and at most 4 renames (issue 38)', T, async (t) => {
	if (!needProgram(t, 'strace'))
		return;
	const rig = new Rig(t);
	const c = await rig.server();
	const o = await c.open({ shell: 'bash' });
	const id = o.sc.session_id;
	await c.expectExit(id, 'true', 0);
	const n = 10;
	const calls = await syncCalls(c, id, n);
	if (calls === null)
		return skip(t, 'no-ptrace', 'strace cannot attach to the server here');
	t.diagnostic(`over ${n} round trips: ${JSON.stringify(calls)}`);
	const syncs = (calls.fsync || 0) + (calls.fdatasync || 0) + (calls.sync_file_range || 0);
	assert.equal(syncs, 0, `no fsync per round trip: ${JSON.stringify(calls)}`);
	const renames = (calls.rename || 0) + (calls.renameat || 0) + (calls.renameat2 || 0);
	assert.ok(renames > 0 && renames <= 4 * n, `renames: ${JSON.stringify(calls)}`);
});
