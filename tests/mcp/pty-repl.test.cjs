'use strict';
/*
 * PTY-SEND to a program that is not a shell (issue 34): text sent to a
 * REPL arrives byte for byte as given, its blank lines and final newline
 * included, so a block that needs them to close does close, and a send
 * with until completes when the prompt comes back, well before its
 * timeout (PTY-DONE).  One server for the file; one session per REPL,
 * started from bash.  Each REPL Debian ships that runs here: python3,
 * node, sqlite3, psql (against a private cluster on a Unix socket in a
 * temporary folder, no TCP), and python3 on the far side of ssh (a
 * private sshd on 127.0.0.1).  A missing program is a named skip
 * (no-<program>, no-sshd).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, hasLine, show } = require('./lib/pty.cjs');
const { needProgram, which, skip } = require('./lib/skip.cjs');
const { sshdUnavailable, startSshd } = require('./lib/sshd.cjs');

const T = { timeout: 60000 };
/* The wait each send may take; a block that closes takes far less. */
const WAIT_S = 10;
const FAST_MS = WAIT_S * 1000 / 2;

let rig;
let conn;

test.before(async () => {
	rig = new Rig(null);
	conn = await rig.server();
});

test.after(async () => {
	if (rig)
		await rig.cleanup();
});

/*
 * pty_send of text with until; it must complete through until, well
 * under its timeout.  Returns { r, text, sc, ms }.
 */
async function block(id, text, until, extra = {}) {
	const t0 = Date.now();
	const res = await conn.ok('pty_send', Object.assign({ session_id: id, text, until,
		timeout: WAIT_S }, extra), (WAIT_S + 20) * 1000);
	res.ms = Date.now() - t0;
	assert.equal(res.sc.complete, true, `${JSON.stringify(text)} completes: ${show(res.r)}`);
	assert.equal(res.sc.via, 'until', `${JSON.stringify(text)} completes through until: ${show(res.r)}`);
	assert.ok(res.ms < FAST_MS, `${JSON.stringify(text)} took ${res.ms} ms of its ${WAIT_S} s: ${show(res.r)}`);
	return res;
}

/* A bash session with the REPL started in it and its first prompt seen. */
async function repl(command, prompt) {
	const o = await conn.open({ shell: 'bash' });
	const id = o.sc.session_id;
	await block(id, command, prompt, { timeout: 20 });
	return id;
}

/* The REPL's end: bash's own mark completes the command that started it. */
async function leave(id, text) {
	const res = await conn.run(id, text, { timeout: WAIT_S });
	assert.equal(res.sc.complete, true, show(res.r));
	assert.equal(res.sc.via, 'sentinel', `back in bash: ${show(res.r)}`);
	await conn.ok('pty_close', { session_id: id });
	rig.sessions.delete(id);
}

test('PTY-SEND python3: a def block closes on its blank line, until ">>> " at once', T, async (t) => {
	if (!needProgram(t, 'python3'))
		return;
	const id = await repl('python3 -q', '>>> ');
	/* The blank line that closes the block is part of the text. */
	let res = await block(id, 'def f(n):\n    total = n * 6\n    return total\n\n', '>>> ');
	assert.equal(res.sc.mode, 'output', show(res.r));
	assert.doesNotMatch(res.text, /Error/, `the def is accepted: ${show(res.r)}`);
	/* The REPL's echo of what was typed is not repeated to the model. */
	for (const s of ['def f(n):', 'total = n * 6', 'return total'])
		assert.ok(!res.text.includes(s), `no echo of ${JSON.stringify(s)}: ${show(res.r)}`);
	res = await block(id, 'print("answer", f(7))', '>>> ');
	assert.ok(hasLine(res.text, 'answer 42'), `the def ran: ${show(res.r)}`);
	assert.ok(!res.text.includes('print('), `no echo of the call: ${show(res.r)}`);
	/* A block, its blank line, then a call, in one send. */
	res = await block(id, 'for i in range(3):\n    print("py", i * 11)\n\nprint("done", f(1))\n', 'done 6');
	for (const s of ['py 0', 'py 11', 'py 22', 'done 6'])
		assert.ok(hasLine(res.text, s), `${s} in the output: ${show(res.r)}`);
	/* Output between the echoed lines: the echo stays, as the REPL showed it. */
	assert.ok(res.text.includes('print("done", f(1))'), `echo kept around output: ${show(res.r)}`);
	/* A final newline is the Enter: no empty line more (one prompt back). */
	res = await block(id, 'class C:\n    x = 5\n\n', '>>> ');
	res = await block(id, 'print("x", C.x)\n', '>>> ');
	assert.ok(hasLine(res.text, 'x 5'), show(res.r));
	/* enter=false: nothing is added, the text's own newlines run it. */
	res = await block(id, 'if True:\n    print("typed", 6 * 7)\n\n', 'typed 42', { enter: false });
	await leave(id, 'exit()');
});

