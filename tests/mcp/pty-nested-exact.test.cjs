'use strict';
/*
 * PTY-DONE in a nested shell is exact and deterministic (issue 34): the
 * same ten commands run again and again in an ssh session (and in a
 * `bash` started by hand inside our bash) give the same result every
 * time, byte for byte: the text and structuredContent, less what only
 * says when or where in the log (duration, cursor, line; the log line
 * numbers a marker names are taken relative to the result's own line).
 * No result holds the nested shell's prompt or any sentinel text, and
 * none ends before its command's last byte.
 *
 * The remote shell is a real one behind a private sshd on 127.0.0.1
 * (lib/sshd.cjs); it has no Aiterm integration, so the end of each
 * command is found by the sentinel typed with it.  Skipped when sshd is
 * absent.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { Rig, show } = require('./lib/pty.cjs');
const { sshRig } = require('./lib/sshd.cjs');
const { skip, which } = require('./lib/skip.cjs');

const T = { timeout: 110000 };

/* A folder with a Makefile whose build fails, and a git work tree. */
function makeWork(dir) {
	fs.mkdirSync(path.join(dir, 'repo'), { recursive: true });
	const tab = '\t';
	fs.writeFileSync(path.join(dir, 'Makefile'), [
		'all: a.o b.o c.o',
		`${tab}@echo "cc -o app a.o b.o c.o"`,
		'a.o b.o:',
		`${tab}@echo "cc -Wall -O2 -c src/$(@:.o=.c) -o $@"`,
		'c.o:',
		`${tab}@echo "cc -Wall -O2 -c src/c.c -o c.o"`,
		`${tab}@echo "src/c.c: In function 'main':" >&2`,
		`${tab}@echo "src/c.c:12:5: error: expected ';' before '}' token" >&2`,
		`${tab}@exit 1`,
		'.PHONY: all a.o b.o c.o',
		'',
	].join('\n'));
	const repo = path.join(dir, 'repo');
	const git = (...a) => execFileSync('git', ['-c', 'user.name=T', '-c', 'user.email=t@t.invalid',
		'-c', 'init.defaultBranch=main', ...a], { cwd: repo, stdio: 'ignore' });
	git('init', '-q');
	for (const f of ['one.c', 'two.c', 'three.c'])
		fs.writeFileSync(path.join(repo, f), `int ${f.replace('.c', '')};\n`);
	git('add', '.');
	git('commit', '-q', '-m', 'first');
	fs.appendFileSync(path.join(repo, 'one.c'), 'int changed;\n');
	fs.unlinkSync(path.join(repo, 'three.c'));
	fs.writeFileSync(path.join(repo, 'new.c'), 'int fresh;\n');
	git('add', 'new.c');
	fs.writeFileSync(path.join(repo, 'untracked.txt'), 'x\n');
}

/*
 * The ten commands: output-heavy, failing with a code, cd + pwd, no
 * trailing newline, slow in bursts, lines wider than the pane, a build,
 * git status, tabs and UTF-8, a short one.
 */
function commands(dir) {
	return [
		`cd '${dir}' && pwd`,
		'seq 1 3000',
		"ls /nonexistent-aiterm-34; sh -c 'echo failing >&2; exit 7'",
		"printf 'no-newline-%s' end",
		'for i in 1 2 3; do echo burst-$i; seq $i 4; sleep 0.15; done',
		"printf 'alpha-%0250d-end\\nbeta %s\\n%s\\n' 0 \"$(seq -s ' ' 1 90)\" \"$(seq -s , 1000 1070)\"",
		'make',
		'cd repo && git -c color.status=false status; cd ..',
		"printf 'tab\\there\\nutf8 \\303\\251 \\342\\234\\223\\n'",
		'echo done-$((6*7))',
	];
}

/* What must be the same in every run: all but when and where. */
function comparable(res) {
	const base = res.sc.line;
	const rel = (n) => n - base;
	const text = res.text
		.replace(/line_range=\[(\d+),(\d+)\]/g, (_, a, b) => `line_range=[${rel(Number(a))},${rel(Number(b))}]`)
		.replace(/\(lines (\d+)-(\d+)\)/g, (_, a, b) => `(lines ${rel(Number(a))}-${rel(Number(b))})`)
		.replace(/\(line (\d+)\)/g, (_, a) => `(line ${rel(Number(a))})`);
	const sc = Object.assign({}, res.sc);
	delete sc.cursor;
	delete sc.line;
	delete sc.duration_ms;
	/*
	 * The log bytes the read passed over: they hold the nested prompt
	 * and the echo of the typed line, which the remote readline redraws
	 * differently as the typed pieces arrive; none of it is the result.
	 */
	delete sc.bytes;
	if (Array.isArray(sc.omitted))
		sc.omitted = sc.omitted.map(rel);
	return JSON.stringify({ text, sc });
}

