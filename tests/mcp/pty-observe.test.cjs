'use strict';
/*
 * PTY-OBSERVE: pty_observe through the official SDK client on real
 * processes in the private tmux server: a node shim that starts a native
 * child, a shell pipeline, SIGSTOP/SIGCONT, a child that exits between two
 * observations, a pane re-created under the same id, background jobs, a
 * dead pane and a lost session.  Signals go only to PIDs this test
 * started, found through the observation and checked against /proc.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { Rig, show, until, delay, alive, waitGone } = require('./lib/pty.cjs');

const T = { timeout: 90000 };
const ARGV_SECRET = 'argv-secret-7f3a';
const SCREEN_SECRET = 'screen-secret-91c2';

/*
 * The shim: like an npm bin script it starts the native program and waits
 * for it.  native: sh (not a candidate) in between, then sleep 300.
 * short: sleep 2, then it stays alive alone.
 */
const SHIM = `'use strict';
const { spawn } = require('node:child_process');
const mode = process.argv[2];
process.title = 'not-node-anymore';
if (mode === 'native') {
	const c = spawn('/bin/sh', ['-c', 'sleep 300; true'], { stdio: 'inherit' });
	c.on('exit', (code) => process.exit(code === null ? 1 : code));
} else {
	spawn('sleep', ['2'], { stdio: 'inherit' });
	setInterval(() => {}, 1000);
	setTimeout(() => process.exit(0), 120000);
}
`;

function comm(pid) {
	try {
		return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
	} catch {
		return null;
	}
}

function ppid(pid) {
	const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	return Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]);
}

function startId(pid) {
	const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
	return st.slice(st.lastIndexOf(')') + 2).split(' ')[19];
}

function argvDigest(pid) {
	const raw = fs.readFileSync(`/proc/${pid}/cmdline`);
	return crypto.createHash('sha256').update(raw).digest('hex').slice(0, 32);
}

const linux = fs.existsSync('/proc/self/stat');

/* Sends a signal to pid only if it is the process we expect (our own child). */
function signal(pid, sig, name, start) {
	assert.equal(comm(pid), name, `pid ${pid} is our ${name}`);
	assert.equal(startId(pid), start, `pid ${pid} is still the process observed`);
	process.kill(pid, sig);
}

async function observe(c, id, cursor) {
	const args = { session_id: id };
	if (cursor !== undefined)
		args.cursor = cursor;
	const res = await c.ok('pty_observe', args);
	const all = JSON.stringify(res.r);
	assert.ok(!all.includes(ARGV_SECRET), `no argv text in the result: ${all}`);
	assert.ok(!all.includes(SCREEN_SECRET), `no screen text in the result: ${all}`);
	return res;
}

async function rigWithSession(t, extraEnv, name) {
	const rig = new Rig(t, extraEnv);
	const c = await rig.server();
	const o = await c.open(Object.assign({ shell: 'bash', cwd: rig.dirs.tmp }, name ? { name } : {}));
	fs.writeFileSync(path.join(rig.dirs.tmp, 'shim.cjs'), SHIM);
	/* The shell is up and reading input. */
	await c.expectExit(o.sc.session_id, `echo ${SCREEN_SECRET.replace('-', '-""')}`);
	return { rig, c, id: o.sc.session_id };
}

test('pty_observe: bad input is a specific tool error', T, async (t) => {
	const { c, id } = await rigWithSession(t);
	let e = await c.err('pty_observe', { session_id: 'nope' });
	assert.equal(e.text, "pty_observe: no session 'nope'");
	e = await c.err('pty_observe', { session_id: 'a b' });
	assert.equal(e.text, "pty_observe: invalid session_id 'a b'");
	e = await c.err('pty_observe', { session_id: id, cursor: 'garbage' });
	assert.equal(e.text, 'pty_observe: invalid cursor: it has 1 of 6 fields (not a pty_observe cursor)');
	e = await c.err('pty_observe', { session_id: id, cursor: 'obs1;x;1:2;3;zz;' });
	assert.equal(e.text, 'pty_observe: invalid cursor: its screen digest field is malformed');
	const first = await observe(c, id);
	e = await c.err('pty_observe', { session_id: 'other', cursor: first.sc.cursor });
	assert.equal(e.text, `pty_observe: the cursor is of session '${id}', not 'other'`);
	e = await c.err('pty_observe', { session_id: id, cursor: 5 });
	assert.match(e.text, /cursor/);
});

