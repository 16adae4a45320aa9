'use strict';
/*
 * REM-AUTH: a secret the caller passes (remote_secret) is kept only in the
 * server's memory and handed to ssh by our askpass helper over a 0600
 * socket (SSH_ASKPASS, SSH_ASKPASS_REQUIRE=force), never in argv, an
 * environment value or a file.  Against a real sshd on 127.0.0.1: a user
 * key protected by a passphrase, and a password for a user that exists
 * only in sshd's private mount namespace (lib/sshd.cjs).  The right secret
 * works; a wrong one and none are clear REMOTE_AUTH_FAILED errors with
 * nothing hanging; then no file under the rig's folders (state root, HOME,
 * sshd's folder) nor the far side's, and no /proc/<pid>/cmdline or
 * environ of any process, holds the secret.  And the askpass socket
 * answers only the askpass our ssh ran: another process of the same user
 * that finds the socket (the test itself, connecting again and again
 * while the far side is slow to start) gets nothing and is logged, and
 * the real ssh still logs in.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { hasLine, show } = require('./lib/pty.cjs');
const { remoteRig, sshProcs } = require('./lib/remote.cjs');
const { filesHolding, procsHolding } = require('./lib/secrets.cjs');

const T = { timeout: 120000 };

function assertNowhere(r, secret) {
	assert.deepEqual(filesHolding(r.rig.dirs.root, secret), [], 'no file of the rig holds the secret');
	assert.deepEqual(filesHolding(r.far, secret), [], 'no file of the far side holds the secret');
	const { hits, seen } = procsHolding(secret);
	assert.ok(seen > 10, `read ${seen} /proc files`);
	assert.deepEqual(hits, [], 'no process has the secret in its argv or environment');
	/* The askpass socket went once ssh was in. */
	const left = fs.readdirSync(path.join(r.rig.dirs.state, 'ssh')).filter((f) => f.startsWith('ap-'));
	assert.deepEqual(left, [], 'no askpass socket is left');
}

/* A call that must fail quickly with REMOTE_AUTH_FAILED. */
async function authFails(c, args, re) {
	const t0 = Date.now();
	const e = await c.err('pty_list', args, 60000);
	assert.match(e.text, /REMOTE_AUTH_FAILED: ssh /, e.text);
	assert.match(e.text, re, e.text);
	assert.ok(Date.now() - t0 < 30000, `no hang: ${Date.now() - t0} ms`);
	return e;
}

test('REM-AUTH: a key passphrase through remote_secret: right works, wrong and none fail clearly, the secret is nowhere but memory', T, async (t) => {
	const pass = `pp-${crypto.randomBytes(12).toString('hex')}`;
	const r = await remoteRig(t, { sshd: { passphrase: pass }, aliases: ['far-wrong'] });
	if (!r)
		return;
	const { rig, c } = r;
	await authFails(c, { remote: 'far' }, /pass remote_secret for a passphrase or password/);
	await authFails(c, { remote: 'far-wrong', remote_secret: 'not-the-passphrase' }, /the remote_secret given was not accepted/);
	const bad = await c.err('pty_list', { remote_secret: pass });
	assert.match(bad.text, /remote_secret is for a remote host: give remote too/);
	const o = await c.ok('pty_open', { remote: 'far', remote_secret: pass, name: 'sec1' }, 60000);
	assert.equal(o.sc.session_id, 'sec1', show(o.r));
	const res = await c.ok('pty_send', { remote: 'far', session_id: 'sec1', text: 'echo in-by-passphrase', wait: true, timeout: 20 });
	assert.ok(hasLine(res.text, 'in-by-passphrase'), show(res.r));
	assertNowhere(r, pass);
	/* The connection lost: the next call, without the secret, connects again with the one in memory. */
	for (const pid of sshProcs(rig))
		process.kill(pid, 'SIGKILL');
	await new Promise((res) => setTimeout(res, 300));
	const again = await c.ok('pty_list', { remote: 'far' }, 60000);
	assert.ok(again.text.includes('sec1'), again.text);
	assertNowhere(r, pass);
	await c.ok('pty_close', { remote: 'far', session_id: 'sec1' });
});

test('REM-AUTH: a password through remote_secret, for a user that exists only in sshd\'s namespace', T, async (t) => {
	const pw = `pw-${crypto.randomBytes(12).toString('hex')}`;
	let home;
	const r = await remoteRig(t, {
		sshd: (far) => ({ user: { name: 'aiterm-far', home: (home = path.join(far, 'home')), shell: '/bin/sh', password: pw } }),
		prepare: () => fs.mkdirSync(home, { mode: 0o700 }),
		aliases: ['far-wrong'],
		ssh: ['PreferredAuthentications password'],
	});
	if (!r)
		return;
	const { c } = r;
	await authFails(c, { remote: 'far-wrong', remote_secret: 'wrong-password' }, /the remote_secret given was not accepted/);
	const l = await c.ok('pty_list', { remote: 'far', remote_secret: pw }, 60000);
	assert.equal(l.r.isError, undefined, show(l.r));
	assert.match(r.sshd.log(), /Accepted password for aiterm-far from 127\.0\.0\.1/, r.sshd.log());
	assertNowhere(r, pw);
});

/* Asks the socket at p for a passphrase as ssh's askpass would; resolves what came back. */
function askAsOutsider(p) {
	return new Promise((resolve) => {
		let got = '';
		const s = net.connect(p);
		s.on('connect', () => s.write("Enter passphrase for key '/k': \n"));
		s.on('data', (d) => { got += d; });
		s.on('close', () => resolve(got));
		s.on('error', () => resolve(got));
		s.setTimeout(5000, () => s.destroy());
	});
}

test('REM-AUTH: the askpass socket answers only our ssh: another process of the same user gets nothing, the login still works', T, async (t) => {
	const pass = `pp-${crypto.randomBytes(12).toString('hex')}`;
	const r = await remoteRig(t, {
		sshd: { passphrase: pass },
		/* A far side slow to start: the socket stays while ssh is in. */
		mcp: (far) => {
			const slow = path.join(far, 'slow-mcp');
			fs.writeFileSync(slow, `#!/bin/sh\nsleep 3\nexec ${JSON.stringify(path.join(far, 'aiterm-mcp'))} "$@"\n`, { mode: 0o755 });
			return slow;
		},
	});
	if (!r)
		return;
	const { rig, c } = r;
	const dir = path.join(rig.dirs.state, 'ssh');
	const answers = [];
	let done = false;
	const outsider = (async () => {
		while (!done) {
			let socks = [];
			try {
				socks = fs.readdirSync(dir).filter((f) => f.startsWith('ap-'));
			} catch { /* not made yet */ }
			for (const f of socks)
				answers.push(await askAsOutsider(path.join(dir, f)));
			await new Promise((res) => setTimeout(res, 10));
		}
	})();
	const l = await c.ok('pty_list', { remote: 'far', remote_secret: pass }, 60000);
	done = true;
	await outsider;
	assert.equal(l.r.isError, undefined, show(l.r));
	assert.ok(answers.length >= 3, `the outsider asked ${answers.length} times`);
	assert.deepEqual(answers.filter((a) => a !== ''), [], 'the outsider got no answer');
	assert.match(c.stderr(), new RegExp(`askpass socket .*: refused pid ${process.pid} uid \\d+ \\(not a process the ssh started\\); the secret was not given`), c.stderr());
	assertNowhere(r, pass);
});
