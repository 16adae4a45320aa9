'use strict';
/*
 * DLV-CORE REM-RELAY (issue 32, ADR 0032): a relayed dispatch's delivery
 * lives in its own store, <state root>/remote-parent-deliveries/, which
 * readers that do not know "remote" never open, and a child is known by
 * its host: the first 16 hex of sha256(host), '-', its session.  A
 * session here and one on another host (this machine through a real
 * sshd on 127.0.0.1, lib/remote.cjs) of the same name never block each
 * other: each parent's record of one holds that one alone, while a
 * child there owed to one parent refuses another parent's relayed send
 * before anything goes to the host.  The records are the server's own
 * format, written in the test's state root after the server started (so
 * that none is taken over); the sends go through the real server.  A
 * relayed record an earlier version left beside the local ones is still
 * read, and still known by its host.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const test = require('node:test');
const assert = require('node:assert/strict');
const { show } = require('./lib/pty.cjs');
const { remoteRig, sshProcs } = require('./lib/remote.cjs');
const { serverBinary } = require('./lib/server.cjs');

const T = { timeout: 180000 };
const hostKey = (host) => crypto.createHash('sha256').update(host).digest('hex').slice(0, 16);

/* A waiting (or ready) record of a Claude parent (conversation conv) for session, on host or here. */
function owed(rig, { session, conv, host, folder, state = 'waiting' }) {
	const dir = path.join(rig.dirs.state, folder || (host ? 'remote-parent-deliveries' : 'parent-deliveries'));
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	const id = 'd' + crypto.randomBytes(8).toString('hex');
	const now = Date.now();
	const rec = {
		format: 1, id, session_id: session, state, parent: 'claude', turn: 1, event_cursor: '1:0',
		owner: { pid: 0, start: '' }, created_ms: now, updated_ms: now, parent_ref: `toolu_${id}`, conversation: conv,
	};
	if (host)
		rec.remote = { host, delivery_id: 'd' + crypto.randomBytes(8).toString('hex') };
	if (state === 'ready') {
		rec.outcome = 'done';
		fs.writeFileSync(path.join(dir, `${id}.body`), `Answer of ${session}.\n`, { mode: 0o600 });
	}
	fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(rec), { mode: 0o600 });
	return { id, dir, rec };
}

/* A local agent session named id: a stand-in codex that never gets ready (the claim is checked before). */
async function localAgent(rig, id) {
	const bin = path.join(rig.dirs.root, 'bin');
	fs.mkdirSync(bin, { recursive: true });
	fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\nif [ "$1" = --version ]; then echo "codex-cli 0.999.0"; exit 0; fi\nexec sleep 600\n', { mode: 0o700 });
	const c = await rig.server({ env: { PATH: `${bin}:${rig.env.PATH}` } });
	rig.sessions.add(id);
	const l = await c.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.root, name: id, timeout: 2 }, 60000);
	assert.equal(l.structuredContent.session_id, id, show(l));
	return c;
}

const text = (r) => r.content.map((x) => x.text).join('\n');

