'use strict';
/*
 * OPS-BOUNDARY, issue 17, ADR 0021: the state format.  Every JSON state
 * file carries "format" and the root holds format.json.  A server of
 * this release continues sessions of the previous one (format 0: the
 * same files without the stamp), reads the committed fixture of its own
 * format (tests/fixtures/state-format/1; the next release keeps this test
 * on that fixture), and leaves a newer format alone, saying so, while
 * its tmux session keeps running.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Rig, show } = require('./lib/pty.cjs');

const FIXTURE = path.join(process.env.top_srcdir || path.join(__dirname, '..', '..'), 'tests', 'fixtures', 'state-format', '1');

/* Every file below dir (but the tmux socket) with its bytes, mode and mtime. */
function snapshot(dir) {
	const out = {};
	const walk = (d) => {
		for (const e of fs.readdirSync(d, { withFileTypes: true })) {
			const p = path.join(d, e.name);
			if (e.isDirectory())
				walk(p);
			else if (!e.isSocket()) {
				const st = fs.statSync(p);
				out[path.relative(dir, p)] = `${st.mode.toString(8)} ${st.mtimeMs} ${fs.readFileSync(p, 'base64')}`;
			}
		}
	};
	walk(dir);
	return out;
}

function jsonFiles(dir) {
	return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).map((f) => path.join(dir, f));
}

function hasSession(rig, id) {
	try {
		execFileSync('tmux', ['-S', path.join(rig.env.AITERM_STATE_DIR, 'tmux.sock'), 'has-session', '-t', `=${id}`],
			{ timeout: 5000, stdio: 'ignore', env: { PATH: process.env.PATH, TMUX: '' } });
		return true;
	} catch {
		return false;
	}
}

test('OPS-BOUNDARY every JSON state file and the root carry the format; the fixture of this format holds the same keys', { timeout: 60000 }, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await c.open({ name: 'fmt', shell: 'sh' });
	await c.expectExit('fmt', 'echo $((6*7))', 0);
	const root = rig.env.AITERM_STATE_DIR;
	assert.deepEqual(JSON.parse(fs.readFileSync(path.join(root, 'format.json'), 'utf8')), { format: 1 });
	const dir = path.join(root, 'sessions', 'fmt');
	for (const f of jsonFiles(dir)) {
		const o = JSON.parse(fs.readFileSync(f, 'utf8'));
		assert.equal(o.format, 1, `${f} carries format 1`);
		const fx = path.join(FIXTURE, 'sessions', 'fx', path.basename(f));
		if (fs.existsSync(fx))
			assert.deepEqual(Object.keys(o).sort(), Object.keys(JSON.parse(fs.readFileSync(fx, 'utf8'))).sort(),
				`${path.basename(f)} has the keys of the fixture of format 1 (a change of keys is a new format)`);
	}
	for (const f of ['meta.json', 'command.json', 'cursor.json'])
		assert.ok(fs.existsSync(path.join(FIXTURE, 'sessions', 'fx', f)), `the fixture has ${f}`);
});

test('OPS-BOUNDARY a session of the previous release (format 0, no stamps) is continued by this server', { timeout: 60000 }, async (t) => {
	const rig = new Rig(t);
	const a = await rig.server();
	await a.open({ name: 'old', shell: 'sh' });
	await a.expectExit('old', 'echo first', 0);
	await a.close();
	const root = rig.env.AITERM_STATE_DIR;
	fs.rmSync(path.join(root, 'format.json'));
	for (const f of jsonFiles(path.join(root, 'sessions', 'old'))) {
		const o = JSON.parse(fs.readFileSync(f, 'utf8'));
		delete o.format;
		fs.writeFileSync(f, JSON.stringify(o), { mode: 0o600 });
	}
	const b = await rig.server();
	const res = await b.expectExit('old', 'echo $((6*7))', 0);
	assert.match(res.text, /^42$/m, show(res.r));
	assert.equal(JSON.parse(fs.readFileSync(path.join(root, 'format.json'), 'utf8')).format, 1);
});

test('OPS-BOUNDARY the committed fixture of format 1 is read: its session listed, its error counts shown', { timeout: 60000 }, async (t) => {
	const rig = new Rig(t);
	const root = rig.env.AITERM_STATE_DIR;
	fs.cpSync(FIXTURE, root, { recursive: true });
	const c = await rig.server();
	const list = await c.ok('pty_list', {});
	const fx = list.sc.sessions.find((s) => s.session_id === 'fx');
	assert.ok(fx, `the fixture's session is listed: ${show(list.r)}`);
	assert.equal(fx.lost, true, `no tmux session behind it: lost, not unreadable: ${show(list.r)}`);
	const d = await c.ok('diagnostics', {});
	const mux = d.sc.errors.find((e) => e.code === 'mux_lost');
	assert.ok(mux && mux.count >= 3, show(d.r));
	assert.equal(d.sc.state_root, fs.realpathSync(root));
	await c.ok('pty_close', { session_id: 'fx' });
});

test('OPS-BOUNDARY a newer state format is said and nothing is touched; the session lives on and is continued once the format is known', { timeout: 60000 }, async (t) => {
	const rig = new Rig(t);
	const a = await rig.server();
	await a.open({ name: 'keep', shell: 'sh' });
	await a.expectExit('keep', 'echo before', 0);
	await a.close();
	const root = rig.env.AITERM_STATE_DIR;
	const marker = path.join(root, 'format.json');
	fs.writeFileSync(marker, '{"format":2}', { mode: 0o600 });
	const before = snapshot(root);

	const b = await rig.server();
	for (const [name, args] of [['pty_list', {}], ['pty_open', { name: 'new', shell: 'sh' }],
		['pty_send', { session_id: 'keep', text: 'echo touched > touched.txt' }],
		['pty_read', { session_id: 'keep' }], ['pty_close', { session_id: 'keep' }]]) {
		const r = await b.err(name, args);
		assert.match(r.text, /newer Aiterm \(state format 2; this aiterm-mcp reads formats up to 1\); it is left untouched/,
			`${name}: ${show(r.r)}`);
	}
	const d = await b.ok('diagnostics', {});
	assert.match(d.sc.state_root_error, /newer Aiterm \(state format 2/, show(d.r));
	assert.match(d.text, /newer Aiterm/, show(d.r));
	assert.match(b.stderr(), /newer Aiterm \(state format 2/);
	await b.close();
	assert.deepEqual(snapshot(root), before, 'not a byte, mode or mtime changed');
	assert.ok(hasSession(rig, 'keep'), 'the tmux session lives on');

	/* One session file of a newer format, the root of ours: that session alone is refused. */
	fs.writeFileSync(marker, '{"format":1}', { mode: 0o600 });
	const meta = path.join(root, 'sessions', 'keep', 'meta.json');
	const m = JSON.parse(fs.readFileSync(meta, 'utf8'));
	fs.writeFileSync(meta, JSON.stringify(Object.assign({}, m, { format: 7 })), { mode: 0o600 });
	const folder = snapshot(path.join(root, 'sessions', 'keep'));
	const c = await rig.server();
	const r = await c.err('pty_send', { session_id: 'keep', text: 'echo no' });
	assert.match(r.text, /meta\.json was written by a newer Aiterm \(state format 7/, show(r.r));
	assert.deepEqual(snapshot(path.join(root, 'sessions', 'keep')), folder, 'the session folder is untouched');
	fs.writeFileSync(meta, JSON.stringify(m), { mode: 0o600 });
	const res = await c.expectExit('keep', 'echo $((6*7))', 0);
	assert.match(res.text, /^42$/m, show(res.r));
});
