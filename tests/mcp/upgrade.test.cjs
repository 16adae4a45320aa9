'use strict';
/*
 * OPS-BOUNDARY, issue 17: sessions and their tmux server live on across
 * an upgrade of the installed server.  `make install` (DESTDIR, a
 * scratch folder) puts this build's server, plugins and shell
 * integration in place; a server from there opens a session and is
 * ended; `make install` again replaces every installed file (a new inode
 * for aiterm-mcp, checked) while the session's tmux server and its log
 * writer (`aiterm-mcp --log-pipe`, started from the replaced file) keep
 * running; a server started from the new files continues the session:
 * output printed across the upgrade is in its log, a new command runs.
 *
 * What it does not cover: the second install is the same build, not a
 * newer version (the state format a newer release may change is
 * tests/mcp/state-format.test.cjs).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Rig, show } = require('./lib/pty.cjs');

const BUILD = process.env.top_builddir;

/* make install DESTDIR=dest, outside the make that runs this test. */
function install(dest) {
	const env = Object.assign({}, process.env);
	for (const k of ['MAKEFLAGS', 'MFLAGS', 'MAKELEVEL', 'MAKEOVERRIDES'])
		delete env[k];
	execFileSync('make', ['-C', BUILD, 'install', `DESTDIR=${dest}`], {
		env, stdio: ['ignore', 'ignore', 'pipe'], timeout: 300000,
	});
}

/* The one file called name below dir. */
function find(dir, name) {
	for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
		const p = path.join(dir, e.name);
		if (e.name === name)
			return p;
		if (e.isDirectory()) {
			const f = find(p, name);
			if (f)
				return f;
		}
	}
	return null;
}

/* PIDs of processes running "<bin> --log-pipe ...". */
function logWriters(bin) {
	const out = [];
	for (const pid of fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
		let argv;
		try {
			argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
		} catch {
			continue;
		}
		if (argv[0] === bin && argv[1] === '--log-pipe')
			out.push(Number(pid));
	}
	return out;
}

test('OPS-BOUNDARY: make install over a running session; a server of the new files continues it', { timeout: 600000 }, async (t) => {
	assert.ok(BUILD, 'top_builddir is set');
	const dest = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-upgrade-'));
	t.after(() => fs.rmSync(dest, { recursive: true, force: true }));
	install(dest);
	const mcp = find(dest, 'aiterm-mcp');
	const plugins = path.dirname(find(dest, 'mux-tmux.yaml'));
	const shell = path.dirname(find(dest, 'aiterm.bash'));
	const rig = new Rig(t, { AITERM_PLUGIN_PATH: '', AITERM_SYSTEM_PLUGINDIR: plugins, AITERM_SHELL_DIR: shell });

	const a = await rig.server({ command: mcp });
	await a.open({ name: 'up', shell: 'sh' });
	await a.expectExit('up', 'echo before-$((6*7))', 0);
	/* Prints while no server runs and while the files are replaced. */
	await a.ok('pty_send', { session_id: 'up', text: 'for i in 1 2 3 4; do echo tick-$i; sleep 0.5; done; echo ticks-done' });
	await a.close();
	const tmuxPid = [...rig.tmuxPids][0];
	assert.ok(tmuxPid > 0, 'the private tmux server is known');
	assert.ok(logWriters(mcp).length > 0, 'the session\'s log writer runs the installed aiterm-mcp');

	const inode = fs.statSync(mcp).ino;
	install(dest);
	assert.notEqual(fs.statSync(mcp).ino, inode, 'make install replaced aiterm-mcp (a new file)');
	process.kill(tmuxPid, 0);	/* still there: throws if not */

	const b = await rig.server({ command: mcp });
	const list = await b.ok('pty_list', {});
	const up = list.sc.sessions.find((s) => s.session_id === 'up');
	assert.ok(up && up.alive, `the session lives on: ${show(list.r)}`);
	await b.ok('pty_read', { session_id: 'up', until: 'ticks-done', timeout: 20 }, 40000);
	const res = await b.expectExit('up', 'echo after-$((6*7))', 0);
	assert.match(res.text, /^after-42$/m, show(res.r));
	const log = (await b.readLog('up', { raw: true })).text;
	for (const want of ['before-42', 'tick-1', 'tick-4', 'ticks-done', 'after-42'])
		assert.ok(log.includes(want), `the log holds ${want} across the upgrade:\n${log}`);
	await b.close();
});
