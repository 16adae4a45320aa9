'use strict';
/*
 * REM-RELAY: a far side that never starts is given up on in time.  The
 * relay allows ssh, the login, the shell probe, the launch line and MCP
 * initialize 45 s together (AITERM_REMOTE_START_MS shortens it here).
 * Real sshd on 127.0.0.1 (lib/sshd.cjs); two far sides that hang: a
 * .profile that never returns (the launch line reads it for PATH) and an
 * "aiterm-mcp" that never answers initialize.  Either way the call fails
 * with REMOTE_UNREACHABLE naming the step that hung, ping is answered
 * while it waits, no ssh of ours is left, and the next call tries again.
 * And a far side that answers initialize as something the relay cannot
 * use: an aiterm-mcp older than the relay needs (REMOTE_AITERM_TOO_OLD),
 * another MCP server (REMOTE_AITERM_MISSING), each naming what it found.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { remoteRig, sshProcs } = require('./lib/remote.cjs');

const T = { timeout: 120000 };
const START_MS = 1500;

/* Ends the far processes that wrote their PIDs to file (ours: the test started them). */
function endFar(file) {
	let pids = [];
	try {
		pids = fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
	} catch { /* none started */ }
	for (const pid of pids) {
		try {
			process.kill(pid, 'SIGKILL');
		} catch { /* gone */ }
	}
}

/* Calls pty_list there while pinging; checks the failure, the pings and what is left. */
async function givesUp(r, stuck) {
	const { c, rig } = r;
	const t0 = Date.now();
	const call = c.err('pty_list', { remote: 'far' }, 60000);
	let slowest = 0, pings = 0;
	let done = false;
	call.finally(() => { done = true; });
	while (!done) {
		const p0 = Date.now();
		await c.client.ping();
		slowest = Math.max(slowest, Date.now() - p0);
		pings++;
		await new Promise((res) => setTimeout(res, 100));
	}
	const { text } = await call;
	const took = Date.now() - t0;
	assert.match(text, new RegExp(`^pty_list \\(remote far\\): REMOTE_UNREACHABLE: far did not start aiterm-mcp within 1\\.5 s: ${stuck}`), text);
	assert.ok(took >= START_MS - 100 && took < START_MS + 8000, `gave up after ${took} ms`);
	assert.ok(pings >= 3 && slowest < 500, `${pings} pings while waiting, the slowest ${slowest} ms`);
	await new Promise((res) => setTimeout(res, 300));
	assert.deepEqual(sshProcs(rig), [], 'the ssh of the attempt is ended');
	/* Not remembered as down: the next call connects again (and hangs again). */
	const again = await c.err('pty_list', { remote: 'far' }, 60000);
	assert.match(again.text, /REMOTE_UNREACHABLE: far did not start aiterm-mcp within 1\.5 s/, again.text);
	await c.ok('pty_list', {});
}

test('REM-RELAY: a far .profile that never returns: REMOTE_UNREACHABLE at the deadline, ping served meanwhile', T, async (t) => {
	let home;
	const r = await remoteRig(t, {
		sshd: (far) => {
			home = path.join(far, 'home');
			return { user: { name: 'aiterm-far', home, shell: '/bin/sh' } };
		},
		prepare: () => {
			fs.mkdirSync(home, { mode: 0o700 });
			fs.writeFileSync(path.join(home, '.profile'), 'echo $$ >> "$HOME/hang.pid"; exec sleep 97\n');
		},
		env: { AITERM_REMOTE_START_MS: String(START_MS) },
	});
	if (!r)
		return;
	/* Before the rig's cleanup removes the far folder. */
	try {
		await givesUp(r, 'the launch line did not say ready');
	} finally {
		endFar(path.join(home, 'hang.pid'));
	}
});

test('REM-RELAY: a far aiterm-mcp that never answers initialize: REMOTE_UNREACHABLE at the deadline', T, async (t) => {
	let pidFile;
	const r = await remoteRig(t, {
		mcp: (far) => path.join(far, 'silent-mcp'),
		prepare: (far) => {
			pidFile = path.join(far, 'hang.pid');
			fs.writeFileSync(path.join(far, 'silent-mcp'), `#!/bin/sh\necho $$ >> ${JSON.stringify(pidFile)}\nexec sleep 97\n`, { mode: 0o755 });
		},
		env: { AITERM_REMOTE_START_MS: String(START_MS) },
	});
	if (!r)
		return;
	try {
		await givesUp(r, 'aiterm-mcp there did not answer initialize');
	} finally {
		endFar(pidFile);
	}
});

/* A far "aiterm-mcp" that answers initialize as name version, then nothing. */
function fakeServer(file, name, version) {
	fs.writeFileSync(file, `#!/usr/bin/env python3
import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("method") == "initialize":
        print(json.dumps({"jsonrpc": "2.0", "id": m["id"], "result": {"protocolVersion": "2025-06-18",
            "capabilities": {"tools": {}}, "serverInfo": {"name": ${JSON.stringify(name)}, "version": ${JSON.stringify(version)}}}}), flush=True)
`, { mode: 0o755 });
}

test('REM-RELAY: a far aiterm-mcp too old, or another MCP server, is a clear error naming what was found', T, async (t) => {
	const r = await remoteRig(t, {
		mcp: (far) => path.join(far, 'fake-mcp'),
		prepare: (far) => fakeServer(path.join(far, 'fake-mcp'), 'aiterm-mcp', '0.0.9'),
	});
	if (!r)
		return;
	const { c, far, rig } = r;
	const old = await c.err('pty_list', { remote: 'far' }, 60000);
	assert.match(old.text, /^pty_list \(remote far\): REMOTE_AITERM_TOO_OLD: far has aiterm-mcp 0\.0\.9; the relay needs 0\.1\.0 or later; nothing was sent$/, old.text);
	await new Promise((res) => setTimeout(res, 300));
	assert.deepEqual(sshProcs(rig), [], 'the ssh is ended');
	fakeServer(path.join(far, 'fake-mcp'), 'some-other-server', '3.2.1');
	const other = await c.err('pty_open', { remote: 'far', name: 'x' }, 60000);
	assert.match(other.text, /REMOTE_AITERM_MISSING: far: the program run as aiterm-mcp answered as some-other-server 3\.2\.1/, other.text);
	/* A newer one is fine as far as the relay is concerned. */
	fakeServer(path.join(far, 'fake-mcp'), 'aiterm-mcp', '0.10.0');
	const newer = await c.call('pty_list', { remote: 'far' }, 3000).then((x) => x, (e) => e);
	assert.ok(!/REMOTE_AITERM/.test(JSON.stringify(newer)), JSON.stringify(newer));
	await c.ok('pty_list', {});
});