/*
 * A result whose until matched output before python was back at its
 * prompt, and the next sends at once: the prompt left from that call
 * came after the next send's start and its until ">>> " matched it at
 * once ("[until matched]" alone), and the send after that got this one's
 * output (seen in distcheck, and 1 run in 6 of this sequence).  A send's
 * until now matches only its own output, and a send to a REPL waits
 * (at most 500 ms) for its prompt first.
 */
test('PTY-SEND python3: sends right after an until that matched before the prompt get their own results', T, async (t) => {
	if (!needProgram(t, 'python3'))
		return;
	const id = await repl('python3 -q', '>>> ');
	await block(id, 'import time\n', '>>> ');
	for (let i = 1; i <= 8; i++) {
		let res = await block(id, `for k in range(2):\n    print("row", k)\n\nprint("done", ${i}); time.sleep(0.2)\n`, `done ${i}`);
		assert.ok(hasLine(res.text, `done ${i}`), show(res.r));
		res = await block(id, `class C${i}:\n    x = ${i * 5}\n\n`, '>>> ');
		assert.doesNotMatch(res.text, /done|row/, `nothing of the call before: ${show(res.r)}`);
		res = await block(id, `print("x", C${i}.x)\n`, '>>> ');
		assert.ok(hasLine(res.text, `x ${i * 5}`), `the send's own output: ${show(res.r)}`);
		assert.doesNotMatch(res.text, /class/, `nothing of the call before: ${show(res.r)}`);
	}
	await leave(id, 'exit()');
});

test('PTY-SEND node: a multi-line function and object literal, until "> "', T, async (t) => {
	if (!needProgram(t, 'node'))
		return;
	const id = await repl('node --no-warnings', '> ');
	let res = await block(id, 'function area(w, h) {\n\n  const a = w * h;\n  return a;\n}\n', '> ');
	assert.doesNotMatch(res.text, /Error/, `the function is accepted: ${show(res.r)}`);
	res = await block(id, 'const box = {\n  w: 6,\n\n  h: 7,\n};\n', '> ');
	res = await block(id, 'console.log("area", area(box.w, box.h))\n', 'area 42');
	assert.ok(hasLine(res.text, 'area 42'), show(res.r));
	res = await block(id, 'console.log("typed",\n  6 * 7)\n', 'typed 42', { enter: false });
	await leave(id, '.exit');
});

test('PTY-SEND sqlite3: a statement split across lines, until "sqlite> "', T, async (t) => {
	if (!needProgram(t, 'sqlite3'))
		return;
	const id = await repl('sqlite3 -batch -interactive :memory:', 'sqlite> ');
	await block(id, 'CREATE TABLE t(\n  a INTEGER,\n\n  b TEXT\n);\n', 'sqlite> ');
	await block(id, "INSERT INTO t VALUES (6, 'six'),\n  (7, 'seven');\n", 'sqlite> ');
	let res = await block(id, 'SELECT a * 7,\n  b\nFROM t\nWHERE a = 6\n;\n', 'sqlite> ');
	assert.ok(hasLine(res.text, '42|six'), show(res.r));
	/* enter=false: the final newline is the text's own, and it runs it. */
	res = await block(id, "SELECT 'typed',\n  6 * 7;\n", 'typed|42', { enter: false });
	await leave(id, '.quit');
});

/* initdb and pg_ctl: on PATH, else Debian's newest server folder. */
function pgProgram(name) {
	const p = which(name);
	if (p)
		return p;
	const base = '/usr/lib/postgresql';
	let versions = [];
	try {
		versions = fs.readdirSync(base).filter((v) => /^\d+$/.test(v)).sort((a, b) => b - a);
	} catch { /* none */ }
	for (const v of versions) {
		const q = path.join(base, v, 'bin', name);
		if (fs.existsSync(q))
			return q;
	}
	return null;
}

/*
 * A private cluster: its own folder, trust for the local user, a Unix
 * socket in that folder and no TCP.  PostgreSQL refuses to run as root:
 * then it runs as nobody, in a folder of its own that nobody owns.
 */
