'use strict';
/*
 * PTY-DONE through a nested shell: ssh with key auth and BatchMode to a
 * real sshd on 127.0.0.1.  The remote shell has no Aiterm integration, so
 * completion comes from a sentinel appended in its dialect; the sentinel
 * never fires on its own echo and never shows in what the AI reads.
 * Skipped when /usr/sbin/sshd (or ssh, ssh-keygen) is absent.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { hasLine, countLine, show } = require('./lib/pty.cjs');
const { sshRig } = require('./lib/sshd.cjs');

const T = { timeout: 90000 };

/* No mark, sentinel or escape may reach the AI. */
function assertClean(res) {
	assert.ok(!res.text.includes('133;D'), `no "133;D" in the text: ${show(res.r)}`);
	assert.ok(!res.text.includes('aiterm='), `no "aiterm=" in the text: ${show(res.r)}`);
	assert.ok(!res.text.includes('\x1b'), `no escape sequences in the text: ${show(res.r)}`);
}

test('PTY-DONE ssh to a real sshd: nested completion via sentinel, exit codes, no sentinel text', T, async (t) => {
	const s = await sshRig(t, 'nested');
	if (!s)
		return;
	const { sshd, c, id } = s;
	await c.expectExit(id, 'true', 0);

	let res = await c.ok('pty_send', {
		session_id: id, text: sshd.sshCommand, until: '[$#] $', until_regex: true, timeout: 20,
	}, 40000);
	assert.equal(res.sc.complete, true, `the remote prompt: ${show(res.r)}\nsshd:\n${sshd.log()}`);
	assert.equal(res.sc.via, 'until', show(res.r));
	assertClean(res);

	/* A command in the remote shell: completion from the appended sentinel. */
	res = await c.run(id, 'echo remote-$((40+2))', { timeout: 15 });
	assert.equal(res.sc.complete, true, show(res.r));
	assert.equal(res.sc.via, 'sentinel', show(res.r));
	assert.equal(res.sc.exit_code, 0, show(res.r));
	assert.equal(countLine(res.text, 'remote-42'), 1, show(res.r));
	assertClean(res);
	/* Success is silent (ADR 0009): output and no status line. */
	assert.doesNotMatch(res.text, /\nexit \d/, 'no status line after a success');

	/* The remote shell is really another one: our session id is not there. */
	res = await c.run(id, 'echo "[$AITERM_SESSION_ID]"', { timeout: 15 });
	assert.equal(res.sc.complete, true, show(res.r));
	assert.ok(hasLine(res.text, '[]'), `runs remotely: ${show(res.r)}`);
	assertClean(res);

	res = await c.run(id, 'false', { timeout: 15 });
	assert.equal(res.sc.complete, true, show(res.r));
	assert.equal(res.sc.via, 'sentinel', show(res.r));
	assert.equal(res.sc.exit_code, 1, `false through ssh: ${show(res.r)}`);
	assertClean(res);

	res = await c.run(id, "sh -c 'exit 3'", { timeout: 15 });
	assert.equal(res.sc.exit_code, 3, show(res.r));
	assertClean(res);

	/* sleep in the remote shell: not complete before it ends. */
	const started = Date.now();
	res = await c.run(id, 'sleep 1.5; echo slept', { timeout: 15 });
	assert.ok(Date.now() - started >= 1500, `returned after ${Date.now() - started} ms`);
	assert.equal(res.sc.complete, true, show(res.r));
	assert.ok(hasLine(res.text, 'slept'), show(res.r));
	assertClean(res);

	/*
	 * Command lines that the remote readline wraps at the pane's width
	 * (120 columns) when it echoes them: one whose wrap falls inside the
	 * appended sentinel (60 characters + a prompt of up to ~55 + the
	 * sentinel), one wider than the pane by itself.  Neither the sentinel
	 * nor a garbled echo may reach the AI.
	 */
	const mid = `echo mid-${'m'.repeat(42)}-$((6*7))`;
	assert.equal(mid.length, 60);
	res = await c.run(id, mid, { timeout: 15 });
	assert.equal(res.sc.complete, true, show(res.r));
	assert.equal(res.sc.exit_code, 0, show(res.r));
	assert.equal(countLine(res.text, `mid-${'m'.repeat(42)}-42`), 1, show(res.r));
	assertClean(res);
	const wide = `echo wide-${'w'.repeat(120)}-$((6*7))`;
	res = await c.run(id, wide, { timeout: 15 });
	assert.equal(res.sc.complete, true, show(res.r));
	assert.equal(res.sc.exit_code, 0, show(res.r));
	assert.equal(countLine(res.text, `wide-${'w'.repeat(120)}-42`), 1, show(res.r));
	assertClean(res);
	for (const l of res.text.split('\n').filter((x) => x.includes('$((6*7))')))
		assert.ok(l.includes(wide), `the echoed command line is shown whole or not at all: ${JSON.stringify(l)}`);

	/* Leave: back in our shell, whose own marks complete commands again. */
	res = await c.run(id, 'exit', { timeout: 15 });
	assert.equal(res.sc.complete, true, show(res.r));
	assertClean(res);
	res = await c.expectExit(id, 'echo local-$((1+2))', 0);
	assert.equal(res.sc.via, 'sentinel', show(res.r));
	assert.ok(hasLine(res.text, 'local-3'), show(res.r));
	assertClean(res);

	/* Nothing of the sentinels in the whole log as the AI reads it. */
	for (const page of (await c.readLog(id)).results)
		assertClean(page);
	const cl = await c.ok('pty_close', { session_id: id });
	assert.equal(cl.sc.closed, true);
});
