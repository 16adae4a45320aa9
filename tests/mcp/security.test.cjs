'use strict';
/*
 * Security (OPS-BOUNDARY, PTY-OPEN, PTY-LIST, PTY-CLOSE): modes of the
 * state root under umask 000 and the reach of the tmux socket; no shell or
 * tmux-format injection through the state root path, cwd, env names and
 * values or key names; env_keys returns allowlisted keys only; a secret
 * typed into a session is gone from the state root after pty_close and
 * never reaches stderr or diagnostics; nor is it left in the HOME (or any
 * XDG folder) of the user, in a shell history file or elsewhere.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, hasLine, show, delay, until, waitGone } = require('./lib/pty.cjs');
const { needProgram } = require('./lib/skip.cjs');

const T = { timeout: 90000 };

/* Every entry below dir (itself included) with its lstat. */
function walk(dir) {
	const out = [{ p: dir, st: fs.lstatSync(dir) }];
	for (const e of fs.readdirSync(dir)) {
		const p = path.join(dir, e);
		const st = fs.lstatSync(p);
		if (st.isDirectory())
			out.push(...walk(p));
		else
			out.push({ p, st });
	}
	return out;
}

/* Files below dir (recursively) whose bytes contain needle. */
function grepTree(dir, needle) {
	const hits = [];
	for (const { p, st } of walk(dir)) {
		if (!st.isFile())
			continue;
		if (fs.readFileSync(p).includes(needle))
			hits.push(p);
	}
	return hits;
}


test('OPS-BOUNDARY umask 000: state dirs 0700, files 0600, the tmux socket reachable by its user only', T, async (t) => {
	const old = process.umask(0o000);
	let rig, c;
	try {
		rig = new Rig(t);
		c = await rig.server();
		await c.open({ name: 'modes', shell: 'bash' });
	} finally {
		process.umask(old);
	}
	/* Every kind of state file: output.log, meta, cursor, command, last-command. */
	await c.expectExit('modes', 'echo mode-$((6*7))', 0);
	await c.ok('pty_read', { session_id: 'modes' });
	await c.ok('pty_send', { session_id: 'modes', text: 'sleep 1' });
	const entries = walk(rig.dirs.state);
	const names = entries.map(({ p }) => path.relative(rig.dirs.state, p));
	for (const f of ['sessions/modes/output.log', 'sessions/modes/meta.json', 'sessions/modes/command.json',
		'sessions/modes/last-command', 'tmux.conf', 'tmux.sock'])
		assert.ok(names.includes(f), `${f} exists: ${names.join(' ')}`);
	const bad = [];
	for (const { p, st } of entries) {
		const mode = st.mode & 0o7777;
		const rel = path.relative(rig.dirs.state, p) || '.';
		if (st.isDirectory() && mode !== 0o700)
			bad.push(`${rel} dir ${mode.toString(8)}`);
		else if (st.isFile() && mode !== 0o600)
			bad.push(`${rel} file ${mode.toString(8)}`);
		else if (st.isSocket() && (mode & 0o077) !== 0)
			bad.push(`${rel} socket ${mode.toString(8)}`);
		else if (!st.isDirectory() && !st.isFile() && !st.isSocket())
			bad.push(`${rel} unexpected type`);
		if (st.uid !== process.getuid())
			bad.push(`${rel} owned by uid ${st.uid}`);
	}
	assert.deepEqual(bad, [], `modes under umask 000: ${bad.join(', ')}`);
	t.diagnostic(`checked ${entries.length} entries of the state root under umask 000`);
});

