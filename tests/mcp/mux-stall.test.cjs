'use strict';
/*
 * Issue 20, OPS-BOUNDARY: a private tmux server that stops answering must
 * not stop the MCP server.  With the tmux server stopped (SIGSTOP, its
 * PID found through the test's own socket), pty_list waits on tmux on the
 * multiplexer's thread: ping and tools/list are answered meanwhile; the
 * call fails saying tmux is not answering; after SIGCONT the next call
 * works, with no restart.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, textOf, tmuxServerPid, delay, alive } = require('./lib/pty.cjs');

const T = { timeout: 60000 };

test('OPS-BOUNDARY: tmux stopped mid-call; ping and tools/list answer, the call fails clearly, then works again', T, async (t) => {
	const rig = new Rig(t, { AITERM_TMUX_CONTROL_TIMEOUT_MS: '2000' });
	const c = await rig.server();
	const { sc } = await c.open({});
	assert.match((await c.ok('pty_list', {})).text, new RegExp(sc.session_id));
	const pid = tmuxServerPid(rig.dirs.state + '/tmux.sock');
	assert.ok(pid > 0, 'the private tmux server');
	process.kill(pid, 'SIGSTOP');
	let resumed = false;
	t.after(() => { if (!resumed) process.kill(pid, 'SIGCONT'); });
	const t0 = Date.now();
	const stuck = c.call('pty_list', {});
	await delay(200);
	const pings = [];
	for (let i = 0; i < 5; i++) {
		const p0 = Date.now();
		await c.client.ping();
		pings.push(Date.now() - p0);
	}
	const l0 = Date.now();
	const tools = await c.client.listTools();
	const listMs = Date.now() - l0;
	t.diagnostic(`while tmux is stopped: ping ${pings.join(', ')} ms; tools/list ${listMs} ms`);
	assert.ok(Math.max(...pings) < 100, `ping answered within 100 ms: ${pings}`);
	assert.ok(tools.tools.some((x) => x.name === 'pty_list'));
	const r = await stuck;
	const text = r.content.map((x) => x.text).join('\n');
	t.diagnostic(`pty_list after ${Date.now() - t0} ms: ${JSON.stringify(text)}`);
	assert.equal(r.isError, true, text);
	assert.match(text, /^pty_list: tmux server not answering for 2000 ms$/);
	process.kill(pid, 'SIGCONT');
	resumed = true;
	assert.match((await c.ok('pty_list', {})).text, new RegExp(`^${sc.session_id}\\talive`, 'm'));
	assert.equal((await c.ok('pty_send', { session_id: sc.session_id, text: 'echo back-$((20+1))', wait: true })).text.includes('back-21'), true);
});

test('OPS-BOUNDARY: tmux stopped while a command is awaited; ping answers, the wait ends with the command once tmux is back', T, async (t) => {
	const rig = new Rig(t, { AITERM_TMUX_CONTROL_TIMEOUT_MS: '2000' });
	const c = await rig.server();
	const { sc } = await c.open({});
	const pid = tmuxServerPid(rig.dirs.state + '/tmux.sock');
	assert.ok(pid > 0, 'the private tmux server');
	const waiting = c.call('pty_send', { session_id: sc.session_id, text: 'sleep 1; echo after-$((6*7))', wait: true, timeout: 30 });
	await delay(300);
	process.kill(pid, 'SIGSTOP');
	let resumed = false;
	t.after(() => { if (!resumed) process.kill(pid, 'SIGCONT'); });
	/* The command ends while tmux is stopped: the pane's output waits in tmux, queries on it stall. */
	await delay(1500);
	const pings = [];
	for (let i = 0; i < 5; i++) {
		const p0 = Date.now();
		await c.client.ping();
		pings.push(Date.now() - p0);
		await delay(200);
	}
	t.diagnostic(`while tmux is stopped under a wait: ping ${pings.join(', ')} ms`);
	assert.ok(Math.max(...pings) < 100, `ping answered within 100 ms: ${pings}`);
	process.kill(pid, 'SIGCONT');
	resumed = true;
	const r = await waiting;
	const text = r.content.map((x) => x.text).join('\n');
	t.diagnostic(`the wait: ${JSON.stringify(text)}`);
	assert.notEqual(r.isError, true, text);
	assert.match(text, /after-42/);
});

