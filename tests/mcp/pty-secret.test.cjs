'use strict';
/*
 * Issue 36 (PTY-DONE, OBS-CORE): a pane that waits for a secret.  Its
 * terminal reads lines with echo off and its foreground process is blocked
 * reading it: a pty_send or pty_read wait ends at once with via "secret"
 * and the prompt line, never running out its timeout; pty_observe says so.
 * Real programs only: bash's read -s, ssh asking for a key's passphrase
 * (a private sshd on 127.0.0.1, tests/mcp/lib/sshd.cjs).  A prompt's words
 * alone (echo "Password:") are not a secret prompt.
 */
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, show } = require('./lib/pty.cjs');
const { sshdUnavailable, startSshd } = require('./lib/sshd.cjs');
const { skip } = require('./lib/skip.cjs');

const T = { timeout: 90000 };

/* The wait ended on the secret prompt, long before its timeout. */
function assertSecret(res, prompt, started, timeout) {
	assert.equal(res.sc.via, 'secret', show(res.r));
	assert.equal(res.sc.complete, true, show(res.r));
	assert.match(res.sc.secret.prompt, prompt, show(res.r));
	assert.match(res.text, /\[waiting for a secret: /, show(res.r));
	assert.ok(Date.now() - started < timeout * 1000 / 2,
		`ended at once, not at its ${timeout}s timeout: ${Date.now() - started} ms`);
}

test('PTY-DONE read -s: the send ends at once at the secret prompt; pty_read and pty_observe say so; words alone do not', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;

	/* The words of a prompt with echo on: an ordinary command's end. */
	let res = await c.expectExit(id, 'echo "Password:"', 0);
	assert.notEqual(res.sc.via, 'secret', show(res.r));

	let started = Date.now();
	res = await c.run(id, 'read -r -s -p "Vault key: " v; echo "got ${#v} chars"', { timeout: 20 });
	assertSecret(res, /^Vault key:$/, started, 20);
	assert.equal(res.sc.secret.program, 'bash', show(res.r));

	/* A read that waits ends there too, at once. */
	started = Date.now();
	res = await c.ok('pty_read', { session_id: id, wait: true, timeout: 20 }, 40000);
	assertSecret(res, /^Vault key:$/, started, 20);

	res = await c.ok('pty_observe', { session_id: id });
	assert.match(res.text, /waiting for a secret: Vault key:/, show(res.r));

	/* Typed (here by the test, standing in for the person): it goes on. */
	await c.ok('pty_send', { session_id: id, text: 'abc123' });
	res = await c.ok('pty_read', { session_id: id, wait: true, until: 'got 6 chars', timeout: 10 }, 30000);
	assert.match(res.text, /got 6 chars/, show(res.r));
});

test('PTY-DONE ssh with a passphrase-protected key: the wait ends at once at the passphrase prompt', T, async (t) => {
	const why = sshdUnavailable();
	if (why)
		return skip(t, 'no-sshd', why);
	const rig = new Rig(t);
	const sshd = await startSshd(path.join(rig.dirs.root, 'sshd'), { passphrase: 'pp-secret-36' });
	rig.cleanups.push(() => sshd.stop());
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	const cmd = sshd.sshCommand.replace('-o BatchMode=yes ', '') + ' echo far-$((6*7))';
	const started = Date.now();
	const res = await c.run(id, cmd, { timeout: 20 });
	assertSecret(res, /^Enter passphrase for key '.*id_ed25519':$/, started, 20);
	assert.equal(res.sc.secret.program, 'ssh', show(res.r));
});