test('OPS-BOUNDARY hostile state root, cwd and env values reach the shell byte for byte, run nothing', T, async (t) => {
	/*
	 * A state root whose path would run a command if it were ever put in a
	 * shell or tmux format string.  The canary directory has a short path:
	 * the socket path must stay under 108 bytes.
	 */
	const canary = fs.mkdtempSync('/tmp/q');
	t.after(() => fs.rmSync(canary, { recursive: true, force: true }));
	const inj = (n) => `$(touch ${canary}/${n})\`touch ${canary}/${n}b\``;
	const stateName = `s'$(touch ${canary}/1)";#{pane_pid}#(touch ${canary}/1d)`;
	const rig = new Rig(t);
	const state = path.join(rig.dirs.root, stateName);
	rig.env.AITERM_STATE_DIR = state;
	rig.sockets.add(path.join(state, 'tmux.sock'));
	const c = await rig.server();

	const cwd = path.join(rig.dirs.tmp, `cwd '${inj(2)}" ; #{session_name} #(touch ${canary}/2c) \\ %% ~`);
	fs.mkdirSync(cwd, { recursive: true });
	const values = {
		V1: `'${inj(3)}'; touch ${canary}/3c #{pane_pid} #(touch ${canary}/3d)`,
		V2: `"$HOME" \\'\\" ; \\; {} %1 ~root #{?pane_dead,a,b}`,
		V3: `line1\nline2 $(touch ${canary}/4)`,
		V4: '',
		V5: '\u65e5\u672c #{T:x} \t tab',
	};
	const o = await c.open({ name: 'hostile', shell: 'bash', cwd, env_vars: values });
	assert.match(o.sc.attach, /-S/, show(o.r));
	const out = path.join(rig.dirs.tmp, 'out');
	fs.mkdirSync(out);
	/* The shell writes what it got to files: no terminal rendering in between. */
	await c.expectExit('hostile', `pwd > ${out}/cwd; for v in V1 V2 V3 V4 V5; do printf '%s' "\${!v}" > ${out}/$v; done`, 0);
	assert.equal(fs.readFileSync(path.join(out, 'cwd'), 'utf8').replace(/\n$/, ''), fs.realpathSync(cwd), 'cwd byte for byte');
	for (const [k, v] of Object.entries(values))
		assert.equal(fs.readFileSync(path.join(out, k), 'utf8'), v, `${k} byte for byte`);

	/* The log and every state file live in the hostile root. */
	assert.ok(fs.existsSync(path.join(state, 'sessions/hostile/output.log')), 'output.log in the hostile state root');
	const r = await c.expectExit('hostile', 'echo log-$((3*3))', 0);
	assert.ok(hasLine(r.text, 'log-9'), `pipe-pane writes into the hostile root: ${show(r.r)}`);
	/* The same text typed as a command is just text (argv, not a shell string). */
	const typed = await c.run('hostile', `printf '%s\\n' '#{pane_pid} #(touch ${canary}/5)'`);
	assert.equal(typed.sc.complete, true, show(typed.r));
	assert.ok(typed.text.includes('#{pane_pid} #(touch'), `the format is not expanded: ${show(typed.r)}`);

	/* Session names and key names that carry shell or tmux syntax are refused before tmux sees them. */
	for (const name of ['a;b', '#{pane_pid}', '$(x)', 'a\'b', 'a:b', 'a.b'])
		await c.err('pty_open', { name, shell: 'bash' });
	for (const key of ['enter; kill-server', 'C-c \\; kill-server', '#{pane_pid}', '#(touch x)', 'enter\nkill-server', '$(id)'])
		await c.err('pty_key', { session_id: 'hostile', key });
	for (const name of ['A;B', 'A B', 'A=B', '$(x)', '#{x}', 'A\nB', ''])
		await c.err('pty_open', { name: 'envname', shell: 'bash', env_vars: { [name]: 'x' } });

	await delay(500);
	assert.deepEqual(fs.readdirSync(canary), [], 'no injected command ran');
	/* The tmux server survived the hostile key names. */
	const alive = await c.expectExit('hostile', 'echo still-$((1+1))', 0);
	assert.ok(hasLine(alive.text, 'still-2'), show(alive.r));
	const l = await c.ok('pty_list', {});
	assert.deepEqual(l.sc.sessions.map((s) => s.session_id), ['hostile'], show(l.r));
	assert.equal(l.sc.sessions[0].alive, true, show(l.r));
});