function startCluster(t) {
	const initdb = pgProgram('initdb');
	const pgctl = pgProgram('pg_ctl');
	if (!initdb || !pgctl) {
		needProgram(t, 'initdb');
		return null;
	}
	const root = process.getuid() === 0;
	const dir = root ? fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-pg-')) :
		fs.mkdtempSync(path.join(rig.dirs.tmp, 'pg-'));
	const data = path.join(dir, 'data');
	let run = (cmd, args) => execFileSync(cmd, args, { stdio: 'pipe', timeout: 30000 });
	if (root) {
		const uid = Number(execFileSync('id', ['-u', 'nobody']).toString());
		const gid = Number(execFileSync('id', ['-g', 'nobody']).toString());
		fs.chownSync(dir, uid, gid);
		run = (cmd, args) => execFileSync('setpriv', [`--reuid=${uid}`, `--regid=${gid}`, '--clear-groups',
			'--', cmd, ...args], { stdio: 'pipe', timeout: 30000, cwd: dir, env: { PATH: process.env.PATH, LC_ALL: 'C.UTF-8' } });
	}
	const stop = () => {
		try {
			run(pgctl, ['-D', data, '-m', 'immediate', '-w', 'stop']);
		} catch { /* not started, or gone */ }
		fs.rmSync(dir, { recursive: true, force: true });
	};
	try {
		run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-sync',
			'--no-instructions']);
		run(pgctl, ['-D', data, '-l', path.join(dir, 'log'), '-w', '-t', '20', '-o',
			`-k ${dir} -c listen_addresses= -c fsync=off`, 'start']);
	} catch (e) {
		let log = '';
		try {
			log = fs.readFileSync(path.join(dir, 'log'), 'utf8');
		} catch { /* none */ }
		stop();
		throw new Error(`the private PostgreSQL cluster did not start: ${e.message}\n${e.stderr || ''}${log}`);
	}
	return { dir, stop };
}

test('PTY-SEND psql: a multi-line statement and a \\ command, until "=# "', T, async (t) => {
	if (!needProgram(t, 'psql'))
		return;
	const cluster = startCluster(t);
	if (!cluster)
		return;
	t.after(() => cluster.stop());
	const id = await repl(`psql -X -h '${cluster.dir}' -U postgres postgres`, 'postgres=# ');
	await block(id, 'CREATE TABLE t (\n  a integer,\n\n  b text\n);\n', 'postgres=# ');
	await block(id, "INSERT INTO t\n  VALUES (6, 'six'),\n         (7, 'seven');\n", 'postgres=# ');
	let res = await block(id, '\\pset format unaligned\n', 'postgres=# ');
	res = await block(id, 'SELECT a * 7 AS n,\n       b\n  FROM t\n WHERE a = 6\n;\n', 'postgres=# ');
	assert.ok(hasLine(res.text, '42|six'), show(res.r));
	/* A dollar-quoted body keeps its blank lines. */
	res = await block(id, "SELECT length($$x\n\ny$$) AS len;\n", 'postgres=# ');
	assert.ok(hasLine(res.text, '4'), show(res.r));
	/* enter=false: the final newline is the text's own, and it runs it. */
	res = await block(id, "SELECT 'typed',\n  6 * 7;\n", 'typed|42', { enter: false });
	await leave(id, '\\q');
});

test('PTY-SEND python3 over ssh: the far side\'s REPL gets the text as given', T, async (t) => {
	const why = sshdUnavailable();
	if (why) {
		skip(t, 'no-sshd', why);
		return;
	}
	if (!needProgram(t, 'python3'))
		return;
	const sshd = await startSshd(path.join(rig.dirs.root, 'sshd-repl'));
	t.after(() => sshd.stop());
	const o = await conn.open({ shell: 'bash' });
	const id = o.sc.session_id;
	const shellPrompt = { until_regex: true, timeout: 20 };
	await block(id, sshd.sshCommand, '[$#] $', shellPrompt);
	/* A command to the remote shell: the nested route, as before. */
	let res = await block(id, 'python3 -q', '>>> ');
	assert.equal(res.sc.mode, 'output', show(res.r));
	/* At its prompt: no eval wrapper, no sentinel, the blank line kept. */
	res = await block(id, 'def f(n):\n    return n * 6\n\n', '>>> ');
	assert.doesNotMatch(res.text, /Error|133;|aiterm=/, `the def is accepted: ${show(res.r)}`);
	res = await block(id, 'print("remote", f(7))', '>>> ');
	assert.ok(hasLine(res.text, 'remote 42'), show(res.r));
	res = await block(id, 'exit()', '[$#] $', shellPrompt);
	/* The remote shell again: its commands complete by their sentinel. */
	res = await conn.run(id, 'echo back-$((40+2))', { timeout: WAIT_S });
	assert.equal(res.sc.via, 'sentinel', show(res.r));
	assert.ok(hasLine(res.text, 'back-42'), show(res.r));
	await leave(id, 'exit');
});