/*
 * Issue 37: tmux 3.3a segfaulted (`segfault at 20`, control_write, the
 * crash of ADR 0020) when it was continued after a 16-30 s stop during
 * which calls had failed on the control client's timeout, and every
 * session was lost: each call after a timeout had killed the control
 * client and started a new one, and tmux found them all at once on
 * resume.  Three sessions; the rig's own tmux server stopped for 30 s
 * (AITERM_MUX_STOP_S) with the default timeout (5 s) while a waited
 * pty_send, diagnostics, pty_list, pty_read and a pty_open are called,
 * spaced, and two more servers start and call too; after SIGCONT the
 * same tmux server serves every session alive to each server and runs a
 * command in each.
 */
test('OPS-BOUNDARY: tmux stopped for 30 s under calls comes back with every session (issue 37)', { timeout: 150000 }, async (t) => {
	const stopMs = Number(process.env.AITERM_MUX_STOP_S || 30) * 1000;
	const rig = new Rig(t);
	const c = await rig.server();
	const ids = [];
	for (let i = 0; i < 3; i++)
		ids.push((await c.open({})).sc.session_id);
	for (const id of ids)
		await c.expectExit(id, 'echo before-$((40+2))');
	const sock = rig.dirs.state + '/tmux.sock';
	const pid = tmuxServerPid(sock);
	assert.ok(pid > 0, 'the private tmux server');
	process.kill(pid, 'SIGSTOP');
	const stopped = Date.now();
	let resumed = false;
	t.after(() => { if (!resumed) process.kill(pid, 'SIGCONT'); });
	const seen = [];
	const track = (who, what, p) => {
		const from = Date.now() - stopped;
		return p.then((r) => {
			seen.push({ what: `${who} ${what}`, from, at: Date.now() - stopped, text: textOf(r), isError: r.isError === true });
		});
	};
	const calls = [track('1', 'pty_send wait', c.call('pty_send', { session_id: ids[0], text: 'echo during-$((6*7))', wait: true, timeout: 90 }, 120000))];
	const plan = [['diagnostics', {}], ['pty_list', {}], ['pty_read', { session_id: ids[1] }],
		['pty_open', {}], ['pty_list', {}], ['pty_read', { session_id: ids[2] }],
		['diagnostics', {}], ['pty_read', { session_id: ids[1] }], ['pty_list', {}]];
	const pings = [];
	let c2 = null, c3 = null;
	for (const [i, [name, args]] of plan.entries()) {
		await delay(Math.max(0, (stopMs - 4000) / plan.length - 100));
		calls.push(track('1', name, c.call(name, args, 120000)));
		const p0 = Date.now();
		await c.client.ping();
		pings.push(Date.now() - p0);
		/* Two more servers on the state root start during the stop and call too. */
		if (i === 1)
			c2 = await rig.server();
		if (i === 3)
			c3 = await rig.server();
		if (c2 && i % 2 === 0)
			calls.push(track('2', name, c2.call(name, args, 120000)));
		if (c3 && i % 2 === 1)
			calls.push(track('3', name, c3.call(name, args, 120000)));
	}
	await delay(Math.max(0, stopMs - (Date.now() - stopped)));
	process.kill(pid, 'SIGCONT');
	resumed = true;
	await Promise.all(calls);
	for (const s of seen)
		t.diagnostic(`${s.what} called at ${s.from} ms, answered at ${s.at} ms: ${JSON.stringify(s.text.slice(0, 160))}`);
	t.diagnostic(`ping while stopped: ${pings.join(', ')} ms`);
	/* The same tmux server, alive, with every session. */
	await delay(500);
	assert.equal(alive(pid), true, `tmux server ${pid} must outlive SIGCONT (tmux 3.3a: segfault at 20)`);
	assert.equal(tmuxServerPid(sock), pid, 'the same tmux server serves the socket');
	for (const conn of [c, c2, c3]) {
		const list = (await conn.ok('pty_list', {})).text;
		for (const id of ids)
			assert.match(list, new RegExp(`^${id}\\talive`, 'm'), `${id} alive after the stop: ${list}`);
		assert.doesNotMatch(list, /lost/, list);
	}
	for (const id of ids)
		assert.match((await c.expectExit(id, 'echo after-$((50+5))')).text, /after-55/);
	await c2.open({});
	await c3.open({});
	assert.ok(Math.max(...pings) < 100, `ping answered within 100 ms: ${pings}`);
	/*
	 * What failed meanwhile said why; once the first server's call had
	 * timed out (5 s), its later calls failed at once instead of waiting.
	 */
	for (const s of seen.filter((x) => x.isError))
		assert.match(s.text, /tmux server not answering/, `${s.what}: ${s.text}`);
	for (const s of seen.filter((x) => /^1 /.test(x.what) && x.from > 5500 && x.at < stopMs - 500))
		assert.ok(s.at - s.from < 1000, `${s.what} called at ${s.from} ms answered at ${s.at} ms: ${s.text}`);
});