test('OPS-BOUNDARY a state root below a folder another user can change is refused, naming that folder', T, async (t) => {
	const rig = new Rig(t);
	const cases = [];
	/* Writable by every user, not sticky: anyone could rename the root away. */
	const shared = path.join(rig.dirs.root, 'shared');
	fs.mkdirSync(path.join(shared, 'mine'), { recursive: true });
	fs.chmodSync(shared, 0o777);
	cases.push([shared, /which is writable by every user \(mode 0777, not sticky\)/]);
	if (process.getuid() === 0) {
		/* Owned by another user (nobody), a folder of ours inside. */
		const theirs = path.join(rig.dirs.root, 'theirs');
		fs.mkdirSync(path.join(theirs, 'mine'), { recursive: true });
		fs.chownSync(theirs, 65534, 65534);
		cases.push([theirs, /which is owned by uid 65534/]);
	} else
		t.diagnostic('not root: a folder of another user is left to check_state');
	for (const [parent, re] of cases) {
		const state = path.join(parent, 'mine', 'state');
		rig.env.AITERM_STATE_DIR = state;
		const c = await rig.server();
		const e = await c.err('pty_open', { name: 'x', shell: 'bash' });
		assert.ok(e.text.includes(`the state root '${state}' is below '${parent}', `), e.text);
		assert.match(e.text, re, e.text);
		assert.match(e.text, /another user could swap the state root there/, e.text);
		assert.match(c.stderr(), /aiterm-mcp: state root: the state root .* is below/, c.stderr());
		assert.deepEqual(fs.readdirSync(path.join(parent, 'mine')), [], 'nothing was made there');
	}
});

test('OPS-BOUNDARY a state root swapped under a running server is written to no more', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await c.open({ name: 'before', shell: 'bash' });
	const moved = `${rig.dirs.state}.moved`;
	fs.renameSync(rig.dirs.state, moved);
	fs.mkdirSync(rig.dirs.state, { mode: 0o700 });
	if (process.getuid() === 0)
		fs.chownSync(rig.dirs.state, 65534, 65534);
	try {
		for (const [name, args] of [['pty_open', { name: 'after', shell: 'bash' }], ['pty_send', { session_id: 'before', text: 'true' }], ['pty_list', {}]]) {
			const e = await c.err(name, args);
			assert.match(e.text, /the state root '.*' is not the directory the server started with: it was moved or replaced; nothing is written there; restart the server/, e.text);
		}
		assert.deepEqual(fs.readdirSync(rig.dirs.state), [], 'nothing was written in the folder put in its place');
	} finally {
		fs.rmSync(rig.dirs.state, { recursive: true, force: true });
		fs.renameSync(moved, rig.dirs.state);
	}
	/* Back where it was: served again. */
	const l = await c.ok('pty_list', {});
	assert.ok(l.text.includes('before'), show(l.r));
});

test('PTY-LIST env_keys returns only allowlisted keys, never a secret value', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const secret = 'sekrit-ENV-7d1f0c';
	await c.open({ name: 'envk', shell: 'bash', env_vars: { API_TOKEN: secret, AWS_SECRET_ACCESS_KEY: secret, LANG: 'C.UTF-8', TERM: secret } });
	const asked = ['API_TOKEN', 'AWS_SECRET_ACCESS_KEY', 'PATH', 'HOME', 'SSH_AUTH_SOCK', 'TERM', 'LANG',
		'AITERM_SESSION_ID', 'SHELL', 'api_token', 'AITERM_SESSION_ID ', '*', ''];
	const l = await c.ok('pty_list', { env_keys: asked });
	const allow = new Set(['AITERM_SESSION_ID', 'TERM', 'SHELL', 'LANG', 'LC_ALL', 'LC_CTYPE', 'TZ', 'USER', 'LOGNAME',
		'COLORTERM', 'AITERM_PARENT', 'AITERM_LAUNCH_ID']);
	const e = l.sc.sessions.find((s) => s.session_id === 'envk');
	assert.ok(e && e.env, show(l.r));
	for (const k of Object.keys(e.env))
		assert.ok(allow.has(k), `env_keys returned the non-allowlisted key ${k}: ${show(l.r)}`);
	assert.equal(e.env.AITERM_SESSION_ID, 'envk', show(l.r));
	assert.ok(!JSON.stringify(l.r).includes(secret), `no secret anywhere in the result: ${show(l.r)}`);
	/* Asking for nothing but secrets gives an empty object. */
	const l2 = await c.ok('pty_list', { env_keys: ['API_TOKEN', 'PATH'] });
	assert.deepEqual(l2.sc.sessions.find((s) => s.session_id === 'envk').env, {}, show(l2.r));
});

