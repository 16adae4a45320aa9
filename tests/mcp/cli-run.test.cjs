'use strict';
/*
 * SUP-RUN: aiterm run, a supervisor for one-shot commands (ADR 0023), run
 * as the real program on real processes, each test with its own state
 * root and HOME.  Exit statuses, the run record and logs, the overall and
 * no-output timeouts, a tree that ignores TERM (KILL after the grace), a
 * command that forks a daemon grandchild (a background child, a setsid
 * child, a double-fork daemon): every one is gone when the run ends, and
 * two runs in one scope (the newer ends the older first).  Records are
 * kept as the retention says ($AITERM_RUN_KEEP, $AITERM_RUN_KEEP_DAYS,
 * --keep, --keep-days; issue 37) and aiterm run --prune removes them now;
 * a run still going is never removed.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { makeEnv, alive, waitGone, delay } = require('./lib/server.cjs');
const { runAiterm } = require('./lib/cli.cjs');

const T = { timeout: 60000 };
/* aiterm run ARGS; resolves { code, signal, stdout, stderr }. */
function run(env, args, opts = {}) {
	return runAiterm(['run', ...args], env, env.HOME, Object.assign({ ms: 20000 }, opts));
}

function setup(t) {
	const { dirs, env } = makeEnv(t);
	return { dirs, env };
}

function records(dirs) {
	const runs = path.join(dirs.state, 'runs');
	return fs.readdirSync(runs).map((id) => JSON.parse(fs.readFileSync(path.join(runs, id, 'record.json'), 'utf8')));
}

/* The one record of this test, or the one whose argv includes marker. */
function recordOf(dirs, marker) {
	const all = records(dirs).filter((r) => marker === undefined || r.argv.join(' ').includes(marker));
	assert.equal(all.length, 1, JSON.stringify(all));
	return all[0];
}

/* The record of the run marked so, once it says running (5 s at most). */
async function untilRunning(dirs, marker) {
	let rec;
	for (let i = 0; i < 200; i++) {
		await delay(25);
		try { rec = recordOf(dirs, marker); } catch { rec = null; }
		if (rec && rec.state === 'running')
			break;
	}
	assert.equal(rec && rec.state, 'running', JSON.stringify(rec));
	return rec;
}

test('SUP-RUN: the command\'s status and output, the run record and its logs', T, async (t) => {
	const { dirs, env } = setup(t);
	const r = await run(env, ['--', 'sh', '-c', 'echo out-1; echo err-1 >&2; exit 3']);
	assert.equal(r.code, 3, JSON.stringify(r));
	assert.equal(r.stdout, 'out-1\n');
	assert.equal(r.stderr, 'err-1\n');
	const rec = recordOf(dirs);
	assert.equal(rec.version, 1);
	assert.match(rec.run_id, /^run-[0-9a-f]{12}$/);
	assert.equal(rec.state, 'exited');
	assert.equal(rec.termination_reason, 'exit');
	assert.equal(rec.exit_code, 3);
	assert.equal(rec.exit_signal, null);
	assert.equal(rec.mode, 'child');
	assert.equal(rec.backend, 'generic');
	assert.equal(rec.pgid, rec.pid, 'a process group of its own');
	assert.deepEqual(rec.argv, ['sh', '-c', 'echo out-1; echo err-1 >&2; exit 3']);
	assert.ok(rec.ended_ms >= rec.started_ms && rec.duration_ms === rec.ended_ms - rec.started_ms, JSON.stringify(rec));
	assert.equal(rec.timeout_ms, 300000);
	assert.equal(rec.no_output_timeout_ms, 240000, 'the fresh watchdog: 0.8 x 300 s');
	const dir = path.join(dirs.state, 'runs', rec.run_id);
	assert.equal(fs.readFileSync(path.join(dir, 'stdout.log'), 'utf8'), 'out-1\n');
	assert.equal(fs.readFileSync(path.join(dir, 'stderr.log'), 'utf8'), 'err-1\n');
	assert.equal(fs.statSync(path.join(dir, 'record.json')).mode & 0o777, 0o600);

	const j = await run(env, ['--json', '--timeout', '100', '--resume', 'sh', '-c', 'echo json-out']);
	assert.equal(j.code, 0, JSON.stringify(j));
	const out = JSON.parse(j.stdout);
	assert.equal(out.stdout, 'json-out\n');
	assert.equal(out.no_output_timeout_ms, 60000, 'the resume watchdog: 0.3 x 100 s, at least 60 s');
	const { stdout, stderr, output_truncated: cut, ...rest } = out;
	assert.deepEqual(rest, recordOf(dirs, 'json-out'), '--json is the run record');
	assert.equal(cut, false);

	const usage = [
		[[], /missing COMMAND/], [['--timeout', 'x', 'true'], /--timeout wants seconds/],
		[['--bogus', 'true'], /unknown option '--bogus'/], [['--backend', 'nope', 'true'], /no backend 'nope'/],
		[['--scope'], /--scope needs a value/],
	];
	for (const [args, re] of usage) {
		const u = await run(env, args);
		assert.equal(u.code, 2, JSON.stringify(u));
		assert.match(u.stderr, re);
	}
	const nf = await run(env, ['no-such-command-xyz']);
	assert.equal(nf.code, 127, JSON.stringify(nf));
	assert.match(nf.stderr, /spawn-error: no-such-command-xyz: no such file or directory/);
	assert.equal(recordOf(dirs, 'no-such-command').termination_reason, 'spawn-error');
});