test('pty_observe: a shell at its prompt, first and second observation', T, async (t) => {
	const { c, id } = await rigWithSession(t);
	const a = await observe(c, id);
	const sc = a.sc;
	assert.equal(sc.exists, true, show(a.r));
	assert.equal(sc.managed, true);
	assert.equal(sc.pane.alive, true);
	assert.ok(sc.pane.identity && sc.pane.identity.pid > 1, show(a.r));
	assert.match(sc.pane.identity.argv_digest, /^[0-9a-f]{32}$/);
	if (linux) {
		assert.equal(comm(sc.pane.identity.pid), 'bash');
		assert.equal(sc.pane.identity.start_id, startId(sc.pane.identity.pid));
		assert.equal(sc.pane.identity.argv_digest, argvDigest(sc.pane.identity.pid));
	}
	assert.deepEqual({ alive: sc.harness.alive, reason: sc.harness.reason, identity: sc.harness.identity },
		{ alive: false, reason: 'no_foreground_launch', identity: null });
	assert.deepEqual({ state: sc.screen.state, reason: sc.screen.reason },
		{ state: 'unknown', reason: 'no_classifier' });
	assert.match(sc.screen.digest, /^[0-9a-f]{32}$/);
	assert.deepEqual(sc.activity, { delta: null, reason: 'first_observation' });
	assert.equal(sc.launches.length, 0);
	assert.equal(sc.processes, 1);
	assert.match(sc.cursor, /^obs1;/);

	const b = await observe(c, id, sc.cursor);
	const d = b.sc.activity.delta;
	assert.ok(d, show(b.r));
	assert.equal(b.sc.activity.reason, null);
	assert.equal(d.cpu_delta_complete, true, show(b.r));
	assert.equal(d.screen_changed, false);
	assert.deepEqual(d.ended, []);
	assert.ok(d.interval_ms >= 0);
	assert.equal(d.background.threshold_ms, 60000);
	assert.deepEqual(b.sc.pane.identity, sc.pane.identity);
});

