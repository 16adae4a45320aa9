'use strict';
/*
 * OPS-DIAG, issue 17, ADR 0021: the runtime error aggregate.  Errors
 * are provoked through the tools with hostile inputs (secrets, paths,
 * JSON and shell syntax in text, names, keys, cwd and env), on a session
 * killed from outside; afterwards <state_root>/errors.json holds only
 * codes of the fixed vocabulary with counts and UTC times, none of the
 * inputs, and diagnostics shows the same aggregate.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Rig, show } = require('./lib/pty.cjs');

/* The vocabulary of core/state/errtally.c (ADR 0021). */
const CODES = ['mux_lost', 'lock_stale', 'session_busy', 'transcript_missing', 'state_write_failed',
	'disk_full', 'log_write_failed', 'no_state_root', 'stdout_closed', 'state_format_newer'];
const TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const SECRET = 'sk-live-4f9Q-SECRET';

function hostile(i) {
	const bits = [SECRET, '/home/user/.ssh/id_rsa', '"},"mux_lost":{"count":99', '$(touch /tmp/x)',
		"'; rm -rf ~; '", '\u00e9\u65e5\u672c', '%s%n', '#{pane_pid}', 'mux_lost', 'A'.repeat(300)];
	return `${bits[i % bits.length]}-${i}-${bits[(i * 7 + 3) % bits.length]}`;
}

test('OPS-DIAG errors are counted by code only: hostile inputs never reach errors.json; diagnostics shows the aggregate', { timeout: 120000 }, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	await c.open({ name: 'gone', shell: 'sh' });
	execFileSync('tmux', ['-S', path.join(rig.env.AITERM_STATE_DIR, 'tmux.sock'), 'kill-session', '-t', '=gone'],
		{ timeout: 5000, env: { PATH: process.env.PATH, TMUX: '' } });
	let lostSends = 0;
	for (let i = 0; i < 40; i++) {
		const h = hostile(i);
		const calls = [
			['pty_send', { session_id: 'gone', text: h }],
			['pty_key', { session_id: 'gone', key: h }],
			['pty_send', { session_id: h, text: h }],
			['pty_read', { session_id: h }],
			['pty_open', { name: `x${i}`, shell: 'sh', cwd: `/nonexistent/${h}` }],
			['pty_open', { name: h }],
			['pty_close', { session_id: h }],
		];
		for (const [name, args] of calls) {
			const r = await c.call(name, args);
			assert.equal(r.isError, true, `${name} ${JSON.stringify(args).slice(0, 80)} fails: ${show(r)}`);
			if (name === 'pty_send' && args.session_id === 'gone')
				lostSends++;
		}
	}
	const file = path.join(rig.env.AITERM_STATE_DIR, 'errors.json');
	const text = fs.readFileSync(file, 'utf8');
	assert.ok(!text.includes('sk-live'), `no secret in errors.json: ${text}`);
	assert.ok(!text.includes('/'), `no path in errors.json: ${text}`);
	for (const bad of ['touch', 'rm -rf', 'pane_pid', 'AAAA', '%s', '\u00e9', 'gone', 'count":99'])
		assert.ok(!text.includes(bad), `'${bad}' not in errors.json: ${text}`);
	const doc = JSON.parse(text);
	assert.deepEqual(Object.keys(doc).sort(), ['codes', 'format']);
	assert.equal(doc.format, 1);
	for (const [code, e] of Object.entries(doc.codes)) {
		assert.ok(CODES.includes(code), `${code} is in the vocabulary`);
		assert.deepEqual(Object.keys(e).sort(), ['count', 'first', 'last']);
		assert.ok(Number.isInteger(e.count) && e.count > 0);
		assert.match(e.first, TIME);
		assert.match(e.last, TIME);
		assert.ok(e.first <= e.last);
	}
	assert.ok(doc.codes.mux_lost && doc.codes.mux_lost.count >= lostSends,
		`mux_lost counted at least once a send to the lost session (${lostSends}): ${text}`);
	assert.ok((fs.statSync(file).mode & 0o077) === 0, 'errors.json is private');

	const d = await c.ok('diagnostics', {});
	const mux = d.sc.errors.find((e) => e.code === 'mux_lost');
	assert.equal(mux.count, doc.codes.mux_lost.count, show(d.r));
	assert.match(d.text, /mux_lost \d+ \d{4}-/, show(d.r));
	assert.ok(!JSON.stringify(d.sc.errors).includes('sk-live'));
});

