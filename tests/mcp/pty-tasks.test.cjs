'use strict';
/*
 * Issue 34, fewer calls per task (PTY-OPEN, PTY-SEND, PTY-DONE,
 * PTY-CLOSE): whole tasks as a model does them, through the real server
 * and the official SDK client, counting the calls.
 *
 * - pty_open{command} opens the terminal and starts a program in it in
 *   one call, returning at its first prompt (ssh, python3) or at its end;
 * - a send that starts or leaves a program says so ("[ssh waits for
 *   input]", "[back at the shell]"), and a send to a program at its
 *   prompt ends at its next prompt, never at a timeout or a mere pause;
 * - pty_close ends an ssh session without an exit first.
 *
 * The ssh task (10 commands on a host with a login banner, against a
 * private sshd on 127.0.0.1) takes 12 calls: it took 15 (open, ssh, cd,
 * ten commands, exit, close).  The REPL task takes 6.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, hasLine, show } = require('./lib/pty.cjs');
const { sshdUnavailable, startSshd } = require('./lib/sshd.cjs');
const { skip } = require('./lib/skip.cjs');

const T = { timeout: 120000 };
const BANNER = [
	'************************************************************',
	'*  build-07.example.internal - authorized use only          *',
	'*  All activity is logged. Disconnect now if you are not    *',
	'*  an authorized user.                                      *',
	'************************************************************',
	'',
].join('\n');

/* Counts the calls a task makes, and what each cost in time. */
class Task {
	constructor(c) {
		this.c = c;
		this.calls = [];
	}

	async ok(name, args, ms) {
		const t0 = Date.now();
		const res = await this.c.ok(name, args, ms);
		this.calls.push({ name, ms: Date.now() - t0, timeout: args.timeout || 10 });
		return res;
	}

	/* No call waited out its timeout (the REPL wait). */
	noTimeoutRunOut() {
		for (const x of this.calls)
			assert.ok(x.ms < x.timeout * 1000, `${x.name} took ${x.ms} ms of its ${x.timeout} s: ${JSON.stringify(this.calls)}`);
	}
}

/* ssh processes whose command line names this port. */
function sshProcs(port) {
	const found = [];
	for (const d of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(d))
			continue;
		let argv;
		try {
			argv = fs.readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0');
		} catch {
			continue;
		}
		if (path.basename(argv[0]) === 'ssh' && argv.includes(String(port)))
			found.push(Number(d));
	}
	return found;
}

/* A rig with a private sshd (opts as startSshd's), or null: skipped. */
async function sshRig(t, opts) {
	const why = sshdUnavailable();
	if (why) {
		skip(t, 'no-sshd', why);
		return null;
	}
	const rig = new Rig(t);
	const sshd = await startSshd(path.join(rig.dirs.root, 'sshd'), opts);
	rig.cleanups.push(() => sshd.stop());
	return { rig, sshd };
}

