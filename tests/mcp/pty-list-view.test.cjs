'use strict';
/*
 * PTY-LIST, PTY-OBSERVE at scale (issue 38, ADR 0038): pty_list answers
 * from a view of tmux that the control client's notifications keep, not
 * from a list-panes -a per call, and the view is never stale: a session
 * killed behind our back is lost on the very next call, a pane whose
 * process died is exited, a tmux server that died and came back is seen,
 * and each of several servers on one state root keeps its own view.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, show, delay } = require('./lib/pty.cjs');

const T = { timeout: 120000 };

/* Runs tmux on the rig's own socket, never the user's server. */
function tmux(rig, args) {
	return execFileSync('tmux', ['-S', path.join(rig.env.AITERM_STATE_DIR, 'tmux.sock'), ...args], {
		encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'pipe'],
		env: { PATH: process.env.PATH, TMUX: '' },
	});
}

/* Whether /proc shows pid ended (a zombie, or gone). */
function ended(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return /^[ZX]$/.test(stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3));
	} catch {
		return true;
	}
}

const entry = (list, id) => list.sc.sessions.find((s) => s.session_id === id);

async function openAll(c, ids) {
	for (const name of ids)
		await c.open({ name, shell: 'sh' }, 30000);
}

/*
 * A tmux that copies what the control client is told (its stdin) to
 * $AITERM_TEST_CTL_LOG, and is plain tmux for everything else.
 */
function loggingTmux(t) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-ctl-log-'));
	t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
	const tmuxBin = execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
	const wrapper = path.join(dir, 'tmux');
	const log = path.join(dir, 'ctl.log');
	fs.writeFileSync(wrapper, `#!/bin/sh
case " $* " in
*" -C "*) tee -a "$AITERM_TEST_CTL_LOG" | "${tmuxBin}" "$@";;
*) exec "${tmuxBin}" "$@";;
esac
`, { mode: 0o755 });
	fs.writeFileSync(log, '');
	return { wrapper, log, count: (re) => fs.readFileSync(log, 'utf8').split('\n').filter((l) => re.test(l)).length };
}

test('PTY-LIST: once nothing changed, a call asks tmux for no list of every pane', T, async (t) => {
	const ctl = loggingTmux(t);
	const rig = new Rig(t, { AITERM_TMUX: ctl.wrapper, AITERM_TEST_CTL_LOG: ctl.log });
	const c = await rig.server();
	const ids = ['v0', 'v1', 'v2', 'v3'];
	await openAll(c, ids);
	await c.ok('pty_list', {});
	const before = ctl.count(/^'list-panes'/);
	for (let i = 0; i < 20; i++) {
		const list = await c.ok('pty_list', {});
		for (const id of ids)
			assert.equal(entry(list, id).alive, true, show(list.r));
	}
	const after = ctl.count(/^'list-panes'/);
	t.diagnostic(`list-panes sent: ${before} before the 20 calls, ${after - before} during them`);
	assert.equal(after - before, 0, 'the 20 calls answered from the view');
	/* A change (a session opened) takes the view again, once. */
	await c.open({ name: 'v4', shell: 'sh' });
	const list = await c.ok('pty_list', {});
	assert.equal(entry(list, 'v4').alive, true, show(list.r));
	await c.ok('pty_list', {});
	assert.equal(ctl.count(/^'list-panes'/) - after, 1, 'one full list after the change');
});

test('PTY-LIST: a session killed from outside is lost on the very next call, 30 times', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const ids = Array.from({ length: 30 }, (_, i) => `k${i}`);
	await openAll(c, ids);
	for (const id of ids) {
		/* Twice: the second answers from the view. */
		await c.ok('pty_list', {});
		const warm = await c.ok('pty_list', {});
		assert.equal(entry(warm, id).alive, true, show(warm.r));
		tmux(rig, ['kill-session', '-t', `=${id}`]);
		const list = await c.ok('pty_list', {});
		const e = entry(list, id);
		assert.ok(e, show(list.r));
		assert.equal(e.lost, true, `${id} lost at once: ${show(list.r)}`);
		assert.equal(e.alive, false);
	}
});

test('PTY-LIST: a pane whose process died is exited on the next call, 12 times', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const ids = Array.from({ length: 12 }, (_, i) => `d${i}`);
	let withStatus = 0;
	await openAll(c, ids);
	for (const id of ids) {
		await c.ok('pty_list', {});
		await c.ok('pty_list', {});
		const pid = Number(tmux(rig, ['display-message', '-p', '-t', `=${id}:`, '#{pane_pid}']));
		assert.ok(pid > 1);
		process.kill(pid, 'SIGKILL');
		/* Died: a zombie or gone (kill returns before it has ended). */
		while (ended(pid) === false)
			await delay(1);
		const list = await c.ok('pty_list', {});
		const e = entry(list, id);
		assert.equal(e.alive, false, `${id} exited at once: ${show(list.r)}`);
		/* 137, or unknown while tmux has not reaped the shell yet. */
		assert.ok(e.exit_status === 137 || e.exit_status === undefined, show(list.r));
		if (e.exit_status === 137)
			withStatus++;
	}
	t.diagnostic(`${withStatus} of ${ids.length} with their status at once`);
	/* One left alive is still alive. */
	await c.open({ name: 'dz', shell: 'sh' });
	await c.ok('pty_list', {});
	const list = await c.ok('pty_list', {});
	assert.equal(entry(list, 'dz').alive, true, show(list.r));
	assert.equal(entry(list, 'd0').alive, false, show(list.r));
});