test('pty_observe: a node shim and its native child are one launch; SIGSTOP wins over the screen', T, async (t) => {
	const { c, id } = await rigWithSession(t);
	await c.ok('pty_send', { session_id: id, text: `node shim.cjs native ${ARGV_SECRET}` });
	/* Until sh has started sleep (a fork not yet exec'd is still node). */
	const o = await until(async () => {
		const r = await observe(c, id);
		/* A fork caught before its exec still looks like its parent. */
		return r.sc.processes === 4 && r.sc.harness.identity && r.sc.harness.shim &&
			r.sc.launches.length === 1 && r.sc.launches[0].processes === 2 &&
			(!linux || comm(r.sc.harness.identity.pid) === 'sleep') ? r : null;
	}, 15000, 'the harness identity');
	const sc = o.sc;
	const body = sc.harness.identity, shim = sc.harness.shim;
	assert.equal(sc.harness.alive, true, show(o.r));
	assert.equal(sc.harness.reason, 'foreground_launch');
	assert.equal(sc.launches.length, 1, show(o.r));
	assert.equal(sc.launches[0].foreground, true);
	assert.equal(sc.launches[0].processes, 2, 'node and sleep are the candidates; sh is not');
	assert.deepEqual(sc.launches[0].identity, body);
	assert.deepEqual(sc.launches[0].shim, shim);
	assert.equal(sc.processes, 4, 'bash, node, sh, sleep');
	assert.notEqual(body.pid, sc.pane.identity.pid, 'the pane is not the harness');
	if (linux) {
		assert.equal(comm(body.pid), 'sleep');
		assert.equal(comm(ppid(body.pid)), 'sh', 'a non-candidate in between');
		assert.equal(ppid(ppid(body.pid)), shim.pid);
		assert.equal(ppid(shim.pid), sc.pane.identity.pid);
		assert.equal(body.start_id, startId(body.pid));
		assert.equal(body.argv_digest, argvDigest(body.pid));
		assert.equal(shim.argv_digest, argvDigest(shim.pid));
	}
	assert.equal(sc.screen.state, 'unknown');

	/* SIGSTOP the native body: blocked/harness_stopped. */
	signal(body.pid, 'SIGSTOP', 'sleep', body.start_id);
	const stopped = await until(async () => {
		const r = await observe(c, id, sc.cursor);
		return r.sc.harness.stopped ? r : null;
	}, 5000, 'the stopped state');
	assert.deepEqual({ state: stopped.sc.screen.state, reason: stopped.sc.screen.reason },
		{ state: 'blocked', reason: 'harness_stopped' }, show(stopped.r));
	assert.equal(stopped.sc.harness.alive, true, 'a stopped harness is alive');
	assert.equal(stopped.sc.launches[0].stopped, true);
	assert.equal(stopped.sc.launches[0].stopped_processes, 1);
	assert.deepEqual(stopped.sc.harness.identity, body);
	assert.ok(stopped.sc.activity.delta, 'same pane: a delta');

	signal(body.pid, 'SIGCONT', 'sleep', body.start_id);
	const resumed = await until(async () => {
		const r = await observe(c, id);
		return r.sc.harness.stopped === false ? r : null;
	}, 5000, 'the resumed state');
	assert.equal(resumed.sc.screen.state, 'unknown', show(resumed.r));
	assert.equal(resumed.sc.launches[0].stopped, false);

	/* The native body ends: its shim follows, and the shell is back. */
	signal(body.pid, 'SIGTERM', 'sleep', body.start_id);
	assert.ok(await waitGone(shim.pid, 5000), 'the shim exits with its child');
	/*
	 * Until all three have ended: the shell can be back before the last
	 * of them is gone (seen under AddressSanitizer: two of three ended at
	 * the first look).
	 */
	const after = await until(async () => {
		const r = await observe(c, id, resumed.sc.cursor);
		return r.sc.harness.reason === 'no_foreground_launch' &&
			r.sc.activity.delta && r.sc.activity.delta.ended.length >= 3 ? r : null;
	}, 10000, 'the harness gone and its three processes ended');
	assert.equal(after.sc.harness.alive, false);
	assert.equal(after.sc.pane.alive, true);
	/* sleep, the sh above it and node ended within the interval. */
	const ended = after.sc.activity.delta.ended.map((p) => p.pid);
	assert.equal(ended.length, 3, show(after.r));
	assert.ok(ended.includes(body.pid) && ended.includes(shim.pid), show(after.r));
	assert.equal(after.sc.activity.delta.cpu_delta_complete, false);
});

test('pty_observe: a child that exits between two observations', T, async (t) => {
	const { c, id } = await rigWithSession(t);
	await c.ok('pty_send', { session_id: id, text: `node shim.cjs short ${ARGV_SECRET}` });
	const first = await until(async () => {
		const r = await observe(c, id);
		return r.sc.harness.identity && r.sc.harness.shim &&
			(!linux || comm(r.sc.harness.identity.pid) === 'sleep') ? r : null;
	}, 10000, 'node with its sleep child');
	const child = first.sc.harness.identity;
	if (linux)
		assert.equal(comm(child.pid), 'sleep');
	assert.ok(await waitGone(child.pid, 10000), 'sleep 2 ends');
	const second = await observe(c, id, first.sc.cursor);
	const d = second.sc.activity.delta;
	assert.ok(d, show(second.r));
	assert.equal(d.cpu_delta_complete, false, show(second.r));
	assert.deepEqual(d.ended, [{ pid: child.pid, start_id: child.start_id }]);
	assert.ok(Number.isInteger(d.cpu_ms) && d.cpu_ms >= 0);
	/* node alone is left: now it is the body, with no shim. */
	assert.equal(second.sc.harness.shim, null, show(second.r));
	assert.equal(second.sc.harness.identity.pid, first.sc.harness.shim.pid);
	/* And a third observation over a quiet interval is complete again. */
	const third = await observe(c, id, second.sc.cursor);
	assert.equal(third.sc.activity.delta.cpu_delta_complete, true, show(third.r));
	await c.ok('pty_key', { session_id: id, key: 'C-c' });
});

