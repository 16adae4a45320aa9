'use strict';
/*
 * PTY-CLOSE ends every process of the session (issue 37): a foreground
 * that ignores SIGHUP, a nohup'd and a plain background job, a child that
 * left the pane's session with setsid, all gone after pty_close, and the
 * result names what needed SIGTERM or SIGKILL.  The same for a session
 * found lost (its tmux server killed) closed by a new server.  A process
 * that is not the session's is never signalled, even when the session's
 * record names its pid (a reused pid: another start).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { Rig, show, delay, waitGone, alive, until } = require('./lib/pty.cjs');

const T = { timeout: 90000 };

/* Numbers no other test's sleeps use, so a leftover is recognised. */
const base = 7770000 + (process.pid % 10000) * 10;

/* Every pid whose argv is exactly argv and whose environment has AITERM_STATE_DIR=state. */
function pidsOf(argv, state) {
	const want = argv.join('\0') + '\0';
	const found = [];
	for (const d of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(d))
			continue;
		try {
			if (fs.readFileSync(`/proc/${d}/cmdline`, 'latin1') !== want)
				continue;
			const env = fs.readFileSync(`/proc/${d}/environ`, 'latin1').split('\0');
			if (state === null || env.includes(`AITERM_STATE_DIR=${state}`))
				found.push(Number(d));
		} catch { /* gone or not ours */ }
	}
	return found;
}

/* The one pid of argv in this rig, once it runs (polled, 5 s). */
function onePid(argv, state) {
	return until(() => {
		const p = pidsOf(argv, state);
		return p.length === 1 ? p[0] : null;
	}, 5000, `${argv.join(' ')} running`);
}

/* True once none of pids exists (polled, at most ms). */
async function allGone(pids, ms) {
	const deadline = Date.now() + ms;
	while (pids.some(alive)) {
		if (Date.now() > deadline)
			return false;
		await delay(50);
	}
	return true;
}

/* Starts the session's processes: returns { fg, nohup, job, setsid } pids. */
async function plant(t, c, rig, id, n) {
	const state = rig.dirs.state;
	/* A failed test leaves no sleeps behind. */
	t.after(() => {
		for (let k = 1; k <= 4; k++)
			for (const pid of pidsOf(['sleep', String(n + k)], state))
				try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
	});
	await c.expectExit(id, `sleep ${n + 3} &`, 0);
	await c.expectExit(id, `nohup sleep ${n + 4} >/dev/null 2>&1 &`, 0);
	await c.expectExit(id, `setsid sleep ${n + 2} &`, 0);
	const sent = await c.ok('pty_send', { session_id: id, text: `bash -c 'trap "" HUP; exec sleep ${n + 1}'` });
	assert.equal(sent.sc.complete, null, show(sent.r));
	return {
		fg: await onePid(['sleep', String(n + 1)], state),
		setsid: await onePid(['sleep', String(n + 2)], state),
		job: await onePid(['sleep', String(n + 3)], state),
		nohup: await onePid(['sleep', String(n + 4)], state),
	};
}

/* What pty_close said was killed, by pid. */
function killedOf(sc) {
	assert.ok(Array.isArray(sc.killed), `killed is an array: ${JSON.stringify(sc)}`);
	return new Map(sc.killed.map((k) => [k.pid, k]));
}

test('PTY-CLOSE ends a SIGHUP-ignoring foreground, background jobs and a setsid child, and says what it killed', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await c.open({ name: 'tree', shell: 'bash' });
	const p = await plant(t, c, rig, 'tree', base);

	const started = Date.now();
	const cl = await c.ok('pty_close', { session_id: 'tree' });
	const took = Date.now() - started;
	assert.equal(cl.sc.closed, true, show(cl.r));
	assert.ok(await allGone(Object.values(p), 3000),
		`every process of the session is gone: ${JSON.stringify(p)} alive: ${Object.values(p).filter(alive)} ${show(cl.r)}`);
	const k = killedOf(cl.sc);
	/* The foreground ignored SIGHUP and nohup made the job ignore it: SIGTERM ended them. */
	for (const what of ['fg', 'nohup']) {
		const e = k.get(p[what]);
		assert.ok(e, `${what} (${p[what]}) is named as killed: ${show(cl.r)}`);
		assert.equal(e.command, 'sleep', show(cl.r));
		assert.equal(e.signal, 'SIGTERM', show(cl.r));
		assert.match(cl.text, new RegExp(`\\b${p[what]} sleep \\(SIGTERM\\)`), cl.text);
	}
	assert.match(cl.text, /^closed tree; ignored the hangup and had to be killed: /, cl.text);
	assert.equal(cl.sc.left, undefined, show(cl.r));
	/* The grace is bounded: SIGHUP's 500 ms, then SIGTERM ended them. */
	assert.ok(took < 5000, `pty_close took ${took} ms`);

	/* Nothing left to end: an ordinary close names nothing. */
	await c.open({ name: 'plain', shell: 'bash' });
	await c.expectExit('plain', 'echo hi', 0);
	const t0 = Date.now();
	const cl2 = await c.ok('pty_close', { session_id: 'plain' });
	assert.equal(cl2.text, 'closed plain', show(cl2.r));
	assert.deepEqual(cl2.sc.killed, [], show(cl2.r));
	assert.ok(Date.now() - t0 < 2000, `an ordinary close does not wait out the grace: ${Date.now() - t0} ms`);
});