test('PTY-OPEN command: a 10-command ssh session task in 12 calls, every fact kept, closed without exit', T, async (t) => {
	const s = await sshRig(t, { banner: BANNER });
	if (!s)
		return;
	const { rig, sshd } = s;
	const proj = path.join(rig.dirs.root, 'proj');
	fs.mkdirSync(proj);
	fs.writeFileSync(path.join(proj, 'VERSION'), '1.4.2\n');
	fs.writeFileSync(path.join(proj, 'app.py'), '# TODO one\nx = 1  # TODO two\n# TODO three\n');
	fs.writeFileSync(path.join(proj, 'data.csv'), 'a,b\n1,2\n3,4\n5,6\n7,8\n');
	fs.writeFileSync(path.join(proj, 'run-tests.sh'), 'echo "ok   test_load"\necho "FAIL test_parse: expected 3, got 4"\necho "ok   test_save"\nexit 2\n');
	/* The banner shows at the default LogLevel (sshd.sshCommand quiets it). */
	const ssh = sshd.sshCommand.replace(' -o LogLevel=ERROR', '');
	const c = await rig.server();
	const task = new Task(c);

	/* 1: open + ssh: one call, back at the remote prompt with the banner. */
	const o = await task.ok('pty_open', { shell: 'bash', command: ssh, timeout: 20 }, 40000);
	const id = o.sc.session_id;
	rig.sessions.add(id);
	assert.match(o.text, /^opened \S+ \(.*\)\nwatch: tmux -S /, show(o.r));
	assert.ok(o.text.includes('build-07.example.internal - authorized use only'), `the banner: ${show(o.r)}`);
	assert.match(o.text, /\[ssh waits for input(?: · [\d.]+s)?\]$/, `the session changed hands: ${show(o.r)}\nsshd:\n${sshd.log()}`);
	assert.equal(o.sc.via, 'input', show(o.r));
	assert.equal(o.sc.complete, true, show(o.r));

	/* 2-11: ten commands in the remote shell; cd and a variable persist. */
	const run = (text) => task.ok('pty_send', { session_id: id, text, wait: true, timeout: 15 }, 30000);
	let r = await run(`cd ${proj} && ls`);
	for (const f of ['VERSION', 'app.py', 'data.csv', 'run-tests.sh'])
		assert.ok(r.text.includes(f), `ls shows ${f}: ${show(r.r)}`);
	assert.equal(r.sc.via, 'sentinel', show(r.r));
	r = await run('cat VERSION');
	assert.ok(hasLine(r.text, '1.4.2'), show(r.r));
	r = await run('grep -c TODO app.py');
	assert.ok(hasLine(r.text, '3'), show(r.r));
	r = await run('sh run-tests.sh');
	assert.ok(r.text.includes('FAIL test_parse: expected 3, got 4'), `the failing test's name: ${show(r.r)}`);
	assert.equal(r.sc.exit_code, 2, show(r.r));
	assert.match(r.text, /exit 2$/, show(r.r));
	r = await run('export MODE=prod; echo "set $MODE"');
	assert.ok(hasLine(r.text, 'set prod'), show(r.r));
	r = await run('echo "$MODE in $(pwd)"');
	assert.ok(hasLine(r.text, `prod in ${proj}`), `cd and the variable persist: ${show(r.r)}`);
	r = await run('wc -l < data.csv');
	assert.ok(hasLine(r.text, '5'), show(r.r));
	r = await run('false');
	assert.equal(r.sc.exit_code, 1, show(r.r));
	r = await run('sleep 1; echo done-sleeping');
	assert.ok(hasLine(r.text, 'done-sleeping'), show(r.r));
	assert.equal(r.sc.exit_code, 0, show(r.r));
	r = await run('echo "remote [$AITERM_SESSION_ID]"');
	assert.ok(hasLine(r.text, 'remote []'), `runs on the far side: ${show(r.r)}`);

	/* 12: close ends the ssh client too, without an exit first. */
	assert.ok(sshProcs(sshd.port).length > 0, 'ssh runs before the close');
	const cl = await task.ok('pty_close', { session_id: id });
	assert.equal(cl.sc.closed, true, show(cl.r));
	assert.deepEqual(sshProcs(sshd.port), [], 'no ssh client of the session is left');
	rig.sessions.delete(id);

	assert.ok(task.calls.length <= 12, `${task.calls.length} calls: ${JSON.stringify(task.calls)}`);
	assert.deepEqual(task.calls.map((x) => x.name), ['pty_open', ...Array(10).fill('pty_send'), 'pty_close']);
	task.noTimeoutRunOut();
});

test('PTY-SEND: a send that starts ssh from the shell returns at its prompt, and one that leaves it says so', T, async (t) => {
	const s = await sshRig(t, {});
	if (!s)
		return;
	const { rig, sshd } = s;
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	/* Before issue 34 this waited its whole timeout for an end mark. */
	const t0 = Date.now();
	let r = await c.ok('pty_send', { session_id: id, text: sshd.sshCommand, wait: true, timeout: 20 }, 40000);
	assert.ok(Date.now() - t0 < 15000, `returned after ${Date.now() - t0} ms: ${show(r.r)}`);
	assert.equal(r.sc.via, 'input', show(r.r));
	assert.match(r.text, /\[ssh waits for input(?: · [\d.]+s)?\]$/, show(r.r));
	r = await c.run(id, 'echo "far [$AITERM_SESSION_ID]"');
	assert.ok(hasLine(r.text, 'far []'), show(r.r));
	r = await c.run(id, 'exit');
	assert.equal(r.sc.complete, true, show(r.r));
	assert.ok(hasLine(r.text, '[back at the shell]'), `leaving says where the session is: ${show(r.r)}`);
	r = await c.run(id, 'echo "near [$AITERM_SESSION_ID]"');
	assert.ok(hasLine(r.text, `near [${id}]`), show(r.r));
	assert.ok(!r.text.includes('[back at the shell]'), show(r.r));
});

test('PTY-OPEN command python3: a REPL task in 6 calls, each send ending at the next prompt', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const task = new Task(c);
	const o = await task.ok('pty_open', { shell: 'bash', command: 'python3 -q' });
	const id = o.sc.session_id;
	rig.sessions.add(id);
	assert.match(o.text, /\n>>>\n\[python3 waits for input(?: · [\d.]+s)?\]$/, show(o.r));
	const send = (text) => task.ok('pty_send', { session_id: id, text, wait: true });
	let r = await send('import math; r = math.sqrt(1764)');
	assert.equal(r.sc.via, 'input', show(r.r));
	r = await send('print(int(r) + 1)');
	assert.ok(hasLine(r.text, '43'), show(r.r));
	assert.match(r.text, /\[python3 waits for input(?: · [\d.]+s)?\]$/, show(r.r));
	/* A pause without output is not the end: the next prompt is. */
	const t0 = Date.now();
	r = await send('import time; time.sleep(1.5); print("slept", r)');
	assert.ok(Date.now() - t0 >= 1500, `returned after ${Date.now() - t0} ms: ${show(r.r)}`);
	assert.ok(hasLine(r.text, 'slept 42.0'), show(r.r));
	assert.equal(r.sc.via, 'input', show(r.r));
	r = await send('d = {"k": [1, 2, 3]}; print(sum(d["k"]))');
	assert.ok(hasLine(r.text, '6'), show(r.r));
	const cl = await task.ok('pty_close', { session_id: id });
	assert.equal(cl.sc.closed, true, show(cl.r));
	rig.sessions.delete(id);
	assert.deepEqual(task.calls.map((x) => x.name), ['pty_open', ...Array(4).fill('pty_send'), 'pty_close']);
	task.noTimeoutRunOut();
});