test('SUP-RUN: the overall timeout, the no-output timeout, output resets the watchdog, KILL after the grace', T, async (t) => {
	const { dirs, env } = setup(t);
	let r = await run(env, ['--timeout', '0.5', 'sh', '-c', 'echo overall; exec sleep 60']);
	assert.equal(r.code, 124, JSON.stringify(r));
	let rec = recordOf(dirs, 'overall');
	assert.equal(rec.termination_reason, 'overall-timeout');
	assert.equal(rec.timed_out, true);
	assert.equal(rec.exit_signal, 'SIGTERM');
	assert.ok(rec.duration_ms >= 450 && rec.duration_ms < 5000, JSON.stringify(rec));
	assert.equal(alive(rec.pid), false);

	r = await run(env, ['--timeout', '30', '--no-output-timeout', '0.5', 'sh', '-c', 'echo quiet; sleep 60']);
	assert.equal(r.code, 124, JSON.stringify(r));
	rec = recordOf(dirs, 'quiet');
	assert.equal(rec.termination_reason, 'no-output-timeout');
	assert.equal(rec.no_output_timed_out, true);
	assert.ok(rec.duration_ms < 5000, JSON.stringify(rec));

	r = await run(env, ['--timeout', '30', '--no-output-timeout', '0.6', 'sh', '-c',
		'for i in 1 2 3 4 5 6 7 8; do echo talk-$i; sleep 0.2; done']);
	assert.equal(r.code, 0, `output every 0.2 s keeps a 0.6 s watchdog quiet: ${JSON.stringify(r)}`);
	assert.match(r.stdout, /talk-8/);

	/* The whole tree ignores TERM: KILL after the grace. */
	r = await run(env, ['--timeout', '0.3', '--grace', '0.5', 'sh', '-c', 'trap "" TERM; echo stubborn; sleep 60; sleep 60']);
	assert.equal(r.code, 124, JSON.stringify(r));
	rec = recordOf(dirs, 'stubborn');
	assert.equal(rec.termination_reason, 'overall-timeout');
	assert.equal(rec.exit_signal, 'SIGKILL', JSON.stringify(rec));
	assert.ok(rec.duration_ms >= 750, `TERM at 0.3 s, KILL at 0.8 s: ${JSON.stringify(rec)}`);
});

/* A command that starts three kinds of grandchildren and writes their PIDs. */
const FORKER = `
sleep 1001 & echo $! > "$1/bg.pid"
setsid sleep 1002 & echo $! > "$1/setsid.pid"
python3 -c '
import os, sys
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        open(sys.argv[1] + "/daemon.tmp", "w").write(str(os.getpid()))
        os.rename(sys.argv[1] + "/daemon.tmp", sys.argv[1] + "/daemon.pid")
        os.close(0); os.close(1); os.close(2)
        os.execvp("sleep", ["sleep", "1003"])
    os._exit(0)
os.wait()
' "$1"
while ! test -s "$1/daemon.pid"; do sleep 0.05; done
echo forked
`;

async function grandchildren(dir) {
	return ['bg', 'setsid', 'daemon'].map((k) => ({ k, pid: Number(fs.readFileSync(path.join(dir, `${k}.pid`), 'utf8')) }));
}