test('PTY-LIST: the foreground command follows the pane without a full list', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await openAll(c, ['f0', 'f1']);
	await c.ok('pty_list', {});
	let list = await c.ok('pty_list', {});
	assert.equal(entry(list, 'f0').command, 'sh', show(list.r));
	await c.ok('pty_send', { session_id: 'f0', text: 'sleep 30' });
	let cmd;
	for (let i = 0; i < 100 && cmd !== 'sleep'; i++) {
		list = await c.ok('pty_list', {});
		cmd = entry(list, 'f0').command;
		if (cmd !== 'sleep')
			await delay(20);
	}
	assert.equal(cmd, 'sleep', show(list.r));
	assert.equal(entry(list, 'f1').command, 'sh');
	/* What tmux itself says. */
	assert.equal(tmux(rig, ['display-message', '-p', '-t', '=f0:', '#{pane_current_command}']).trim(), 'sleep');
	await c.ok('pty_key', { session_id: 'f0', key: 'C-c' });
	for (let i = 0; i < 100 && cmd !== 'sh'; i++) {
		list = await c.ok('pty_list', {});
		cmd = entry(list, 'f0').command;
		if (cmd !== 'sh')
			await delay(20);
	}
	assert.equal(cmd, 'sh', show(list.r));
});

test('PTY-LIST issue 38: a name closed and made again at once as an agent\'s is listed as the agent\'s', T, async (t) => {
	/*
	 * pty_list no longer looks for agent.json of a session it found
	 * without one (a launch writes it before the session exists); the
	 * same name made again within tmux's second is a new pane process,
	 * looked at again.
	 */
	const { cursorRig } = require('./lib/cursor-rig.cjs');
	const { rig } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1' });
	const c = await rig.server();
	for (let round = 0; round < 3; round++) {
		await c.open({ name: 'same', shell: 'sh' });
		let list = await c.ok('pty_list', {});
		assert.equal(entry(list, 'same').agent, undefined, show(list.r));
		await c.ok('pty_close', { session_id: 'same' });
		const l = await c.ok('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'same', trust_project: true }, 120000);
		assert.equal(l.sc.startup, 'ready', l.text);
		list = await c.ok('pty_list', {});
		assert.equal(entry(list, 'same').agent?.harness, 'cursor-cli', `round ${round}: ${show(list.r)}`);
		await c.ok('pty_close', { session_id: 'same' });
	}
});

test('PTY-LIST: the tmux server killed and started again; every session lost at once, the new one alive', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const ids = ['r0', 'r1', 'r2'];
	await openAll(c, ids);
	await c.ok('pty_list', {});
	await c.ok('pty_list', {});
	const pid = rig.tmuxPid();
	assert.ok(pid > 1);
	process.kill(pid, 'SIGKILL');
	let list = await c.ok('pty_list', {});
	for (const id of ids)
		assert.equal(entry(list, id).lost, true, `${id} lost: ${show(list.r)}`);
	await c.open({ name: 'r3', shell: 'sh' });
	list = await c.ok('pty_list', {});
	assert.equal(entry(list, 'r3').alive, true, show(list.r));
	for (const id of ids)
		assert.equal(entry(list, id).lost, true, show(list.r));
	await c.ok('pty_list', {});
	tmux(rig, ['kill-session', '-t', '=r3']);
	list = await c.ok('pty_list', {});
	assert.equal(entry(list, 'r3').lost, true, show(list.r));
});

test('PTY-LIST: three servers on one state root, each with its view, see each other\'s changes at once', T, async (t) => {
	const rig = new Rig(t);
	const servers = [await rig.server(), await rig.server(), await rig.server()];
	await openAll(servers[0], ['m0', 'm1']);
	for (let round = 0; round < 6; round++) {
		for (const s of servers) {
			await s.ok('pty_list', {});
			await s.ok('pty_list', {});
		}
		const opener = servers[round % 3];
		const id = `n${round}`;
		await opener.open({ name: id, shell: 'sh' });
		for (const s of servers) {
			const list = await s.ok('pty_list', {});
			assert.equal(entry(list, id).alive, true, `server ${servers.indexOf(s)} sees ${id}: ${show(list.r)}`);
		}
		await servers[(round + 1) % 3].ok('pty_close', { session_id: id });
		rig.sessions.delete(id);
		for (const s of servers) {
			const list = await s.ok('pty_list', {});
			assert.equal(entry(list, id), undefined, `server ${servers.indexOf(s)}: ${id} closed: ${show(list.r)}`);
		}
	}
	tmux(rig, ['kill-session', '-t', '=m1']);
	for (const s of servers) {
		const list = await s.ok('pty_list', {});
		assert.equal(entry(list, 'm1').lost, true, show(list.r));
		assert.equal(entry(list, 'm0').alive, true, show(list.r));
	}
});