test('pty_observe: a shell pipeline is two launches, never guessed to be one', T, async (t) => {
	const { c, id } = await rigWithSession(t);
	await c.ok('pty_send', { session_id: id, text: `sleep 300 | cat # ${ARGV_SECRET}` });
	/*
	 * Two launches, each settled: right after the fork a launch can still
	 * be the shell's child before its exec (identity null, by design).
	 */
	const o = await until(async () => {
		const r = await observe(c, id);
		const ls = r.sc.launches;
		return ls.length === 2 && ls.every((l) => l.identity) &&
			(!linux || ls.map((l) => comm(l.identity.pid)).sort().join() === 'cat,sleep') ? r : null;
	}, 10000, 'two settled launches');
	assert.equal(o.sc.harness.alive, true, show(o.r));
	assert.equal(o.sc.harness.reason, 'several_foreground_launches');
	assert.equal(o.sc.harness.identity, null);
	assert.ok(o.sc.launches.every((l) => l.foreground && l.shim === null && l.identity));
	const pids = o.sc.launches.map((l) => l.identity.pid);
	assert.notEqual(pids[0], pids[1]);
	if (linux)
		assert.deepEqual(pids.map(comm).sort(), ['cat', 'sleep']);
	await c.ok('pty_key', { session_id: id, key: 'C-c' });
	await until(async () => (await observe(c, id)).sc.launches.length === 0, 5000, 'the pipeline ended');
});

test('pty_observe: a pane re-created under the same id has no delta', T, async (t) => {
	const { c, id } = await rigWithSession(t, undefined, 'obs-again');
	assert.equal(id, 'obs-again');
	const a = await observe(c, id);
	await c.ok('pty_close', { session_id: id });
	let e = await c.err('pty_observe', { session_id: id, cursor: a.sc.cursor });
	assert.equal(e.text, "pty_observe: no session 'obs-again'");
	await c.open({ name: id, shell: 'bash' });
	const b = await observe(c, id, a.sc.cursor);
	assert.deepEqual(b.sc.activity, { delta: null, reason: 'pane_recreated' }, show(b.r));
	assert.notDeepEqual(b.sc.pane.identity, a.sc.pane.identity);
	const again = await observe(c, id, b.sc.cursor);
	assert.ok(again.sc.activity.delta, 'the next one has a delta');
});

test('pty_observe: background activity counts only descendants started after the threshold', T, async (t) => {
	/*
	 * The threshold is 3 s here (test-only, needs AITERM_TEST_TOOLS=1),
	 * counted from the pane's start.  The early job is started by the
	 * user's .bashrc, while the shell starts, so that it is early however
	 * slow the machine is; the late one once the kernel says the pane is
	 * 3.5 s old.  Both are measured on the kernel's clock (start times in
	 * clock ticks), as the server measures them, not on the test's.
	 */
	const rig = new Rig(t, { AITERM_TEST_TOOLS: '1', AITERM_TEST_OBSERVE_BACKGROUND_MS: '3000' });
	fs.writeFileSync(path.join(rig.dirs.home, '.bashrc'), 'timeout 60 yes > /dev/null &\n');
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash', cwd: rig.dirs.tmp })).sc.session_id;
	await c.expectExit(id, 'true');
	const e0 = await until(async () => {
		const r = await observe(c, id);
		return r.sc.launches.length === 1 ? r : null;
	}, 10000, 'the early job from .bashrc');
	if (linux) {
		const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
		const paneStart = Number(e0.sc.pane.identity.start_id);
		const early = (Number(e0.sc.launches[0].identity.start_id) - paneStart) * 1000 / hz;
		assert.ok(early < 3000, `the early job started ${early} ms after the pane, inside the threshold`);
		const age = () => Number(fs.readFileSync('/proc/uptime', 'utf8').split(' ')[0]) * 1000 - paneStart * 1000 / hz;
		while (age() < 3500)
			await delay(Math.max(10, 3500 - age()));
	} else {
		await delay(3500);
	}
	await c.expectExit(id, 'timeout 60 yes early-or-late > /dev/null &');
	/* Until the late timeout has started its yes. */
	const a = await until(async () => {
		const r = await observe(c, id);
		return r.sc.launches.length === 2 && r.sc.processes === 5 ? r : null;
	}, 10000, 'both jobs running');
	assert.ok(a.sc.launches.every((l) => !l.foreground), 'background jobs are not in the foreground');
	assert.equal(a.sc.harness.reason, 'no_foreground_launch');
	await delay(1000);
	const b = await observe(c, id, a.sc.cursor);
	const d = b.sc.activity.delta;
	assert.ok(d, show(b.r));
	assert.equal(d.background.threshold_ms, 3000);
	assert.equal(d.background.processes, 2, `the late timeout and yes: ${show(b.r)}`);
	assert.ok(d.background.cpu_ms > 0, `the late yes burns CPU: ${show(b.r)}`);
	assert.ok(d.cpu_ms > d.background.cpu_ms, `the early yes counts in the total only: ${show(b.r)}`);
	const bg = d.processes.filter((p) => p.background).map((p) => p.pid);
	if (linux) {
		/* The rule, exactly: start times from the cursor (clock ticks). */
		const hz = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
		const entries = b.sc.cursor.split(';')[5].split(',').map((e) => e.split(':'));
		const paneStart = Number(b.sc.pane.identity.start_id);
		const want = entries.filter(([pid, st]) => Number(pid) !== b.sc.pane.identity.pid &&
			(Number(st) - paneStart) * 1000 / hz >= 3000).map(([pid]) => Number(pid));
		assert.equal(d.background.processes, want.length, show(b.r));
		for (const p of d.processes)
			assert.equal(p.background, want.includes(p.pid), `pid ${p.pid}: ${show(b.r)}`);
	}
	const [early, late] = a.sc.launches.map((l) => l.identity)
		.sort((x, y) => Number(x.start_id) - Number(y.start_id)).map((i) => i.pid);
	assert.ok(bg.includes(late) && !bg.includes(early), show(b.r));
	for (const l of a.sc.launches)
		if (alive(l.identity.pid) && comm(l.identity.pid) === 'yes')
			signal(l.identity.pid, 'SIGTERM', 'yes', l.identity.start_id);
});

