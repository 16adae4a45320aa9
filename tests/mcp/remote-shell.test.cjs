'use strict';
/*
 * REM-RELAY: the far side's login shell, whatever it is.  The login shell runs 'echo aiterm-probe-<n> %OS% $PSHOME; exec /bin/sh'
 * (cmd expands %OS%, PowerShell $PSHOME, a POSIX-family shell neither),
 * then /bin/sh reads the launch line.  Real sshd on 127.0.0.1 with a user
 * that exists only in its private mount namespace (lib/sshd.cjs), so the login shell and the
 * profile are the test's: fish (not POSIX; its login config prints noise,
 * a JSON-RPC look-alike among it), /bin/sh with a .profile that does the
 * same, and a stand-in for cmd and PowerShell (a script that expands what
 * they would in the probe and runs a program as they would): probed once
 * per host per process, then aiterm-mcp is run directly (ADR 0028).
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { hasLine, show } = require('./lib/pty.cjs');
const { remoteRig, sshProcs } = require('./lib/remote.cjs');
const { which, skip } = require('./lib/skip.cjs');

const T = { timeout: 120000 };

/* What a noisy profile prints: plain lines, a JSON-RPC answer look-alike, a marker look-alike. */
const NOISE = ['profile-noise: welcome', '{"jsonrpc":"2.0","id":0,"result":{}}', 'aiterm-ready-0-0-0', 'aiterm-probe fake'];

/* A rig whose far user has login shell shell (a function of home) and files (name -> text) in home. */
function shellRig(t, shell, files, aliases, opts = {}) {
	let home;
	return remoteRig(t, {
		...opts,
		sshd: (far) => {
			home = path.join(far, 'home');
			return { user: { name: 'aiterm-far', home, shell: typeof shell === 'function' ? shell(far) : shell } };
		},
		prepare: (far) => {
			fs.mkdirSync(home, { mode: 0o700 });
			for (const [name, text] of Object.entries(files(far))) {
				fs.mkdirSync(path.dirname(path.join(home, name)), { recursive: true });
				fs.writeFileSync(path.join(home, name), text, { mode: 0o755 });
			}
		},
		aliases,
	});
}

/* A session there (run by /bin/sh, whatever the login shell), a command, its output. */
async function works(c, name, remote = 'far') {
	const o = await c.ok('pty_open', { remote, name, shell: '/bin/sh' }, 60000);
	assert.equal(o.sc.session_id, name, show(o.r));
	const res = await c.ok('pty_send', { remote, session_id: name, text: 'echo relayed-$((40+2)); (exit 4)', wait: true, timeout: 20 });
	assert.ok(hasLine(res.text, 'relayed-42'), show(res.r));
	assert.equal(res.sc.exit_code, 4, show(res.r));
	await c.ok('pty_close', { remote, session_id: name });
}

test('REM-RELAY: a fish login shell with a noisy config works; its noise never reaches the MCP stream', T, async (t) => {
	const fish = which('fish');
	if (!fish) {
		skip(t, 'no-fish', 'fish is not installed');
		return;
	}
	const r = await shellRig(t, fish, () => ({
		/* Read by every fish, the one sshd runs for the probe too: noise there reaches ssh's stdout. */
		'.config/fish/config.fish': NOISE.map((l) => `echo '${l}'\n`).join('') +
			'if status is-login\n  touch ~/fish-login-ran\nend\n',
	}));
	if (!r)
		return;
	await works(r.c, 'fish1');
	assert.ok(fs.existsSync(path.join(r.far, 'home', 'fish-login-ran')), 'PATH came from fish as a login shell');
	/* fish is not POSIX: what sh runs, it refuses. */
	const p = require('node:child_process').spawnSync(fish, ['-c', 'for i in 1 2; do echo posix-$i; done'], { encoding: 'utf8', timeout: 10000 });
	assert.ok(!p.stdout.includes('posix-1') && /fish: /.test(p.stderr), `${p.stdout} ${p.stderr}`);
});

test('REM-RELAY: a POSIX login shell whose .profile prints noise (and a JSON-RPC look-alike) works', T, async (t) => {
	const r = await shellRig(t, '/bin/sh', () => ({
		'.profile': NOISE.map((l) => `echo '${l}'\n`).join('') + 'echo profile-noise-on-stderr >&2\n',
	}));
	if (!r)
		return;
	await works(r.c, 'sh1');
});

