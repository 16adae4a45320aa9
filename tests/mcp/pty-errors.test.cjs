'use strict';
/*
 * Bad input to the PTY tools (PTY-OPEN, PTY-SEND, PTY-READ, PTY-KEYS,
 * PTY-CLOSE, OPS-BOUNDARY): each case is a specific isError result that
 * names what is wrong, and the server keeps serving afterwards.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, hasLine, show, spawnWithTmux } = require('./lib/pty.cjs');

const T = { timeout: 60000 };

/* The server still answers: ping and pty_list. */
async function stillServing(c) {
	assert.deepEqual(await c.client.ping(), {});
	const l = await c.ok('pty_list', {});
	assert.ok(Array.isArray(l.sc.sessions));
}

/* isError whose text matches every pattern in res. */
async function expectError(c, name, args, res, what) {
	const r = await c.err(name, args);
	for (const re of res)
		assert.match(r.text, re, `${what}: ${name} ${JSON.stringify(args).slice(0, 200)} -> ${r.text}`);
	await stillServing(c);
	return r;
}

test('PTY-SEND PTY-READ PTY-KEYS unknown session: isError naming it', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await expectError(c, 'pty_send', { session_id: 'nosuch', text: 'echo x' }, [/nosuch/], 'unknown session');
	await expectError(c, 'pty_send', { session_id: 'nosuch', text: 'echo x', wait: true, timeout: 1 }, [/nosuch/], 'unknown session with wait');
	await expectError(c, 'pty_read', { session_id: 'nosuch' }, [/nosuch/], 'unknown session');
	await expectError(c, 'pty_read', { session_id: 'nosuch', wait: true, timeout: 1 }, [/nosuch/], 'unknown session with wait');
	await expectError(c, 'pty_read', { session_id: 'nosuch', screen: true }, [/nosuch/], 'unknown session, screen');
	await expectError(c, 'pty_read', { session_id: 'nosuch', full: true }, [/nosuch/], 'unknown session, full');
	await expectError(c, 'pty_key', { session_id: 'nosuch', key: 'enter' }, [/nosuch/], 'unknown session');
	/* A session id that is not a valid name never reaches the file system. */
	await expectError(c, 'pty_read', { session_id: '../../etc' }, [/\.\.\/\.\.\/etc|invalid|unknown|no such/i], 'traversal id');
	await expectError(c, 'pty_send', { session_id: '../x', text: 'x' }, [/invalid|unknown|no such|\.\.\/x/i], 'traversal id');
});

test('PTY-CLOSE closed session: send, read, key are errors; close again is not', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await c.open({ name: 'gone', shell: 'bash' });
	await c.expectExit('gone', 'echo hi', 0);
	const cl = await c.ok('pty_close', { session_id: 'gone' });
	assert.equal(cl.sc.closed, true);
	await expectError(c, 'pty_send', { session_id: 'gone', text: 'echo x' }, [/gone/], 'closed session');
	await expectError(c, 'pty_read', { session_id: 'gone' }, [/gone/], 'closed session');
	await expectError(c, 'pty_read', { session_id: 'gone', wait: true, timeout: 1 }, [/gone/], 'closed session with wait');
	await expectError(c, 'pty_key', { session_id: 'gone', key: 'enter' }, [/gone/], 'closed session');
	const again = await c.ok('pty_close', { session_id: 'gone' });
	assert.equal(again.sc.closed, false, show(again.r));
	await stillServing(c);
});