/* No sentinel, mark or escape; no line of the nested prompt. */
function assertClean(res, promptRe, what) {
	for (const s of ['133;', 'aiterm=', '\x1b', "printf '\\033", '$__aiterm'])
		assert.ok(!res.text.includes(s), `${what}: no ${JSON.stringify(s)} in the text: ${show(res.r)}`);
	for (const line of res.text.split('\n'))
		assert.ok(!promptRe.test(line), `${what}: no prompt line (${JSON.stringify(line)}): ${show(res.r)}`);
}

/*
 * Runs cmds rounds times in session id and fails unless every command
 * gave the same result each time; the message counts the variants of
 * each command that varied and shows its first two.
 */
async function sameEveryTime(c, id, cmds, rounds, promptRe) {
	const seen = cmds.map(() => new Map());
	for (let round = 0; round < rounds; round++) {
		for (const [i, cmd] of cmds.entries()) {
			const res = await c.run(id, cmd, { timeout: 20 });
			assert.equal(res.sc.complete, true, `${cmd}: ${show(res.r)}`);
			assert.equal(res.sc.via, 'sentinel', `${cmd}: ${show(res.r)}`);
			assertClean(res, promptRe, `round ${round} "${cmd}"`);
			const got = comparable(res);
			seen[i].set(got, (seen[i].get(got) || 0) + 1);
		}
	}
	const varied = cmds.map((cmd, i) => [cmd, [...seen[i].entries()]]).filter(([, v]) => v.length > 1);
	assert.deepEqual(varied.map(([cmd, v]) => `${cmd}: ${v.length} variants, text lengths ` +
		v.map(([s, n]) => `${JSON.parse(s).text.length} (x${n})`).join(', ') +
		`\n  ${v[0][0].slice(0, 1500)}\n  ${v[1][0].slice(0, 1500)}`), [],
	'every command gives one result');
	return seen.map((m) => JSON.parse([...m.keys()][0]));
}

/* What the first round must show, whatever the rounds agree on. */
function assertContent(results, dir) {
	const [cd, seq, fail, nonl, burst, wide, make, git, utf8, done] = results;
	assert.equal(cd.text, dir, JSON.stringify(cd));
	assert.match(seq.text, /^1\n.*2998 similar lines/, JSON.stringify(seq).slice(0, 400));
	assert.match(seq.text, /\n3000$/, JSON.stringify(seq).slice(-400));
	assert.equal(fail.sc.exit_code, 7, JSON.stringify(fail));
	assert.match(fail.text, /failing/, JSON.stringify(fail));
	assert.match(fail.text, /exit 7$/, JSON.stringify(fail));
	assert.equal(nonl.text, 'no-newline-end', JSON.stringify(nonl));
	assert.equal(burst.text.split('\n').filter((l) => /^burst-\d$/.test(l)).length, 3, JSON.stringify(burst));
	assert.match(burst.text, /burst-3\n3\n4$/, JSON.stringify(burst));
	const seqLine = (a, b, sep) => Array.from({ length: b - a + 1 }, (_, i) => a + i).join(sep);
	assert.equal(wide.text, `alpha-${'0'.repeat(250)}-end\nbeta ${seqLine(1, 90, ' ')}\n${seqLine(1000, 1070, ',')}`,
		`lines wider than the pane, whole: ${JSON.stringify(wide)}`);
	assert.equal(make.sc.exit_code, 2, JSON.stringify(make));
	assert.match(make.text, /src\/c\.c:12:5: error/, JSON.stringify(make));
	assert.match(git.text, /new\.c/, JSON.stringify(git));
	assert.match(git.text, /untracked\.txt/, JSON.stringify(git));
	assert.equal(utf8.text, 'tab\there\nutf8 \u00e9 \u2713', JSON.stringify(utf8));
	assert.equal(done.text, 'done-42', JSON.stringify(done));
}