test('SUP-RUN: a command that forks a daemon grandchild: no process of its tree survives', T, async (t) => {
	const { dirs, env } = setup(t);
	const script = path.join(dirs.home, 'forker.sh');
	fs.writeFileSync(script, FORKER, { mode: 0o700 });
	const cleanups = [];
	t.after(() => { for (const pid of cleanups) try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } });

	/* It exits by itself, leaving them behind. */
	const one = fs.mkdtempSync(path.join(dirs.home, 'one-'));
	let r = await run(env, ['--grace', '0.5', 'sh', script, one]);
	assert.equal(r.code, 0, JSON.stringify(r));
	let kids = await grandchildren(one);
	cleanups.push(...kids.map((k) => k.pid));
	for (const { k, pid } of kids)
		assert.ok(await waitGone(pid, 2000), `the ${k} grandchild ${pid} is gone when aiterm run returns`);
	let rec = recordOf(dirs, one);
	assert.equal(rec.termination_reason, 'exit');
	assert.equal(rec.leftovers_killed, 3, JSON.stringify(rec));

	/* It hangs and the timeout ends it, and them. */
	const two = fs.mkdtempSync(path.join(dirs.home, 'two-'));
	r = await run(env, ['--timeout', '1', '--grace', '0.5', 'sh', '-c', `sh ${script} ${two}; sleep 60`]);
	assert.equal(r.code, 124, JSON.stringify(r));
	kids = await grandchildren(two);
	cleanups.push(...kids.map((k) => k.pid));
	for (const { k, pid } of kids)
		assert.equal(alive(pid), false, `the ${k} grandchild ${pid} is gone when aiterm run returns`);
	rec = recordOf(dirs, two);
	assert.equal(rec.termination_reason, 'overall-timeout');

	/* Ctrl-C: a manual cancel, 130, the tree gone. */
	const three = fs.mkdtempSync(path.join(dirs.home, 'three-'));
	let child;
	const pending = run(env, ['sh', '-c', `sh ${script} ${three}; sleep 60`], { started: (p) => { child = p; } });
	for (let i = 0; i < 200 && !fs.existsSync(path.join(three, 'daemon.pid')); i++)
		await delay(25);
	child.kill('SIGINT');
	r = await pending;
	assert.equal(r.code, 130, JSON.stringify(r));
	kids = await grandchildren(three);
	cleanups.push(...kids.map((k) => k.pid));
	for (const { k, pid } of kids)
		assert.equal(alive(pid), false, `the ${k} grandchild ${pid} is gone after Ctrl-C`);
	assert.equal(recordOf(dirs, three).termination_reason, 'manual-cancel');
});

test('SUP-RUN: two runs in one scope: the newer ends the older first', T, async (t) => {
	const { dirs, env } = setup(t);
	let first;
	const older = run(env, ['--scope', 'cli:generic:s1', 'sh', '-c', 'echo older; exec sleep 60'], { started: (p) => { first = p; } });
	let rec = await untilRunning(dirs, 'older');
	const newer = await run(env, ['--scope', 'cli:generic:s1', 'sh', '-c', 'echo newer']);
	assert.equal(newer.code, 0, JSON.stringify(newer));
	const o = await older;
	assert.equal(o.code, 143, `the older run was ended (TERM): ${JSON.stringify(o)}`);
	rec = recordOf(dirs, 'older');
	assert.equal(rec.termination_reason, 'replaced');
	assert.equal(rec.state, 'exited');
	assert.equal(alive(rec.pid), false);
	const n = recordOf(dirs, 'newer');
	assert.ok(n.started_ms <= rec.ended_ms && rec.ended_ms <= n.ended_ms,
		`the older ended before the newer finished: ${JSON.stringify([rec, n])}`);
	assert.ok(first.pid > 0);
	/* Another scope is left alone. */
	const other = await run(env, ['--scope', 'cli:generic:s2', 'true']);
	assert.equal(other.code, 0);
});

/* The markers (keep-N) of the records left, oldest first. */
function markers(dirs) {
	return records(dirs).sort((a, b) => a.started_ms - b.started_ms).map((r) => r.argv.join(' ').match(/keep-\d+/)[0]);
}

/* Rewrites one field set of the record whose argv holds marker. */
function editRecord(dirs, marker, fields) {
	const rec = recordOf(dirs, marker);
	const file = path.join(dirs.state, 'runs', rec.run_id, 'record.json');
	fs.writeFileSync(file, JSON.stringify(Object.assign(rec, fields)));
	return rec.run_id;
}

