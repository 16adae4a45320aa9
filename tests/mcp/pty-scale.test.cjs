'use strict';
/*
 * PTY-OPEN / PTY-SEND at scale: 50 sessions at once, and two MCP servers
 * sending to one session at once (the send lock decides, nothing
 * interleaves).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, hasLine, countLine, linesOf, show, delay } = require('./lib/pty.cjs');

const N = 50;

test(`PTY-OPEN PTY-SEND ${N} sessions at once: open, echo with wait in each, close`, { timeout: 120000 }, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const ids = Array.from({ length: N }, (_, i) => `s${i}`);
	let started = Date.now();
	const opened = await Promise.all(ids.map((name) => c.open({ name, shell: 'bash' }, 60000)));
	t.diagnostic(`${N} pty_open at once: ${Date.now() - started} ms`);
	assert.deepEqual(opened.map((o) => o.sc.session_id), ids);

	const list = await c.ok('pty_list', {});
	for (const id of ids) {
		const e = list.sc.sessions.find((s) => s.session_id === id);
		assert.ok(e && e.alive === true, `${id} listed alive: ${show(list.r)}`);
	}

	started = Date.now();
	const results = await Promise.all(ids.map((id, i) =>
		c.run(id, `echo marker-$((${i}+1000))`, { timeout: 60 })));
	t.diagnostic(`${N} echo round trips at once: ${Date.now() - started} ms`);
	results.forEach((res, i) => {
		assert.equal(res.sc.session_id, ids[i], show(res.r));
		assert.equal(res.sc.complete, true, `${ids[i]}: ${show(res.r)}`);
		assert.equal(res.sc.exit_code, 0, `${ids[i]}: ${show(res.r)}`);
		assert.equal(countLine(res.text, `marker-${i + 1000}`), 1, `${ids[i]} has its own marker: ${show(res.r)}`);
		const others = linesOf(res.text).filter((l) => /^marker-\d+$/.test(l) && l !== `marker-${i + 1000}`);
		assert.deepEqual(others, [], `${ids[i]} has no other session's output`);
	});

	started = Date.now();
	const closed = await Promise.all(ids.map((id) => c.ok('pty_close', { session_id: id })));
	t.diagnostic(`${N} pty_close at once: ${Date.now() - started} ms`);
	closed.forEach((cl, i) => assert.equal(cl.sc.closed, true, `${ids[i]}: ${show(cl.r)}`));
	const after = await c.ok('pty_list', {});
	assert.deepEqual(after.sc.sessions.filter((s) => ids.includes(s.session_id)), [], show(after.r));
});

/*
 * Sends one command; a send refused because the other server holds the
 * session's lock is retried (the message must say so), anything else fails.
 */
async function sendRetrying(conn, id, text, log) {
	const deadline = Date.now() + 30000;
	for (;;) {
		const r = await conn.call('pty_send', { session_id: id, text });
		if (r.isError !== true)
			return r;
		const msg = r.content.map((x) => x.text).join('\n');
		log.push(msg);
		assert.match(msg, /lock|busy|another|in use/i, `an error other than the send lock: ${show(r)}`);
		assert.ok(Date.now() < deadline, `still refused after 30 s: ${msg}`);
		await delay(20 + Math.floor(Math.random() * 30));
	}
}

test('PTY-SEND two MCP servers sending to one session at once: every command intact, once', { timeout: 120000 }, async (t) => {
	const rig = new Rig(t);
	const a = await rig.server();
	const b = await rig.server();
	const o = await a.open({ name: 'shared', shell: 'bash', cols: 1000 });
	const id = o.sc.session_id;
	await a.expectExit(id, 'true', 0);
	/*
	 * Each command is long (several 256-byte chunks) so that interleaving
	 * would show, and its output differs from its text ($((i*7)) is
	 * evaluated), so an echo of the command line never counts as output.
	 */
	const pad = 'x'.repeat(600);
	const cmd = (tag, i) => `echo OUT-${tag}-${i}-$((${i}*7))-${pad}-END`;
	const out = (tag, i) => `OUT-${tag}-${i}-${i * 7}-${pad}-END`;
	const refused = [];
	const side = async (conn, tag) => {
		for (let i = 0; i < 20; i++)
			await sendRetrying(conn, id, cmd(tag, i), refused);
	};
	const started = Date.now();
	await Promise.all([side(a, 'A'), side(b, 'B')]);
	t.diagnostic(`40 sends from two servers: ${Date.now() - started} ms, ${refused.length} refused by the lock`);
	/* Wait until the shell has run everything. */
	const fin = await a.expectExit(id, 'echo all-$((20+20))-done', 0, { timeout: 60 });
	assert.ok(hasLine(fin.text, 'all-40-done'), show(fin.r));
	/* raw: no reducer folds the similar output lines. */
	const { text } = await b.readLog(id, { raw: true });
	const occurrences = (s) => text.split(s).length - 1;
	for (const tag of ['A', 'B'])
		for (let i = 0; i < 20; i++)
			assert.equal(occurrences(out(tag, i)), 1, `output ${tag}${i} once, intact: ${text.slice(0, 3000)}`);
	const outputs = text.match(/OUT-[AB]-\d+-\d+-/g) || [];
	assert.equal(outputs.length, 40, `exactly 40 command outputs, none garbled: ${outputs.join(' ')}`);
});