test('DLV-CORE REM-RELAY: a session here and one on another host of the same name never block each other; one there is claimed by its host', T, async (t) => {
	const r = await remoteRig(t, { aliases: ['far2'] });
	if (!r)
		return;
	const { rig, c } = r;
	const local = await localAgent(rig, 'same');

	/* A Claude parent is owed the answer of "same" on far. */
	const there = owed(rig, { session: 'same', conv: 'conv-a', host: 'far' });
	/* Here, "same" is another child: a send to it is not refused by the one there. */
	for (const wait of [false, true]) {
		const res = await local.call('pty_send', Object.assign({ session_id: 'same', text: 'hi' }, wait ? { wait, timeout: 2 } : {}), 60000);
		assert.doesNotMatch(text(res), /CHILD_CLAIM/, `wait=${wait}: ${show(res)}`);
		/* Refused only as an agent that is not ready (its launch left start-up not_checked). */
		assert.match(text(res), /cannot take a prompt now|not ready for a prompt/, show(res));
	}
	/* There, it owes its answer: another parent's relayed send is refused before anything goes to the host. */
	assert.equal(sshProcs(rig).length, 0);
	for (const wait of [false, true]) {
		const res = await c.call('pty_send', Object.assign({ remote: 'far', session_id: 'same', text: 'hi' }, wait ? { wait, timeout: 2 } : {}), 60000);
		assert.equal(res.isError, true, show(res));
		assert.equal(text(res), `pty_send (remote far): CHILD_CLAIMED: session same on far owes its answer to another parent (claude, delivery ${there.id}); nothing was sent (read it with pty_read, or send once ${there.id} is done)`);
	}
	assert.equal(sshProcs(rig).length, 0, 'nothing went to the host');
	/* Another host's "same" is another child too: the send goes there (which has no such session). */
	const other = await c.call('pty_send', { remote: 'far2', session_id: 'same', text: 'hi', wait: true, timeout: 2 }, 60000);
	assert.equal(other.isError, true, show(other));
	assert.doesNotMatch(text(other), /CHILD_CLAIM/, show(other));
	assert.match(text(other), /unknown session 'same'/, `it was sent there: ${show(other)}`);

	/* A Claude parent is owed the answer of "same" here: the one there is not held by it. */
	fs.rmSync(path.join(there.dir, `${there.id}.json`));
	const here = owed(rig, { session: 'same', conv: 'conv-b' });
	const far = await c.call('pty_send', { remote: 'far', session_id: 'same', text: 'hi', wait: true, timeout: 2 }, 60000);
	assert.doesNotMatch(text(far), /CHILD_CLAIM/, show(far));
	assert.match(text(far), /unknown session 'same'/, `it was sent there: ${show(far)}`);
	const mine = await local.call('pty_send', { session_id: 'same', text: 'hi' }, 60000);
	assert.match(text(mine), new RegExp(`^pty_send: CHILD_CLAIMED: session same owes its answer to another parent \\(claude, delivery ${here.id}\\)`), show(mine));

	/* The layout: each child's claim lock in its own store, the host's hash before the name. */
	assert.ok(fs.existsSync(path.join(rig.dirs.state, 'parent-deliveries', 'child-same.lock')));
	assert.ok(fs.existsSync(path.join(rig.dirs.state, 'remote-parent-deliveries', `child-${hostKey('far')}-same.lock`)));
	assert.ok(fs.existsSync(path.join(rig.dirs.state, 'remote-parent-deliveries', `child-${hostKey('far2')}-same.lock`)));
	assert.deepEqual(fs.readdirSync(path.join(rig.dirs.state, 'parent-deliveries')).filter((f) => f.startsWith('child-')), ['child-same.lock']);
});

test('DLV-CORE REM-RELAY: relayed records are read from their own store and from where an earlier version left them; the hook finds them', T, async (t) => {
	const r = await remoteRig(t);
	if (!r)
		return;
	const { rig, c } = r;
	const local = await localAgent(rig, 'same');
	const there = owed(rig, { session: 'same', conv: 'conv-a', host: 'far', state: 'ready' });
	/* An earlier version kept a relayed record beside the local ones. */
	const old = owed(rig, { session: 'same', conv: 'conv-c', host: 'far', folder: 'parent-deliveries' });
	const list = await c.ok('parent_deliveries', {});
	const line = (id) => list.text.split('\n').find((l) => l.startsWith(`${id}\t`));
	assert.equal(line(there.id), `${there.id}\tready\tsame turn 1 on far\tdone`, list.text);
	assert.equal(line(old.id), `${old.id}\twaiting\tsame turn 1 on far`, list.text);
	assert.equal(list.sc.total, 2);
	/* The old one is still the far child's: "same" here is free. */
	const res = await local.call('pty_send', { session_id: 'same', text: 'hi' }, 60000);
	assert.doesNotMatch(text(res), /CHILD_CLAIM/, show(res));
	const far = await c.call('pty_send', { remote: 'far', session_id: 'same', text: 'hi' }, 60000);
	assert.match(text(far), new RegExp(`CHILD_CLAIMED: session same on far owes its answer to another parent \\(claude, delivery ${old.id}\\)`), show(far));

	/* The Claude parent's hook finds the relayed record by its id and hands it over. */
	const hooks = path.join(rig.dirs.state, 'claude-parent-hooks');
	fs.mkdirSync(hooks, { recursive: true, mode: 0o700 });
	fs.writeFileSync(path.join(hooks, `${there.rec.parent_ref}.delivery`), there.id);
	const hook = spawn(path.join(path.dirname(serverBinary()), 'aiterm-hook'), ['claude-post', '--state-dir', rig.dirs.state],
		{ env: rig.env, stdio: ['pipe', 'ignore', 'pipe'] });
	hook.stdin.end(JSON.stringify({ session_id: 'conv-a', tool_use_id: there.rec.parent_ref }));
	let err = '';
	hook.stderr.on('data', (b) => { err += b; });
	const code = await new Promise((res) => hook.on('close', res));
	assert.equal(code, 2, err);
	assert.equal(err, `Aiterm: the answer of same (turn 1, delivery ${there.id}):\nAnswer of same.\n`);
	const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'remote-parent-deliveries', `${there.id}.json`), 'utf8'));
	assert.equal(rec.state, 'submitted');
	assert.ok(fs.existsSync(path.join(rig.dirs.state, 'remote-parent-deliveries', `${there.id}.claim`)));
	assert.ok(!fs.existsSync(path.join(rig.dirs.state, 'parent-deliveries', `${there.id}.json`)));
});
