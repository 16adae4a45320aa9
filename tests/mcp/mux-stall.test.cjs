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
const { Rig, tmuxServerPid, delay } = require('./lib/pty.cjs');

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