test('SUP-RUN records: finished runs past the retention go when a run starts; --prune now; a run still going stays', T, async (t) => {
	const { dirs, env } = setup(t);
	const keep2 = Object.assign({}, env, { AITERM_RUN_KEEP: '2' });
	for (let i = 1; i <= 4; i++) {
		const r = await run(keep2, ['sh', '-c', `echo keep-${i}`]);
		assert.equal(r.code, 0, JSON.stringify(r));
	}
	/* Each run started after the older ones beyond the newest two went. */
	assert.deepEqual(markers(dirs), ['keep-2', 'keep-3', 'keep-4']);

	/* Ended 31 days ago: past the 30 days kept by default. */
	const old = editRecord(dirs, 'keep-2', { ended_ms: Date.now() - 31 * 86400000 });
	await run(env, ['sh', '-c', 'echo keep-5']);
	assert.deepEqual(markers(dirs), ['keep-3', 'keep-4', 'keep-5']);
	assert.equal(fs.existsSync(path.join(dirs.state, 'runs', old)), false, 'its folder and logs are gone');
	await run(Object.assign({}, env, { AITERM_RUN_KEEP_DAYS: '0' }), ['sh', '-c', 'echo keep-6']);
	assert.deepEqual(markers(dirs), ['keep-6'], 'AITERM_RUN_KEEP_DAYS=0 keeps no finished run');
	await run(env, ['sh', '-c', 'echo keep-7']);
	await run(env, ['sh', '-c', 'echo keep-8']);

	/* A record whose supervisor and command are gone (killed) is over too. */
	editRecord(dirs, 'keep-6', { state: 'running', ended_ms: null });
	/* A run still going. */
	const going = run(env, ['--timeout', '3', 'sh', '-c', 'echo keep-9; exec sleep 60']);
	await untilRunning(dirs, 'keep-9');
	let p = await run(env, ['--prune', '--keep', '1']);
	assert.equal(p.code, 0, JSON.stringify(p));
	assert.equal(p.stdout, 'removed 2 run records; kept 1 finished and 1 still going\n');
	assert.deepEqual(markers(dirs), ['keep-8', 'keep-9']);
	p = await run(env, ['--prune', '--keep-days', '0']);
	assert.equal(p.stdout, 'removed 1 run records; kept 0 finished and 1 still going\n');
	assert.deepEqual(markers(dirs), ['keep-9']);
	assert.equal((await going).code, 124);
	p = await run(env, ['--prune', '--keep', '0']);
	assert.equal(p.stdout, 'removed 1 run records; kept 0 finished and 0 still going\n');
	assert.deepEqual(fs.readdirSync(path.join(dirs.state, 'runs')), []);

	for (const [args, re] of [[['--prune', 'true'], /--prune takes no COMMAND \('true'\)/],
		[['--keep', 'x', 'true'], /--keep wants a whole number from 0 to 1000000, not 'x'/],
		[['--keep-days', '-1', '--prune'], /--keep-days wants days from 0 to 36500, not '-1'/]]) {
		const u = await run(env, args);
		assert.equal(u.code, 2, JSON.stringify(u));
		assert.match(u.stderr, re);
	}
});