/*
 * Stands in for cmd.exe or PowerShell ($HOME/family says which), run by
 * sshd as "-c LINE": an echo line comes out as that shell would print it
 * (cmd expands %OS% and echoes the rest of the line, PowerShell $PSHOME
 * and each word on a line of its own, then stops at the ';'); any other
 * line runs a program as that shell would (cmd: words, "..." quoted;
 * PowerShell: "& 'program' 'arg'"), or says in that shell's words that
 * there is none.
 */
const WINDOWS_STANDIN = `#!/bin/sh
[ "$1" = -c ] || exit 2
fam=$(cat "$HOME/family")
case $2 in
echo\\ *)
	case $fam in
	cmd) printf '%s\\n' "$2" | sed -n 's/%OS%/Windows_NT/g; s/^echo //p' ;;
	pwsh) printf '%s\\n' "\${2%%;*}" | sed 's/^echo //; s|\\$PSHOME|C:/PowerShell/7|' | tr ' ' '\\n' ;;
	esac
	exit 0 ;;
esac
line=$2
[ "$fam" = pwsh ] && line=\${line#& }
eval "set -- $line"
if ! command -v "$1" >/dev/null 2>&1; then
	case $fam in
	cmd) printf "'%s' is not recognized as an internal or external command,\\r\\noperable program or batch file.\\r\\n" "$1" >&2 ;;
	pwsh) printf "%s: The term '%s' is not recognized as a name of a cmdlet, function, script file, or executable program.\\r\\n" "$1" "$1" >&2 ;;
	esac
	exit 1
fi
exec "$@"
`;

function windowsRig(t, opts = {}) {
	const fake = (far) => path.join(far, 'fake-windows-shell');
	return shellRig(t, fake, (far) => {
		fs.writeFileSync(fake(far), WINDOWS_STANDIN, { mode: 0o755 });
		return { family: 'cmd\n' };
	}, ['far-ps'], opts);
}

test('REM-RELAY: cmd and PowerShell far sides: probed once, then aiterm-mcp is run directly and works', T, async (t) => {
	const r = await windowsRig(t);
	if (!r)
		return;
	const { c, rig, far, sshd } = r;
	const logins = () => (sshd.log().match(/Accepted publickey for aiterm-far/g) || []).length;
	/* cmd: one login for the probe, one that runs aiterm-mcp; then the session works there. */
	await works(c, 'win-cmd', 'far');
	assert.equal(logins(), 2, sshd.log());
	/* Probed once per process: a new connection after a drop runs aiterm-mcp at once. */
	for (const pid of sshProcs(rig))
		process.kill(pid, 'SIGKILL');
	await new Promise((res) => setTimeout(res, 500));
	await c.ok('pty_list', { remote: 'far' }, 60000);
	assert.equal(logins(), 3, 'no second probe for a host already probed');
	/*
	 * PowerShell, another alias of the same account: the same ssh master
	 * (the ControlPath hashes host, port and user), so no new login, but
	 * a session for its probe and one for its aiterm-mcp.
	 */
	const sessions = () => (sshd.log().match(/Starting session: command for aiterm-far/g) || []).length;
	const before = sessions();
	fs.writeFileSync(path.join(far, 'home', 'family'), 'pwsh\n');
	await works(c, 'win-ps', 'far-ps');
	assert.equal(sessions() - before, 2, sshd.log());
	await c.ok('pty_list', {});
});

test('REM-RELAY: a cmd far side without aiterm-mcp is REMOTE_AITERM_MISSING in cmd\'s words; nothing hangs', T, async (t) => {
	const r = await windowsRig(t, { mcp: 'no-such-aiterm-mcp' });
	if (!r)
		return;
	const t0 = Date.now();
	const e = await r.c.err('pty_list', { remote: 'far' }, 60000);
	assert.match(e.text, /^pty_list \(remote far\): REMOTE_AITERM_MISSING: far has no aiterm-mcp to run \('no-such-aiterm-mcp' is not recognized as an internal or external command/, e.text);
	assert.ok(Date.now() - t0 < 30000, 'nothing hangs');
	await r.c.ok('pty_list', {});
});