test('PTY-OPEN command node: a REPL that stays raw while it works ends at its next prompt', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const o = await c.open({ shell: 'bash', command: 'node' });
	assert.match(o.text, /\n>\n\[node waits for input(?: · [\d.]+s)?\]$/, show(o.r));
	const t0 = Date.now();
	const r = await c.run(o.sc.session_id, 'await new Promise((ok) => setTimeout(ok, 1500)); 6 * 7', { timeout: 10 });
	assert.ok(Date.now() - t0 >= 1500, `returned after ${Date.now() - t0} ms: ${show(r.r)}`);
	assert.ok(hasLine(r.text, '42'), show(r.r));
	assert.equal(r.sc.via, 'input', show(r.r));
});

test('PTY-DONE a program that reads keys with no prompt line still ends at quiet, not at its timeout', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	const prog = 'python3 -c \'import sys, time, tty; tty.setcbreak(0); print("re" "ady"); sys.stdin.read(1); print("g" "ot"); time.sleep(30)\'';
	let r = await c.ok('pty_send', { session_id: id, text: prog, until: 'ready', timeout: 10 }, 30000);
	assert.equal(r.sc.via, 'until', show(r.r));
	const t0 = Date.now();
	r = await c.ok('pty_send', { session_id: id, text: 'k', enter: false, wait: true, timeout: 10 }, 30000);
	assert.ok(Date.now() - t0 < 5000, `returned after ${Date.now() - t0} ms: ${show(r.r)}`);
	assert.ok(hasLine(r.text, 'got'), show(r.r));
	assert.equal(r.sc.via, 'nested', show(r.r));
});

test('PTY-OPEN command: a command that fails or just runs ends as a send does; the session stays', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	let o = await c.open({ shell: 'bash', command: 'ssh -F /dev/null -o BatchMode=yes -p 1 127.0.0.1' });
	assert.equal(o.sc.exit_code, 255, show(o.r));
	assert.match(o.text, /Connection refused\nexit 255$/, show(o.r));
	let r = await c.run(o.sc.session_id, 'echo still-here');
	assert.ok(hasLine(r.text, 'still-here'), show(r.r));
	/* A plain command in a folder: its output, success silent. */
	const dir = fs.realpathSync(rig.dirs.root);
	o = await c.open({ shell: 'bash', cwd: dir, command: 'pwd\necho "two\nlines" | wc -l' });
	assert.ok(o.text.endsWith(`\n${dir}\n2`), show(o.r));
	assert.equal(o.sc.via, 'sentinel', show(o.r));
	/* until and timeout, as pty_send's. */
	o = await c.open({ shell: 'bash', command: 'echo st""arted; sleep 30', until: 'started', timeout: 5 });
	assert.equal(o.sc.via, 'until', show(o.r));
	o = await c.open({ shell: 'bash', command: 'sleep 30', timeout: 1 });
	assert.equal(o.sc.via, 'timeout', show(o.r));
	assert.match(o.text, /\[still running after 1s; pty_read wait=true keeps waiting\]$/, show(o.r));
	/* The model's view: no structuredContent, the text says it all. */
	const m = await rig.server({ structured: false });
	o = await m.ok('pty_open', { shell: 'bash', command: 'python3 -q' });
	assert.equal(o.sc, undefined);
	assert.match(o.text, /^opened (\S+) .*\nwatch: .*\n>>>\n\[python3 waits for input(?: · [\d.]+s)?\]$/, show(o.r));
	rig.sessions.add(o.text.match(/^opened (\S+)/)[1]);
});

test('PTY-OPEN command: bad arguments get a specific error and open nothing', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const cases = [
		[{ until: '$ ' }, /until and timeout wait for command; give command too/],
		[{ timeout: 3 }, /until and timeout wait for command/],
		[{ command: '  \n' }, /command is empty/],
		[{ command: 7 }, /command/],
		[{ command: 'true', timeout: -1 }, /timeout/],
	];
	for (const [args, re] of cases) {
		const e = await c.err('pty_open', args);
		assert.match(e.text, re, `${JSON.stringify(args)}: ${show(e.r)}`);
	}
	const l = await c.ok('pty_list', {});
	assert.equal(l.sc.sessions.length, 0, `nothing was opened: ${show(l.r)}`);
});