test('pty_observe: the background threshold is not changed without AITERM_TEST_TOOLS', T, async (t) => {
	const { c, id } = await rigWithSession(t, { AITERM_TEST_OBSERVE_BACKGROUND_MS: '0' });
	const a = await observe(c, id);
	const b = await observe(c, id, a.sc.cursor);
	assert.equal(b.sc.activity.delta.background.threshold_ms, 60000);
});

test('pty_observe: a dead pane and a lost session', T, async (t) => {
	const { rig, c, id } = await rigWithSession(t);
	const a = await observe(c, id);
	await c.ok('pty_send', { session_id: id, text: 'exit 3' });
	const dead = await until(async () => {
		const r = await observe(c, id, a.sc.cursor);
		return r.sc.pane.alive === false ? r : null;
	}, 10000, 'the pane dead');
	assert.equal(dead.sc.exists, true);
	assert.deepEqual({ state: dead.sc.screen.state, reason: dead.sc.screen.reason },
		{ state: 'exited', reason: 'pane_dead' }, show(dead.r));
	assert.equal(dead.sc.harness.alive, false);
	assert.equal(dead.sc.harness.reason, 'pane_dead');
	assert.deepEqual(dead.sc.activity, { delta: null, reason: 'no_pane' });
	await until(async () => (await observe(c, id)).sc.pane.exit_status === 3, 5000, 'exit status 3');

	/* Our private tmux server goes (by its PID): the session is lost. */
	const tmux = rig.tmuxPid();
	assert.ok(tmux, 'the rig has a tmux server');
	process.kill(tmux, 'SIGTERM');
	assert.ok(await waitGone(tmux, 5000));
	const lost = await observe(c, id);
	assert.equal(lost.sc.exists, false, show(lost.r));
	assert.equal(lost.sc.managed, true);
	assert.equal(lost.sc.pane.alive, false);
	assert.deepEqual({ state: lost.sc.screen.state, reason: lost.sc.screen.reason, digest: lost.sc.screen.digest },
		{ state: 'absent', reason: 'session_lost', digest: null });
	assert.equal(lost.sc.harness.reason, 'session_lost');
	assert.equal(lost.sc.token_hint, null);
});

test('pty_observe: token_hint is the latest figure on the screen', T, async (t) => {
	const { c, id } = await rigWithSession(t);
	let o = await observe(c, id);
	assert.equal(o.sc.token_hint, null, show(o.r));
	await c.expectExit(id, "clear; printf 'used 1,200 tokens\\nnow 12.5k tokens\\n'");
	o = await observe(c, id);
	assert.deepEqual({ value: o.sc.token_hint.value, approximate: o.sc.token_hint.approximate, source: o.sc.token_hint.source },
		{ value: 12500, approximate: true, source: 'screen_latest' }, show(o.r));
	assert.equal(o.sc.token_hint.row, 1, 'after clear the two lines are rows 0 and 1');
});
