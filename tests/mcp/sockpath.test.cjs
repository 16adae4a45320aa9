'use strict';
/*
 * Unix socket paths under a long state root (issue 37, REM-AUTH,
 * REM-RELAY, OPS-BOUNDARY).  A socket path holds at most 107 bytes
 * (sizeof sun_path - 1 on Linux); libuv cut a longer one short without a
 * word, so the askpass socket of a remote call was made at the cut path,
 * outside the state root.  Every socket Aiterm binds, or has ssh bind, is
 * checked first: the call fails naming the path and the limit, and no
 * socket is made anywhere.  No sshd is needed: the refusal comes before
 * ssh runs (and ssh, pointed at a closed port, fails at once anyway).
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { spawnServer, listFiles } = require('./lib/server.cjs');

const T = { timeout: 60000 };
const SUN_PATH_MAX = 107;

/* Every socket below dir. */
function socketsUnder(dir) {
	return listFiles(dir).filter((f) => fs.lstatSync(path.join(dir, f)).isSocket());
}

/* A server whose state root is <test root>/<name>; ssh goes to a closed port. */
async function serverAt(t, name) {
	const srv = spawnServer(t, {
		before: (dirs, env) => {
			env.AITERM_STATE_DIR = path.join(dirs.root, name);
			const cfg = path.join(dirs.root, 'ssh_config');
			fs.writeFileSync(cfg, ['Host nowhere', '  HostName 127.0.0.1', '  Port 1', '  BatchMode no',
				'  ConnectTimeout 2', '  StrictHostKeyChecking no', '  UserKnownHostsFile /dev/null', ''].join('\n'));
			env.AITERM_SSH_CONFIG = cfg;
		},
	});
	await srv.initialize();
	return srv;
}

async function remoteList(srv, secret) {
	const args = { remote: 'nowhere' };
	if (secret)
		args.remote_secret = secret;
	const r = await srv.request('tools/call', { name: 'pty_list', arguments: args }, undefined, 20000);
	assert.ok(r.result, JSON.stringify(r));
	return { r: r.result, text: r.result.content.map((c) => c.text).join('\n') };
}

test('REM-AUTH: a remote call with a secret under a state root too long for its sockets is refused naming the path and the limit; no socket is made', T, async (t) => {
	/*
	 * <root>/<state>/ssh/ap-<pid>-<n> (the askpass socket) and cm-... are
	 * over 107 bytes; <root>/<state> alone is not.  Before, the askpass
	 * socket was bound at the path cut at 107 bytes and left there.
	 */
	const srv = await serverAt(t, 'S'.repeat(70));
	const state = srv.env.AITERM_STATE_DIR;
	assert.ok(state.length < SUN_PATH_MAX && (state + '/ssh/ap-').length > SUN_PATH_MAX - 12, state);
	const { r, text } = await remoteList(srv, 'not-a-real-secret');
	assert.equal(r.isError, true, text);
	assert.ok(text.includes(path.join(state, 'ssh') + '/'), `the path is named: ${text}`);
	assert.match(text, /\b107\b/, `the limit is named: ${text}`);
	assert.match(text, /AITERM_STATE_DIR/, `what to do is said: ${text}`);
	assert.deepEqual(socketsUnder(srv.dirs.root), [], 'no socket anywhere in the test\'s folders');
	/* Still serving; the same again is refused the same way. */
	const again = await remoteList(srv, 'not-a-real-secret');
	assert.equal(again.r.isError, true, again.text);
	assert.deepEqual(socketsUnder(srv.dirs.root), []);
});

test('REM-RELAY: a state root too long for ssh\'s ControlPath socket is refused naming the path and the limit', T, async (t) => {
	/* <root>/<state>/ssh/cm-<40 hex>.<16 of ssh's own> is over 107 bytes. */
	const srv = await serverAt(t, 'C'.repeat(30));
	const state = srv.env.AITERM_STATE_DIR;
	const { r, text } = await remoteList(srv, null);
	assert.equal(r.isError, true, text);
	assert.ok(text.includes(path.join(state, 'ssh', 'cm-')), `the path is named: ${text}`);
	assert.match(text, /\b107\b/, `the limit is named: ${text}`);
	assert.deepEqual(socketsUnder(srv.dirs.root), []);
});
