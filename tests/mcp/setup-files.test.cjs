'use strict';
/*
 * SET-RUN SET-HOOKS: the config files aiterm-setup edits are read and
 * replaced safely (issue 37, ADR 0013), shown on Cursor's ~/.cursor/mcp.json
 * and hooks.json (found by the folder: no CLI needed).  Claude Code's two
 * files go through the same code (setup/cfile.c).  A link into a
 * dotfiles folder stays a link and its target is edited; a FIFO, a link
 * to /dev/zero, a directory or a link to nothing is refused at once; a
 * file over 8 MiB is refused; a file another program replaces between
 * setup's read and its rename keeps that program's edit.  Each test has
 * its own HOME and state root (a Rig); setup is killed after 30 s, so a
 * hang fails the test instead of stalling the suite.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const test = require('node:test');
const assert = require('node:assert/strict');
const { serverBinary } = require('./lib/server.cjs');
const { Rig } = require('./lib/pty.cjs');

const T = { timeout: 120000 };
const LIMIT_MS = 30000;

function setupBinary() {
	return process.env.AITERM_SETUP || path.join(path.dirname(serverBinary()), 'aiterm-setup');
}

/* aiterm-setup --json --clients cursor [args] in the rig's HOME; { code, json, ms, out }. */
function setup(rig, args = [], extra = {}) {
	const env = Object.assign({}, rig.env, extra);
	const t0 = Date.now();
	return new Promise((resolve, reject) => {
		const p = spawn(setupBinary(), ['--json', '--clients', 'cursor', '--server', serverBinary(), ...args],
			{ env, cwd: rig.dirs.home, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '', err = '';
		p.stdout.on('data', (s) => { out += s; });
		p.stderr.on('data', (s) => { err += s; });
		const timer = setTimeout(() => {
			p.kill('SIGKILL');
			reject(new Error(`aiterm-setup ${args.join(' ')} still ran after ${LIMIT_MS} ms (hung)`));
		}, LIMIT_MS);
		p.on('close', (code) => {
			clearTimeout(timer);
			let json = null;
			try { json = JSON.parse(out); } catch { /* not JSON */ }
			const cursor = json && json.clients.find((c) => c.client === 'cursor');
			resolve({ code, json, cursor, ms: Date.now() - t0, out: `exit ${code}\n${out}\n${err}` });
		});
	});
}

function cursorDir(rig) {
	const dir = path.join(rig.dirs.home, '.cursor');
	fs.mkdirSync(dir, { recursive: true });
	return dir;
}

/* Names in dir other than the ones given: temporaries or backups left behind. */
function strays(dir, keep) {
	return fs.readdirSync(dir).filter((n) => !keep.includes(n)).sort();
}

test('SET-RUN SET-HOOKS: mcp.json and hooks.json linked into a dotfiles folder stay links; their targets are edited', T, async (t) => {
	const rig = new Rig(t);
	const dir = cursorDir(rig);
	const dots = path.join(rig.dirs.home, 'dotfiles');
	fs.mkdirSync(dots);
	const mcpText = '{\n  "mcpServers": {\n    "x": {"command": "/bin/x"}\n  }\n}\n';
	const hooksText = '{\n  "version": 1,\n  "hooks": {\n    "stop": [{"command": "/bin/mine"}]\n  }\n}\n';
	fs.writeFileSync(path.join(dots, 'mcp.json'), mcpText, { mode: 0o640 });
	fs.writeFileSync(path.join(dots, 'hooks.json'), hooksText);
	fs.symlinkSync('../dotfiles/mcp.json', path.join(dir, 'mcp.json'));
	fs.symlinkSync(path.join(dots, 'hooks.json'), path.join(dir, 'hooks.json'));

	const r = await setup(rig);
	assert.equal(r.code, 0, r.out);
	assert.equal(r.cursor.status, 'registered', r.out);
	for (const name of ['mcp.json', 'hooks.json'])
		assert.ok(fs.lstatSync(path.join(dir, name)).isSymbolicLink(), `${name} is still a link: ${r.out}`);
	assert.equal(fs.readlinkSync(path.join(dir, 'mcp.json')), '../dotfiles/mcp.json');
	const mcp = JSON.parse(fs.readFileSync(path.join(dots, 'mcp.json'), 'utf8'));
	assert.equal(mcp.mcpServers.aiterm.command, serverBinary());
	assert.deepEqual(mcp.mcpServers.x, { command: '/bin/x' });
	assert.equal(fs.statSync(path.join(dots, 'mcp.json')).mode & 0o777, 0o640, 'the target keeps its mode');
	const hooks = JSON.parse(fs.readFileSync(path.join(dots, 'hooks.json'), 'utf8'));
	assert.deepEqual(hooks.hooks.stop, [{ command: '/bin/mine' }]);
	assert.match(JSON.stringify(hooks.hooks.afterMCPExecution), /aiterm-hook/);
	/* Nothing but the two files in the dotfiles folder (no temporary, no backup). */
	assert.deepEqual(strays(dots, ['mcp.json', 'hooks.json']), []);

	const un = await setup(rig, ['--uninstall']);
	assert.equal(un.code, 0, un.out);
	assert.equal(un.cursor.status, 'removed', un.out);
	for (const name of ['mcp.json', 'hooks.json'])
		assert.ok(fs.lstatSync(path.join(dir, name)).isSymbolicLink(), `${name} is still a link after --uninstall`);
	assert.equal(fs.readFileSync(path.join(dots, 'mcp.json'), 'utf8'), mcpText);
	assert.deepEqual(JSON.parse(fs.readFileSync(path.join(dots, 'hooks.json'), 'utf8')).hooks, { stop: [{ command: '/bin/mine' }] });
});

test('SET-RUN: a FIFO, a link to /dev/zero, a directory, a link to nothing are refused at once and left as they are', T, async (t) => {
	const kinds = {
		fifo: (f) => { require('node:child_process').execFileSync('mkfifo', [f]); },
		zero: (f) => { fs.symlinkSync('/dev/zero', f); },
		directory: (f) => { fs.mkdirSync(f); },
		dangling: (f) => { fs.symlinkSync('/nonexistent/aiterm-dotfiles/mcp.json', f); },
	};
	const want = {
		fifo: /is a FIFO \(named pipe\), not a regular file/,
		zero: /a link to \/dev\/zero\) is a character device, not a regular file/,
		directory: /is a directory, not a regular file/,
		dangling: /is a symbolic link to \/nonexistent\/aiterm-dotfiles\/mcp\.json, which does not exist/,
	};
	for (const [kind, make] of Object.entries(kinds)) {
		const rig = new Rig(t);
		const dir = cursorDir(rig);
		const file = path.join(dir, 'mcp.json');
		make(file);
		const before = fs.lstatSync(file);
		const r = await setup(rig);
		assert.equal(r.code, 1, `${kind}: ${r.out}`);
		assert.equal(r.cursor.status, 'failed', `${kind}: ${r.out}`);
		assert.equal(r.cursor.code, 'CONFIG_NOT_REGULAR', `${kind}: ${r.out}`);
		assert.match(r.cursor.message, want[kind], `${kind}: ${r.out}`);
		assert.match(r.cursor.message, /it was left as it is/);
		const after = fs.lstatSync(file);
		assert.equal(after.ino, before.ino, `${kind}: the same file is there`);
		assert.equal(after.mode, before.mode, `${kind}: of the same kind`);
		assert.deepEqual(strays(dir, ['mcp.json']), [], `${kind}: nothing written beside it`);
	}
	/* hooks.json is read the same way: a FIFO there is refused too. */
	const rig = new Rig(t);
	const dir = cursorDir(rig);
	require('node:child_process').execFileSync('mkfifo', [path.join(dir, 'hooks.json')]);
	const r = await setup(rig);
	assert.equal(r.cursor.code, 'CONFIG_NOT_REGULAR', r.out);
	assert.match(r.cursor.message, /hooks\.json is a FIFO/, r.out);
	assert.ok(fs.lstatSync(path.join(dir, 'hooks.json')).isFIFO());
});

test('SET-RUN: a config over 8 MiB is refused with the limit in the message and left as it is', T, async (t) => {
	const rig = new Rig(t);
	const dir = cursorDir(rig);
	const file = path.join(dir, 'mcp.json');
	const big = `{"mcpServers": {}, "pad": "${'p'.repeat(9 * 1024 * 1024)}"}\n`;
	fs.writeFileSync(file, big);
	const r = await setup(rig);
	assert.equal(r.code, 1, r.out.slice(0, 2000));
	assert.equal(r.cursor.code, 'CONFIG_TOO_LARGE', r.out.slice(0, 2000));
	assert.match(r.cursor.message, new RegExp(`is ${big.length} bytes, more than the 8 MiB \\(8388608 bytes\\) aiterm-setup reads`));
	assert.equal(fs.readFileSync(file, 'utf8'), big);
	assert.deepEqual(strays(dir, ['mcp.json']), []);
});

test('SET-RUN: a config another program replaces between setup\'s read and its rename keeps that program\'s edit', T, async (t) => {
	/*
	 * The test hook (AITERM_TEST_TOOLS=1, AITERM_TEST_SETUP_BEFORE_RENAME;
	 * test only, ADR 0013) runs a program with the file's path after setup
	 * wrote its new text beside it and before its last check: here the
	 * other program's own atomic write, then (second run) an edit in place
	 * that keeps the size.
	 */
	const rig = new Rig(t);
	const dir = cursorDir(rig);
	const file = path.join(dir, 'mcp.json');
	const orig = '{"mcpServers": {"x": {"command": "/bin/x"}}}\n';
	const theirs = '{"mcpServers": {"x": {"command": "/bin/x"}}, "theirs": true}\n';
	fs.writeFileSync(file, orig);
	const other = path.join(rig.dirs.root, 'other-program');
	fs.writeFileSync(other, `#!/bin/sh\nprintf '%s' '${theirs}' > "$1.new" && mv "$1.new" "$1"\n`, { mode: 0o755 });
	const hook = { AITERM_TEST_TOOLS: '1', AITERM_TEST_SETUP_BEFORE_RENAME: other };
	let r = await setup(rig, [], hook);
	assert.equal(r.code, 1, r.out);
	assert.equal(r.cursor.code, 'CONFIG_CHANGED', r.out);
	assert.match(r.cursor.message, /mcp\.json was changed by another program during setup; nothing written/);
	assert.equal(fs.readFileSync(file, 'utf8'), theirs, 'the other program\'s edit is kept');
	assert.deepEqual(strays(dir, ['mcp.json']), [], 'no temporary and no backup left');

	/* Same size, same inode: an edit in place is seen too. */
	fs.writeFileSync(file, orig);
	const inPlace = path.join(rig.dirs.root, 'in-place');
	fs.writeFileSync(inPlace, '#!/bin/sh\nprintf \'{"mcpServers": {"y": {"command": "/bin/x"}}}\\n\' > "$1"\n', { mode: 0o755 });
	r = await setup(rig, [], { AITERM_TEST_TOOLS: '1', AITERM_TEST_SETUP_BEFORE_RENAME: inPlace });
	assert.equal(r.cursor.code, 'CONFIG_CHANGED', r.out);
	assert.equal(fs.readFileSync(file, 'utf8'), '{"mcpServers": {"y": {"command": "/bin/x"}}}\n');

	/* Without the hook the same setup registers. */
	r = await setup(rig);
	assert.equal(r.code, 0, r.out);
	assert.equal(r.cursor.status, 'registered', r.out);
});
