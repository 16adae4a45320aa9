'use strict';
/*
 * REM-RELAY: the far side's login shell, whatever it is.  The login shell runs 'echo aiterm-probe-<n> %OS% $PSHOME; exec /bin/sh'
 * (cmd expands %OS%, PowerShell $PSHOME, a POSIX-family shell neither),
 * then /bin/sh reads the launch line.  Real sshd on 127.0.0.1 with a user
 * that exists only in its private mount namespace (lib/sshd.cjs), so the login shell and the
 * profile are the test's: fish (not POSIX; its login config prints noise,
 * a JSON-RPC look-alike among it), /bin/sh with a .profile that does the
 * same, and a stand-in for cmd and PowerShell (a script that expands what
 * they would and runs nothing): those are a clear "not supported yet"
 * naming the family, probed once per host per process.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { hasLine, show } = require('./lib/pty.cjs');
const { remoteRig } = require('./lib/remote.cjs');
const { which, skip } = require('./lib/skip.cjs');

const T = { timeout: 120000 };

/* What a noisy profile prints: plain lines, a JSON-RPC answer look-alike, a marker look-alike. */
const NOISE = ['profile-noise: welcome', '{"jsonrpc":"2.0","id":0,"result":{}}', 'aiterm-ready-0-0-0', 'aiterm-probe fake'];

/* A rig whose far user has login shell shell (a function of home) and files (name -> text) in home. */
function shellRig(t, shell, files, aliases) {
	let home;
	return remoteRig(t, {
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
async function works(c, name) {
	const o = await c.ok('pty_open', { remote: 'far', name, shell: '/bin/sh' }, 60000);
	assert.equal(o.sc.session_id, name, show(o.r));
	const res = await c.ok('pty_send', { remote: 'far', session_id: name, text: 'echo relayed-$((40+2)); (exit 4)', wait: true, timeout: 20 });
	assert.ok(hasLine(res.text, 'relayed-42'), show(res.r));
	assert.equal(res.sc.exit_code, 4, show(res.r));
	await c.ok('pty_close', { remote: 'far', session_id: name });
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

test('REM-RELAY: cmd and PowerShell far sides are a clear "not supported yet" naming the family, probed once per host', T, async (t) => {
	/* Stands in for cmd.exe or PowerShell: expands what they would in the lines it reads, runs nothing. */
	const fake = (far) => path.join(far, 'fake-windows-shell');
	const r = await shellRig(t, fake, (far) => {
		/* sshd runs it as "-c COMMAND": cmd echoes the rest of the line, PowerShell each word on a line. */
		fs.writeFileSync(fake(far), '#!/bin/sh\n[ "$1" = -c ] || exit 2\n' +
			'case $(cat "$HOME/family") in\n' +
			'cmd) printf \'%s\\n\' "$2" | sed -n \'s/%OS%/Windows_NT/g; s/^echo //p\' ;;\n' +
			'pwsh) printf \'%s\\n\' "${2%%;*}" | sed \'s/^echo //; s|\\$PSHOME|C:/PowerShell/7|\' | tr \' \' \'\\n\' ;;\n' +
			'esac\n', { mode: 0o755 });
		return { family: 'cmd\n' };
	}, ['far-ps']);
	if (!r)
		return;
	const { c, far, sshd } = r;
	const t0 = Date.now();
	const cmd = await c.err('pty_list', { remote: 'far' }, 60000);
	assert.match(cmd.text, /^pty_list \(remote far\): REMOTE_SHELL_UNSUPPORTED: far's login shell is cmd \(Windows\); only POSIX far sides are supported yet/, cmd.text);
	const logins = () => (sshd.log().match(/Accepted publickey for aiterm-far/g) || []).length;
	assert.equal(logins(), 1, sshd.log());
	/* Probed once: the next call to that host fails at once, without ssh. */
	const again = await c.err('pty_open', { remote: 'far', name: 'x' }, 60000);
	assert.match(again.text, /REMOTE_SHELL_UNSUPPORTED: far's login shell is cmd/, again.text);
	assert.equal(logins(), 1, 'no second login for a host already probed');
	fs.writeFileSync(path.join(far, 'home', 'family'), 'pwsh\n');
	const ps = await c.err('pty_list', { remote: 'far-ps' }, 60000);
	assert.match(ps.text, /REMOTE_SHELL_UNSUPPORTED: far-ps's login shell is PowerShell \(Windows\)/, ps.text);
	assert.ok(Date.now() - t0 < 30000, 'nothing hangs');
	await c.ok('pty_list', {});
});