test('PTY-CLOSE a typed secret: in the session\'s 0600 files only, gone after pty_close, never in stderr or diagnostics', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const secret = 'FAKE-SECRET-4f9a2e71c0';
	const envSecret = 'ENV-SECRET-9b3c55';
	await c.open({ name: 'sec', shell: 'bash', env_vars: { MY_PASSWORD: envSecret } });
	const pidFile = path.join(rig.dirs.tmp, 'sec.pid');
	await c.expectExit('sec', `echo $$ > ${pidFile}`, 0);
	const shellPid = Number(fs.readFileSync(pidFile, 'utf8').trim());
	/* As a command, in its output, at a hidden prompt, multi-line (the eval path) and as a key-less raw send. */
	const r1 = await c.expectExit('sec', `echo ${secret}`, 0);
	assert.ok(hasLine(r1.text, secret), show(r1.r));
	await c.ok('pty_send', { session_id: 'sec', text: "read -r -s -p 'Password: ' pw; echo; echo len=${#pw}" });
	await until(async () => {
		const s = await c.ok('pty_read', { session_id: 'sec', screen: true });
		return /Password:/.test(s.text);
	}, 10000, 'the password prompt');
	/* Typed into the prompt without Enter (no end mark is owed for it), then Enter. */
	await c.ok('pty_send', { session_id: 'sec', text: secret, enter: false });
	await c.ok('pty_key', { session_id: 'sec', key: 'enter' });
	const rr = await c.ok('pty_read', { session_id: 'sec', wait: true, timeout: 10 }, 30000);
	assert.ok(/len=22/.test(rr.text), `the hidden read got the secret: ${show(rr.r)}`);
	await c.expectExit('sec', `cat <<'EOF'\n${secret}\nEOF\necho "$MY_PASSWORD"`, 0);
	await c.expectExit('sec', `false ${secret}`, 1);
	await c.err('pty_send', { session_id: 'sec', text: `echo ${secret}`, until: '(', until_regex: true });

	/* While the session is open its output and last command sit in its 0600 files only. */
	const dir = path.join(rig.dirs.state, 'sessions/sec');
	const open = grepTree(rig.dirs.state, secret).map((p) => path.relative(rig.dirs.state, p)).sort();
	for (const p of open) {
		assert.ok(p.startsWith('sessions/sec/'), `the secret outside its session folder: ${p}`);
		assert.equal(fs.statSync(path.join(rig.dirs.state, p)).mode & 0o777, 0o600, `${p} is 0600`);
	}
	assert.ok(open.includes('sessions/sec/output.log'), `the log holds the output: ${open.join(' ')}`);
	assert.ok(fs.existsSync(dir));

	const diag = await c.ok('diagnostics', {});
	assert.ok(!JSON.stringify(diag.r).includes(secret), `diagnostics hold the secret: ${show(diag.r)}`);
	const cl = await c.ok('pty_close', { session_id: 'sec' });
	assert.equal(cl.sc.closed, true);
	assert.ok(!fs.existsSync(dir), 'pty_close removed the session folder');
	const after = grepTree(rig.dirs.state, secret).concat(grepTree(rig.dirs.state, envSecret));
	assert.deepEqual(after, [], 'no trace of the secrets in the state root after pty_close');
	/* Nor in the user's HOME, XDG folders or TMPDIR once the shell has ended (its history). */
	assert.ok(await waitGone(shellPid, 10000), `the session's shell (pid ${shellPid}) ended`);
	const home = grepTree(rig.dirs.root, secret).concat(grepTree(rig.dirs.root, envSecret));
	assert.deepEqual(home.map((p) => path.relative(rig.dirs.root, p)), [], 'no trace of the secrets anywhere after pty_close');
	const diag2 = await c.ok('diagnostics', {});
	assert.ok(!JSON.stringify(diag2.r).includes(secret), show(diag2.r));
	/* A clean shutdown flushes whatever stderr would hold. */
	await c.close();
	const stderr = c.stderr();
	for (const s of [secret, envSecret, 'Password:'])
		assert.ok(!stderr.includes(s), `stderr holds ${s}: ${stderr.slice(-2000)}`);
});