test('PTY-OPEN invalid names, an existing name, a bad cwd, an unknown shell', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	for (const name of ['../x', 'a b', '', 'x'.repeat(65), '.hidden', '-dash', 'a/b', 'caf\u00e9', 'a\nb'])
		await expectError(c, 'pty_open', { name, shell: 'bash' }, [/name/i], `invalid name ${JSON.stringify(name)}`);
	/* 64 characters is the limit, and valid. */
	const long = 'n'.repeat(64);
	const ok = await c.open({ name: long, shell: 'bash' });
	assert.equal(ok.sc.session_id, long);
	await expectError(c, 'pty_open', { name: long, shell: 'bash' }, [/exists/i, new RegExp(long)], 'existing name');
	await expectError(c, 'pty_open', { name: 'cwdtest', shell: 'bash', cwd: '/no/such/dir' }, [/cwd/, /\/no\/such\/dir/], 'bad cwd');
	await expectError(c, 'pty_open', { name: 'cwdfile', shell: 'bash', cwd: '/etc/hostname' }, [/cwd|directory/i], 'cwd is a file');
	await expectError(c, 'pty_open', { name: 'shelltest', shell: 'no-such-shell-xyz' }, [/shell/, /no-such-shell-xyz/], 'unknown shell');
	const plain = path.join(rig.dirs.tmp, 'not-executable');
	fs.writeFileSync(plain, 'echo hi\n', { mode: 0o644 });
	await expectError(c, 'pty_open', { name: 'shelltest2', shell: plain }, [/shell/, /not-executable/], 'shell not executable');
	await expectError(c, 'pty_open', { name: 'envbad', shell: 'bash', env_vars: { 'BAD NAME': 'x' } }, [/env_vars|BAD NAME/], 'bad env var name');
	await expectError(c, 'pty_open', { name: 'colsbad', shell: 'bash', cols: 5 }, [/cols/], 'cols out of range');
	/* None of the failed opens left a session behind. */
	const l = await c.ok('pty_list', {});
	assert.deepEqual(l.sc.sessions.map((s) => s.session_id), [long], show(l.r));
	const cl = await c.ok('pty_close', { session_id: long });
	assert.equal(cl.sc.closed, true);
});

test('PTY-OPEN a directory as the shell is an error, not a dead session', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await expectError(c, 'pty_open', { name: 'dirshell', shell: rig.dirs.tmp }, [/shell/], 'shell is a directory');
	const l = await c.ok('pty_list', {});
	assert.deepEqual(l.sc.sessions, [], show(l.r));
});

test('OPS-BOUNDARY wrong types, timeout out of range, invalid regex, text over 64 KiB, bad line_range', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const o = await c.open({ name: 'victim', shell: 'bash' });
	const id = o.sc.session_id;
	await expectError(c, 'pty_send', { session_id: 5, text: 'x' }, [/session_id/], 'session_id: 5');
	await expectError(c, 'pty_read', { session_id: 5 }, [/session_id/], 'session_id: 5');
	await expectError(c, 'pty_send', { session_id: id, text: [] }, [/\btext\b/], 'text: []');
	await expectError(c, 'pty_send', { session_id: id }, [/\btext\b/], 'text missing');
	await expectError(c, 'pty_send', { session_id: id, text: 'x', enter: 'yes' }, [/\benter\b/], 'enter: "yes"');
	await expectError(c, 'pty_key', { session_id: id, key: 7 }, [/\bkey\b/], 'key: 7');
	await expectError(c, 'pty_read', { session_id: id, lines: 0 }, [/\blines\b/], 'lines: 0');
	await expectError(c, 'pty_read', { session_id: id, line_range: [5] }, [/line_range/], 'line_range: [5]');
	await expectError(c, 'pty_read', { session_id: id, line_range: [5, 2] }, [/line_range/], 'line_range: [5, 2]');
	await expectError(c, 'pty_read', { session_id: id, line_range: [0, 2] }, [/line_range/], 'line_range: [0, 2]');
	for (const timeout of [-1, 4000])
		for (const tool of ['pty_read', 'pty_send'])
			await expectError(c, tool, { session_id: id, text: tool === 'pty_send' ? 'true' : undefined, wait: true, timeout },
				[/timeout/], `timeout ${timeout}`);
	await expectError(c, 'pty_read', { session_id: id, wait: true, timeout: 'soon' }, [/timeout/], 'timeout: "soon"');
	/* An invalid regex names the offset; the text is not sent. */
	await expectError(c, 'pty_send', { session_id: id, text: 'echo regex-$((1+1))', until: '(', until_regex: true },
		[/regex/i, /offset\s*\d+/i], 'invalid regex');
	await expectError(c, 'pty_read', { session_id: id, until: 'a[b', until_regex: true }, [/offset\s*\d+/i], 'invalid regex');
	/* The same text as a literal is fine. */
	const lit = await c.ok('pty_send', { session_id: id, text: 'echo "lit(eral"', until: 'lit(eral', timeout: 10 }, 30000);
	assert.equal(lit.sc.complete, true, show(lit.r));
	/* Text over 64 KiB: refused, nothing typed. */
	const big = 'echo ' + 'y'.repeat(65537 - 5);
	assert.equal(Buffer.byteLength(big), 65537);
	await expectError(c, 'pty_send', { session_id: id, text: big }, [/64 KiB/], 'text over 64 KiB');
	/* Multi-byte characters count as bytes: 21846 three-byte characters are 65538 bytes. */
	await expectError(c, 'pty_send', { session_id: id, text: '\u65e5'.repeat(21846), enter: false }, [/64 KiB/], 'text over 64 KiB in bytes');
	/* The session itself is fine: none of the refused texts reached it. */
	const res = await c.expectExit(id, 'echo still-$((2+2))', 0);
	assert.ok(hasLine(res.text, 'still-4'), show(res.r));
	assert.ok(!hasLine(res.text, 'regex-2'), `the refused text was not run: ${show(res.r)}`);
	assert.ok(!/y{100}/.test(res.text), `the refused 64 KiB text was not typed: ${res.text.slice(0, 500)}`);
	const scr = await c.ok('pty_read', { session_id: id, screen: true });
	assert.ok(!/y{50}|\u65e5{20}/.test(scr.text), `nothing of the refused texts on the screen: ${scr.text.slice(0, 500)}`);
});

