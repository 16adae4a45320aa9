'use strict';
/*
 * Integral numbers written as reals (issue 37): JSON Schema counts 80.0 as
 * an integer, so `cols: 80.0`, `lines: 2.0`, `line_range: [2.0, 3.0]` and
 * `ms: 1500.0` pass the schema check and must be read as 80, 2, [2, 3]
 * and 1500, not as 0 (PTY-OPEN, PTY-READ, OPS-BOUNDARY).  A fraction
 * (80.5) is still refused by the schema.  The raw wire client writes the
 * numbers exactly as spelt (JSON.stringify would write 80.0 as 80).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnServer } = require('./lib/server.cjs');
const { spawnWithTmux } = require('./lib/pty.cjs');

const T = { timeout: 60000 };

/* A raw server whose private tmux server is ended after the test. */
async function serverWithTmux(t) {
	const srv = spawnWithTmux(t);
	await srv.initialize();
	return srv;
}

let seq = 0;

/* A tools/call written as raw text: args is the arguments object's JSON. */
async function call(srv, name, args, ms = 20000) {
	const id = `c${++seq}`;
	await srv.write(`{"jsonrpc":"2.0","id":"${id}","method":"tools/call","params":{"name":"${name}","arguments":${args}}}\n`);
	const r = await srv.nextResponse(ms);
	assert.equal(r.id, id, JSON.stringify(r));
	assert.ok(r.result, JSON.stringify(r));
	return r.result;
}

function text(result) {
	return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

test('PTY-OPEN PTY-READ: integral reals (cols 100.0, lines 2.0, line_range [2.0, 3.0]) are read as their numbers', T, async (t) => {
	const srv = await serverWithTmux(t);
	const o = await call(srv, 'pty_open', '{"name":"n1","shell":"bash","cols":100.0,"rows":30.0}');
	assert.equal(o.isError, undefined, JSON.stringify(o));
	assert.equal(o.structuredContent.cols, 100, JSON.stringify(o.structuredContent));
	assert.equal(o.structuredContent.rows, 30, JSON.stringify(o.structuredContent));
	assert.match(text(o), /100x30/, text(o));
	assert.doesNotMatch(text(o), /\b0x0\b/, text(o));
	const s = await call(srv, 'pty_send', '{"session_id":"n1","text":"printf \'L1\\\\nL2\\\\nL3\\\\nL4\\\\n\'","wait":true,"timeout":15}');
	assert.equal(s.isError, undefined, JSON.stringify(s));
	assert.match(text(s), /L4/, text(s));
	/* The last two lines of the log (the prompt may be the very last). */
	const tail = await call(srv, 'pty_read', '{"session_id":"n1","lines":2.0}');
	assert.equal(tail.isError, undefined, JSON.stringify(tail));
	assert.equal(tail.structuredContent.mode, 'lines', JSON.stringify(tail.structuredContent));
	const tailText = text(tail).replace(/\n+$/, '');
	assert.ok(tailText.length > 0 && tailText.split('\n').length <= 2, `at most two lines: ${JSON.stringify(tailText)}`);
	/* Which log lines hold L2 and L3, read with integers, then with reals. */
	const full = await call(srv, 'pty_read', '{"session_id":"n1","full":true}');
	const lines = text(full).split('\n');
	const at = lines.indexOf('L2') + 1;
	assert.ok(at > 0 && lines[at] === 'L3', JSON.stringify(lines));
	const ints = await call(srv, 'pty_read', `{"session_id":"n1","line_range":[${at},${at + 1}]}`);
	const reals = await call(srv, 'pty_read', `{"session_id":"n1","line_range":[${at}.0,${at + 1}.0]}`);
	assert.equal(reals.isError, undefined, JSON.stringify(reals));
	assert.equal(text(reals), text(ints), JSON.stringify(reals));
	assert.match(text(reals), /^L2\nL3\n?$/, JSON.stringify(reals));
	/* A fraction is still not an integer. */
	const frac = await call(srv, 'pty_open', '{"name":"n2","cols":80.5}');
	assert.equal(frac.isError, true, JSON.stringify(frac));
	assert.match(text(frac), /'cols' must be an integer/, text(frac));
	const fracRange = await call(srv, 'pty_read', '{"session_id":"n1","line_range":[2.5,3]}');
	assert.equal(fracRange.isError, true, JSON.stringify(fracRange));
	const c = await call(srv, 'pty_close', '{"session_id":"n1"}');
	assert.equal(c.isError, undefined, JSON.stringify(c));
});

test('OPS-BOUNDARY: test_sleep ms 1500.0 sleeps 1500 ms, not 0', T, async (t) => {
	const srv = spawnServer(t, { testTools: true });
	await srv.initialize();
	const t0 = Date.now();
	const r = await call(srv, 'test_sleep', '{"ms":1500.0}', 10000);
	assert.equal(r.isError, undefined, JSON.stringify(r));
	assert.ok(Date.now() - t0 >= 1400, `slept ${Date.now() - t0} ms`);
});