test('SUP-RUN backends as data: a user backend (stdin prompt, jsonl, session arg), strict files', T, async (t) => {
	const { dirs, env } = setup(t);
	const conf = path.join(env.XDG_CONFIG_HOME, 'aiterm', 'backends');
	fs.mkdirSync(conf, { recursive: true });
	const script = path.join(dirs.home, 'fake-cli.sh');
	fs.writeFileSync(script, [
		'#!/bin/sh',
		'read -r prompt',
		'echo \'{"kind":"start","sid":"sess-9"}\'',
		'echo "not json"',
		'printf \'{"kind":"say","msg":{"text":"heard: %s"}}\\n\' "$prompt"',
		'echo \'{"kind":"other","msg":{"text":"ignored"}}\'',
		'printf \'{"kind":"say","msg":{"text":"args: %s"},"usage":{"n":2}}\\n\' "$*"',
		'',
	].join('\n'), { mode: 0o700 });
	fs.writeFileSync(path.join(conf, 'mine.yaml'), [
		'backend: 1', 'id: mine', `command: ${script}`, 'args: []', 'output: jsonl', 'input: stdin',
		'session_arg: --sid', 'session_mode: existing', 'session_id_fields: [sid]',
		'text_fields: [msg.text]', 'text_when: {kind: say}', 'usage_fields: [usage]', '',
	].join('\n'));
	let r = await run(env, ['--backend', 'mine', '--session-id', 's-7', '--json', '--', 'hello', 'there']);
	assert.equal(r.code, 0, JSON.stringify(r));
	let j = JSON.parse(r.stdout);
	assert.deepEqual(j.argv, [script, '--sid', 's-7'], 'the prompt went to stdin, not argv');
	assert.equal(j.result.text, 'heard: hello there\nargs: --sid s-7');
	assert.equal(j.result.session_id, 'sess-9');
	assert.deepEqual(j.result.usage, { n: 2 });
	assert.equal(j.session_id, 's-7', 'the record keeps the session it was run with');
	assert.equal(j.scope, 'cli:mine:s-7', 'the default scope of a session');
	r = await run(env, ['--backend', 'mine', 'hi']);
	assert.equal(r.code, 0, JSON.stringify(r));
	assert.equal(r.stdout, 'heard: hi\nargs: \n', 'existing: no session id given, none passed; the text printed');

	/* An override replaces the keys it gives of a built-in. */
	fs.writeFileSync(path.join(conf, 'codex.yaml'), `command: ${script}\ninput: stdin\n`);
	r = await run(env, ['--backend', 'codex', '--json', 'ping']);
	j = JSON.parse(r.stdout);
	assert.deepEqual(j.argv, [script, 'exec', '--json', '--color', 'never', '--sandbox', 'workspace-write', '--skip-git-repo-check']);

	const bad = [
		['x1.yaml', 'backend: 1\nid: x1\ncommand: a\noutput: text\nsession_mode: none\ncolour: red\n', /x1\.yaml: unknown argument 'colour'/],
		['x2.yaml', 'backend: 1\nid: x2\ncommand: a\noutput: xml\nsession_mode: none\n', /x2\.yaml: .*output.* must be one of/],
		['x3.yaml', 'backend: 1\nid: x3\n  command: [\n', /x3\.yaml:3:\d+: /],
		['x4.yaml', 'backend: 1\nid: x4\nid: x4\ncommand: a\n', /x4\.yaml:3:1: this key is given twice/],
		['x5.yaml', 'backend: 1\nid: other\ncommand: a\noutput: text\nsession_mode: none\n', /its id differs from its file name/],
	];
	for (const [file, text, re] of bad) {
		fs.writeFileSync(path.join(conf, file), text);
		r = await run(env, ['--backend', file.replace('.yaml', ''), 'x']);
		assert.equal(r.code, 2, `${file}: ${JSON.stringify(r)}`);
		assert.match(r.stderr, re, file);
	}
});

test('SUP-RUN PTY mode: a terminal of its own that is its controlling terminal, of the size asked; its tree ended', T, async (t) => {
	const { dirs, env } = setup(t);
	let r = await run(env, ['--pty', '--cols', '91', '--rows', '17', '--json', '--', 'sh', '-c',
		'test -t 0 && test -t 1 && echo is-a-tty; stty size; ps -o tty= -p $$ | grep -q "?" || echo has-ctty; echo to-err >&2; exit 4']);
	assert.equal(r.code, 4, JSON.stringify(r));
	const j = JSON.parse(r.stdout);
	assert.equal(j.mode, 'pty');
	assert.equal(j.exit_code, 4);
	assert.match(j.stdout, /^is-a-tty\r?$/m, j.stdout);
	assert.match(j.stdout, /^17 91\r?$/m, j.stdout);
	assert.match(j.stdout, /^has-ctty\r?$/m, j.stdout);
	assert.match(j.stdout, /^to-err\r?$/m, 'one stream: stderr is the terminal too');
	assert.equal(j.stderr, '');

	r = await run(env, ['--pty', 'no-such-command-xyz']);
	assert.equal(r.code, 127, JSON.stringify(r));
	assert.match(r.stderr, /spawn-error: no-such-command-xyz: No such file or directory/);

	const script = path.join(dirs.home, 'forker.sh');
	fs.writeFileSync(script, FORKER, { mode: 0o700 });
	const four = fs.mkdtempSync(path.join(dirs.home, 'four-'));
	r = await run(env, ['--pty', '--timeout', '1', '--grace', '0.5', 'sh', '-c', `sh ${script} ${four}; sleep 60`]);
	assert.equal(r.code, 124, JSON.stringify(r));
	for (const { k, pid } of await grandchildren(four)) {
		t.after(() => { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } });
		assert.equal(alive(pid), false, `the ${k} grandchild ${pid} is gone`);
	}
});