test('OPS-BOUNDARY invalid UTF-8 in pty_send text: a JSON-RPC parse error (-32700), nothing typed, the server keeps serving', T, async (t) => {
	/* Raw wire: the SDK cannot send bytes that are not UTF-8. */
	const srv = spawnWithTmux(t);
	const state = srv.dirs.state;
	await srv.initialize();
	/* An open session, so that only the bytes can be what is refused. */
	const o = await srv.request('tools/call', { name: 'pty_open', arguments: { name: 'u8', shell: 'bash' } }, undefined, 20000);
	assert.equal(o.result && o.result.isError, undefined, JSON.stringify(o));
	const call = (text) => `{"jsonrpc":"2.0","id":77,"method":"tools/call","params":{"name":"pty_send","arguments":{"session_id":"u8","text":"${text}"}}}\n`;
	const [prefix, suffix] = call('@').split('@').map((x) => Buffer.from(x));
	await srv.write(Buffer.concat([prefix, Buffer.from('bad-u8 '), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' end'), suffix]));
	/* The line is not JSON (JSON text is UTF-8): a parse error, and no id can be read from it. */
	const r = await srv.nextResponse();
	assert.equal(r.id, null, JSON.stringify(r));
	assert.equal(r.error && r.error.code, -32700, JSON.stringify(r));
	assert.match(r.error.message, /^Parse error: unable to decode byte 0xff\b/, JSON.stringify(r));
	const p = await srv.request('ping', {});
	assert.deepEqual(p.result, {}, JSON.stringify(p));
	/* A lone surrogate escape is not valid Unicode either. */
	await srv.write(call('lone-\\ud800'));
	const r2 = await srv.nextResponse();
	assert.equal(r2.id, null, JSON.stringify(r2));
	assert.equal(r2.error && r2.error.code, -32700, JSON.stringify(r2));
	assert.match(r2.error.message, /^Parse error: invalid Unicode '\\uD800'/, JSON.stringify(r2));
	/* Neither text reached the session. */
	const log = fs.readFileSync(path.join(state, 'sessions/u8/output.log'), 'latin1');
	assert.ok(!log.includes('bad-u8') && !log.includes('lone-'), `nothing typed: ${JSON.stringify(log)}`);
	const p2 = await srv.request('tools/call', { name: 'pty_list', arguments: {} });
	assert.deepEqual(p2.result.structuredContent.sessions.map((x) => x.session_id), ['u8'], JSON.stringify(p2));
	const c = await srv.request('tools/call', { name: 'pty_close', arguments: { session_id: 'u8' } });
	assert.equal(c.result && c.result.isError, undefined, JSON.stringify(c));
});