test('PTY-DONE issue 34: ten commands in ssh, 20 times, the same result byte for byte', T, async (t) => {
	const s = await sshRig(t, 'nested-exact');
	if (!s)
		return;
	const { sshd, c, id } = s;
	const work = path.join(s.rig.dirs.root, 'work');
	makeWork(work);
	let res = await c.ok('pty_send', {
		session_id: id, text: sshd.sshCommand, until: '[$#] $', until_regex: true, timeout: 20,
	}, 40000);
	assert.equal(res.sc.complete, true, `the remote prompt: ${show(res.r)}\nsshd:\n${sshd.log()}`);
	/* Nothing of this test in the remote user's history file. */
	res = await c.run(id, 'unset HISTFILE', { timeout: 20 });
	assert.equal(res.sc.via, 'sentinel', show(res.r));
	/* The remote prompt names the host (Debian's PS1) or ends in $ or #. */
	const promptRe = new RegExp(`${os.hostname().split('.')[0]}:|[$#] ?$`);
	const started = Date.now();
	const results = await sameEveryTime(c, id, commands(work), 20, promptRe);
	t.diagnostic(`200 commands in ssh in ${Date.now() - started} ms`);
	assertContent(results, work);

	/*
	 * A command not waited for, and the next typed while it sleeps: the
	 * remote tty echoes that line amid the first one's output.  The
	 * waited result keeps the first one's output and ends with its own.
	 */
	await c.ok('pty_send', { session_id: id, text: 'sleep 0.5; echo first-$((1+1))' });
	res = await c.run(id, 'echo second-$((1+2))', { timeout: 20 });
	assert.equal(res.sc.via, 'sentinel', show(res.r));
	assert.equal(res.sc.exit_code, 0, show(res.r));
	const lines = res.text.split('\n');
	assert.ok(lines.includes('first-2'), `the earlier command's output is kept: ${show(res.r)}`);
	assert.equal(lines[lines.length - 1], 'second-3', `ours comes last: ${show(res.r)}`);
	assertClean(res, promptRe, 'typed ahead');

	/*
	 * Between commands the prompt is what there is: a plain read shows
	 * it (nothing held back is lost), and the next result still has none.
	 */
	let read;
	for (let i = 0; i < 50; i++) {
		read = await c.ok('pty_read', { session_id: id });
		if (/[$#]$/.test(read.text))
			break;
		await new Promise((r) => setTimeout(r, 100));
	}
	assert.ok(promptRe.test(read.text.split('\n').pop()), `a plain read shows the prompt: ${show(read.r)}`);
	res = await c.run(id, 'echo after-read', { timeout: 20 });
	assert.equal(res.text, 'after-read', show(res.r));
});

/*
 * A nested shell started by hand in our bash (enter, whose prompt
 * matches until): the ten commands rounds times in it, in work (made by
 * makeWork), then back out.
 */
async function inLocalNested(t, { name, enter, until, promptRe, work, rounds, user }) {
	const rig = new Rig(t);
	const c = await rig.server();
	const o = await c.open({ name, shell: 'bash' });
	const id = o.sc.session_id;
	let res = await c.ok('pty_send', { session_id: id, text: enter, until, until_regex: true, timeout: 20 });
	assert.equal(res.sc.complete, true, show(res.r));
	res = await c.run(id, 'unset HISTFILE', { timeout: 20 });
	assert.equal(res.sc.via, 'sentinel', `a nested shell: ${show(res.r)}`);
	if (user) {
		res = await c.run(id, 'id -un', { timeout: 20 });
		assert.equal(res.text, user, `runs as ${user}: ${show(res.r)}`);
	}
	const results = await sameEveryTime(c, id, commands(work), rounds, promptRe);
	assertContent(results, work);
	/* Back in our shell, whose own marks end commands again. */
	res = await c.run(id, 'exit', { timeout: 20 });
	assert.equal(res.sc.complete, true, show(res.r));
	res = await c.expectExit(id, 'echo local-$((1+2))', 0);
	assert.equal(res.text, 'local-3', show(res.r));
}

test('PTY-DONE issue 34: ten commands in bash started in bash, 5 times, the same result', T, async (t) => {
	if (!which('bash')) {
		skip(t, 'no-bash', 'bash is not installed');
		return;
	}
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-nested-'));
	t.after(() => fs.rmSync(work, { recursive: true, force: true }));
	makeWork(work);
	/* A bash of the user's own, without our integration, and a prompt of its own. */
	await inLocalNested(t, {
		name: 'bash-in-bash', enter: "env -u PROMPT_COMMAND PS1='inner\\$ ' bash --norc --noprofile",
		until: 'inner[$#] $', promptRe: /inner[$#]|[$#] ?$/, work, rounds: 5,
	});
});

test('PTY-DONE issue 34: ten commands after su to another user, 3 times, the same result', T, async (t) => {
	if (!process.getuid || process.getuid() !== 0) {
		skip(t, 'not-root', 'su to another user without a password needs root');
		return;
	}
	if (!which('su') || !which('bash')) {
		skip(t, 'no-su', 'su or bash is not installed');
		return;
	}
	let nobody;
	try {
		nobody = execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }).trim();
	} catch {
		skip(t, 'no-su', 'there is no user nobody to su to');
		return;
	}
	/* A folder that user owns (the rig's is ours alone). */
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-nested-'));
	t.after(() => fs.rmSync(work, { recursive: true, force: true }));
	fs.chmodSync(work, 0o755);
	makeWork(work);
	execFileSync('chown', ['-R', `${nobody}`, work]);
	await inLocalNested(t, {
		name: 'su-nobody', enter: 'su -s /bin/bash - nobody',
		until: '[$#] $', promptRe: /nobody@|[$#] ?$/, work, rounds: 3, user: 'nobody',
	});
});