/* A program on PATH that prints its version, as a CLI's --version does. */
function versionProgram(dir, name, text, status = 0) {
	const p = path.join(dir, name);
	fs.writeFileSync(p, `#!/bin/sh\nprintf '%s\\n' '${text}'\nexit ${status}\n`, { mode: 0o755 });
	return p;
}

test('OPS-DIAG issue 32: diagnostics names each agent CLI, found or not, its version and whether it is new enough; read-only', { timeout: 60000 }, async (t) => {
	const rig = new Rig(t);
	const bin = path.join(rig.dirs.root, 'agent-bin');
	fs.mkdirSync(bin);
	const codex = versionProgram(bin, 'codex', 'codex-cli 0.1.0');
	const cursor = versionProgram(bin, 'cursor-agent', '2026.01.15-0a1b2c3');
	const gemini = versionProgram(bin, 'gemini', '0.61.0');
	versionProgram(bin, 'grok', 'grok: cannot start', 3);
	/* No claude on this PATH: the server's own PATH is what it probes. */
	const c = await rig.server({ env: { PATH: `${bin}:/usr/bin:/bin` } });
	const before = fs.readdirSync(rig.dirs.state).sort();
	const d = await c.ok('diagnostics', {}, 30000);
	const by = Object.fromEntries(d.sc.agents.map((a) => [a.harness, a]));
	assert.deepEqual(Object.keys(by).sort(), ['claude-code', 'codex-cli', 'cursor-cli', 'gemini-cli', 'grok-cli'], show(d.r));
	assert.deepEqual([by['claude-code'].found, by['claude-code'].ok, by['claude-code'].binary], [false, false, null], show(d.r));
	assert.match(by['claude-code'].error, /claude-code is not installed: no claude on PATH/, show(d.r));
	assert.deepEqual([by['codex-cli'].found, by['codex-cli'].ok, by['codex-cli'].binary, by['codex-cli'].version],
		[true, false, codex, '0.1.0'], show(d.r));
	assert.match(by['codex-cli'].error, /is version 0\.1\.0; the codex-cli harness needs 0\.171\.0 or newer/, show(d.r));
	assert.deepEqual([by['cursor-cli'].found, by['cursor-cli'].ok, by['cursor-cli'].binary, by['cursor-cli'].error],
		[true, true, cursor, null], show(d.r));
	assert.deepEqual([by['gemini-cli'].found, by['gemini-cli'].ok, by['gemini-cli'].binary, by['gemini-cli'].version],
		[true, true, gemini, '0.61.0'], show(d.r));
	assert.equal(by['grok-cli'].ok, false, show(d.r));
	assert.match(by['grok-cli'].error, /failed \(status 3\)/, show(d.r));
	for (const a of d.sc.agents)
		assert.equal(typeof a.min_version, 'string', show(d.r));
	/* The model reads the same in the text. */
	assert.match(d.text, /^agents:$/m, d.text);
	assert.match(d.text, /^ {2}codex-cli: .*needs 0\.171\.0 or newer$/m, d.text);
	assert.match(d.text, new RegExp(`^ {2}cursor-cli: ${cursor} 2026\\.01\\.15`, 'm'), d.text);
	assert.match(d.text, /^ {2}claude-code: claude-code is not installed/m, d.text);
	/* Read-only: nothing new in the state root. */
	assert.deepEqual(fs.readdirSync(rig.dirs.state).sort(), before, 'diagnostics wrote nothing');
});