/*
 * The user's startup files turn history on as hard as they can: a history
 * file, written after every command and at exit.  Aiterm's integration
 * must keep it off (README, pty_close: no history file).
 */
const HISTORY_RC = {
	bash: ['.bashrc', 'HISTFILE=~/.bash_history\nHISTSIZE=1000\nHISTFILESIZE=1000\nshopt -s histappend\nPROMPT_COMMAND="history -a"\n'],
	zsh: ['.zshrc', 'HISTFILE=~/.zsh_history\nHISTSIZE=1000\nSAVEHIST=1000\nsetopt INC_APPEND_HISTORY\n'],
	fish: null, /* fish keeps a history file by default: $XDG_DATA_HOME/fish/fish_history */
};

for (const shell of ['bash', 'zsh', 'fish']) {
	test(`PTY-CLOSE OPS-BOUNDARY ${shell}: an exported secret is in no history file and nowhere in HOME or XDG folders after pty_close`, T, async (t) => {
		if (!needProgram(t, shell))
			return;
		const rig = new Rig(t);
		const rc = HISTORY_RC[shell];
		if (rc)
			fs.writeFileSync(path.join(rig.dirs.home, rc[0]), rc[1]);
		const c = await rig.server();
		const secret = `SECRET-${shell}-5e0c19a4d7`;
		await c.open({ name: 'hist', shell });
		assert.equal((await c.ok('pty_list', {})).sc.sessions[0].session_id, 'hist');
		const pidFile = path.join(rig.dirs.tmp, 'shell.pid');
		await c.expectExit('hist', shell === 'fish' ? `echo $fish_pid > ${pidFile}` : `echo $$ > ${pidFile}`, 0);
		const pid = Number(fs.readFileSync(pidFile, 'utf8').trim());
		assert.ok(pid > 1, `the shell's pid: ${pid}`);
		await c.expectExit('hist', shell === 'fish' ? `set -gx API_TOKEN ${secret}` : `export API_TOKEN=${secret}`, 0);
		const r = await c.expectExit('hist', 'echo "token=$API_TOKEN"', 0);
		assert.ok(hasLine(r.text, `token=${secret}`), show(r.r));
		/* Up arrow still recalls it: history is kept, in memory. */
		const h = await c.expectExit('hist', shell === 'fish' ? 'history search --max 5 API_TOKEN' : 'fc -l -5', 0);
		assert.ok(h.text.includes(`API_TOKEN`), `the shell still has the command in its history: ${show(h.r)}`);
		const cl = await c.ok('pty_close', { session_id: 'hist' });
		assert.equal(cl.sc.closed, true, show(cl.r));
		/* The shell writes its history when it ends (SIGHUP from the closed terminal): wait for that. */
		assert.ok(await waitGone(pid, 10000), `the ${shell} of the session (pid ${pid}) ended after pty_close`);
		await delay(200);
		/* The whole tree the test gave the server: HOME, XDG folders, TMPDIR and the state root. */
		const hits = grepTree(rig.dirs.root, secret).map((p) => path.relative(rig.dirs.root, p));
		assert.deepEqual(hits, [], `the secret is left in ${hits.join(', ')}`);
	});
}