test('PTY-CLOSE of a session found lost: a new server ends what is left of it', T, async (t) => {
	const rig = new Rig(t);
	const c1 = await rig.server();
	await c1.open({ name: 'gone', shell: 'bash' });
	const p = await plant(t, c1, rig, 'gone', base + 5);
	const meta = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', 'gone', 'meta.json'), 'utf8'));
	assert.equal(typeof meta.pane.pid, 'number', `meta.json records the pane: ${JSON.stringify(meta)}`);
	assert.equal(typeof meta.pane.start, 'string', JSON.stringify(meta));
	const tmux = rig.tmuxPid();
	process.kill(tmux, 'SIGKILL');
	assert.ok(await waitGone(tmux, 5000), 'tmux server gone');
	await c1.kill('SIGKILL');
	await delay(300);
	/* The hangup ended the shell; the foreground and the nohup'd job live on, orphans. */
	assert.ok(alive(p.fg) && alive(p.nohup) && alive(p.setsid), `left running: ${JSON.stringify(p)}`);

	const c2 = await rig.server();
	const list = await c2.ok('pty_list', {});
	assert.equal(list.sc.sessions.find((s) => s.session_id === 'gone').lost, true, show(list.r));
	const cl = await c2.ok('pty_close', { session_id: 'gone' });
	assert.equal(cl.sc.closed, true, show(cl.r));
	assert.ok(await allGone(Object.values(p), 3000),
		`every process of the lost session is gone: alive ${Object.values(p).filter(alive)} ${show(cl.r)}`);
	const k = killedOf(cl.sc);
	for (const what of ['fg', 'nohup'])
		assert.equal((k.get(p[what]) || {}).signal, 'SIGTERM', `${what} ${p[what]}: ${show(cl.r)}`);
});

/* A process of the test's own: it writes each signal it gets to a file. */
function outsider(dir, env) {
	const log = path.join(dir, 'signals.log');
	const child = spawn('bash', ['-c',
		`trap 'echo HUP >>"$0"' HUP; trap 'echo TERM >>"$0"' TERM; trap 'echo CONT >>"$0"' CONT; ` +
		'while :; do sleep 0.05; done', log], { stdio: 'ignore', detached: true, env });
	return { child, log };
}

test('PTY-CLOSE never signals a process that is not the session\'s, even with its pid recorded (a reused pid)', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await c.open({ name: 'own', shell: 'bash' });
	await c.expectExit('own', 'echo ready', 0);
	const o = outsider(rig.dirs.root, process.env);
	t.after(() => { try { process.kill(o.child.pid, 'SIGKILL'); } catch { /* gone */ } });
	await delay(200);

	/* The session is lost, and its record names the outsider's pid with another start. */
	const file = path.join(rig.dirs.state, 'sessions', 'own', 'meta.json');
	const meta = JSON.parse(fs.readFileSync(file, 'utf8'));
	const start = fs.readFileSync(`/proc/${o.child.pid}/stat`, 'utf8').split(') ')[1].split(' ')[19];
	meta.pane = { pid: o.child.pid, start: String(Number(start) - 1), start_ms: 0 };
	fs.writeFileSync(file, JSON.stringify(meta));
	const tmux = rig.tmuxPid();
	process.kill(tmux, 'SIGKILL');
	assert.ok(await waitGone(tmux, 5000), 'tmux server gone');

	const cl = await c.ok('pty_close', { session_id: 'own' });
	assert.deepEqual(cl.sc.killed, [], show(cl.r));
	await delay(700);
	assert.ok(alive(o.child.pid), 'the outsider still runs');
	let got = '';
	try { got = fs.readFileSync(o.log, 'utf8'); } catch { /* no signal, no file */ }
	assert.equal(got, '', `the outsider got no signal: ${got}`);

	/* The check is the start, not luck: with its start the same pid is the pane's, and is ended. */
	await c.open({ name: 'own', shell: 'bash' });
	await c.expectExit('own', 'echo again', 0);
	const meta2 = JSON.parse(fs.readFileSync(file, 'utf8'));
	meta2.pane = { pid: o.child.pid, start, start_ms: 0 };
	fs.writeFileSync(file, JSON.stringify(meta2));
	const tmux2 = rig.tmuxPid();
	process.kill(tmux2, 'SIGKILL');
	assert.ok(await waitGone(tmux2, 5000), 'tmux server gone');
	await c.ok('pty_close', { session_id: 'own' });
	assert.ok(await waitGone(o.child.pid, 3000), 'the recorded process with its start is ended');
	assert.match(fs.readFileSync(o.log, 'utf8'), /^HUP\n/, 'it got SIGHUP first');
});
