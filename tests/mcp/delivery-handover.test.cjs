'use strict';
/*
 * DLV-CLAUDE DLV-CORE DLV-WAIT (issue 32, ADR 0032): a hand-over is
 * submitted only once it is written.  The real Claude parent hook
 * (aiterm-hook claude-post, as Claude Code runs it: the hook's JSON on
 * stdin, the answer on stderr, exit 2) hands over a ready Claude
 * delivery kept in the test's own state root, as the server writes it;
 * the state is then read through the real server (parent_deliveries) and
 * on disk.  Written whole: submitted.  stderr closed, or a pipe whose
 * reader closed it before the answer was ready: unknown (write_failed),
 * the body kept, never handed over again (aiterm-wait exits 1).  A pipe
 * nobody reads (full): still ready while the hook is stuck in the write,
 * unknown (handover_interrupted) once it is killed (Claude Code's timeout).
 */
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, until } = require('./lib/pty.cjs');
const { serverBinary } = require('./lib/server.cjs');

const T = { timeout: 90000 };
const bin = (name) => path.join(path.dirname(serverBinary()), name);

function folder(rig, name = 'parent-deliveries') {
	const dir = path.join(rig.dirs.state, name);
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.chmodSync(rig.dirs.state, 0o700);
	return dir;
}

/*
 * A Claude parent's delivery as the server keeps it (owner gone), in
 * state (waiting or ready) with body, and the link its PostToolUse hook
 * reads; returns what the hook's input and the checks need.
 */
function claudeDelivery(rig, { state = 'ready', body, session = 'agent-child', remote }) {
	const dir = folder(rig, remote ? 'remote-parent-deliveries' : 'parent-deliveries');
	const id = 'd' + crypto.randomBytes(8).toString('hex');
	const ref = `toolu_${crypto.randomBytes(6).toString('hex')}`;
	const conv = crypto.randomUUID();
	const now = Date.now();
	const rec = {
		format: 1, id, session_id: session, state, parent: 'claude', turn: 1, event_cursor: '1:0',
		owner: { pid: 0, start: '' }, created_ms: now - 5000, updated_ms: now, parent_ref: ref, conversation: conv,
	};
	if (state === 'ready')
		rec.outcome = 'done';
	if (remote)
		rec.remote = { host: remote, delivery_id: 'd' + crypto.randomBytes(8).toString('hex') };
	fs.writeFileSync(path.join(dir, `${id}.body`), body, { mode: 0o600 });
	fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(rec), { mode: 0o600 });
	const hooks = path.join(rig.dirs.state, 'claude-parent-hooks');
	fs.mkdirSync(hooks, { recursive: true, mode: 0o700 });
	fs.writeFileSync(path.join(hooks, `${ref}.delivery`), id, { mode: 0o600 });
	const input = JSON.stringify({ session_id: conv, tool_use_id: ref, tool_name: 'mcp__aiterm__pty_send', cwd: rig.dirs.home });
	return { id, dir, rec, input };
}

/* The record made ready now (the server's write: body first, then the record, atomically). */
function makeReady(d) {
	const tmp = path.join(d.dir, `.${d.id}.tmp`);
	fs.writeFileSync(tmp, JSON.stringify(Object.assign({}, d.rec, { state: 'ready', outcome: 'done', updated_ms: Date.now() })));
	fs.renameSync(tmp, path.join(d.dir, `${d.id}.json`));
}

const onDisk = (d) => JSON.parse(fs.readFileSync(path.join(d.dir, `${d.id}.json`), 'utf8'));

/* Starts argv with stdin input; stderr as given ('pipe', 'ignore'...). */
function start(argv, env, input, stderr = 'pipe') {
	const child = spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'pipe', stderr] });
	/* A program that ends before reading its input closes the pipe: not this test's failure. */
	child.stdin.on('error', (e) => { if (e.code !== 'EPIPE') throw e; });
	child.stdin.end(input);
	child.exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
	return child;
}

function hookArgv(rig) {
	return [bin('aiterm-hook'), 'claude-post', '--state-dir', rig.dirs.state];
}

async function listed(c, id) {
	const list = await c.ok('parent_deliveries', {});
	const line = list.text.split('\n').find((l) => l.startsWith(`${id}\t`));
	assert.ok(line, list.text);
	return { line, rec: list.sc.deliveries.find((x) => x.id === id) };
}

/* aiterm-wait on a delivery whose hand-over went wrong: exit 1, nothing printed again. */
async function neverAgain(rig, d) {
	const w = start([bin('aiterm-wait'), '--state-dir', rig.dirs.state, '--timeout', '5', d.id], rig.env, '');
	let out = '', err = '';
	w.stdout.on('data', (b) => { out += b; });
	w.stderr.on('data', (b) => { err += b; });
	const { code } = await w.exited;
	assert.equal(code, 1, err);
	assert.equal(out, '');
	assert.match(err, new RegExp(`delivery ${d.id} is unknown`));
}

test('DLV-CLAUDE: the Claude parent hook\'s delivery is submitted once its answer is written whole', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const body = 'The child says 42.\n[turn 1 done]\n';
	const d = claudeDelivery(rig, { body });
	const h = start(hookArgv(rig), rig.env, d.input);
	let err = '';
	h.stderr.on('data', (b) => { err += b; });
	const { code } = await h.exited;
	assert.equal(code, 2, err);
	assert.equal(err, `Aiterm: the answer of agent-child (turn 1, delivery ${d.id}):\n${body}`);
	assert.equal(onDisk(d).state, 'submitted', 'the hook wrote it down once written');
	assert.equal(onDisk(d).outcome, 'done', 'the child\'s outcome stays');
	const { line } = await listed(c, d.id);
	assert.equal(line, `${d.id}\tsubmitted\tagent-child turn 1\tdone`);
	assert.match(fs.readFileSync(path.join(d.dir, `${d.id}.claim`), 'utf8'), /^claude-post \d+\n$/);
	/* Nothing but the record's own files (no claim left half-made). */
	assert.deepEqual(fs.readdirSync(d.dir).filter((f) => f.startsWith(d.id)).sort(),
		['body', 'claim', 'json'].map((e) => `${d.id}.${e}`));
});

test('DLV-CLAUDE: stderr closed: the hook\'s write fails, the delivery is unknown, its body kept and never handed over again', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const body = 'Written nowhere.\n[turn 1 done]\n';
	const d = claudeDelivery(rig, { body });
	/* As a parent that closed it would run the hook: no descriptor 2 at all. */
	const h = start(['/bin/sh', '-c', 'exec "$0" "$@" 2>&-', ...hookArgv(rig)], rig.env, d.input, 'ignore');
	const { code } = await h.exited;
	assert.equal(code, 1, 'not the wake-up signal: nothing was written');
	assert.equal(onDisk(d).state, 'unknown');
	assert.equal(onDisk(d).outcome, 'write_failed');
	const { line } = await listed(c, d.id);
	assert.equal(line, `${d.id}\tunknown\tagent-child turn 1\twrite_failed`);
	assert.equal(fs.readFileSync(path.join(d.dir, `${d.id}.body`), 'utf8'), body, 'the body is kept');
	await neverAgain(rig, d);
});

test('DLV-CLAUDE: a pipe closed before the answer is ready: unknown (write_failed), the hook says so instead of dying', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const body = 'Cut off.\n[turn 1 done]\n';
	const d = claudeDelivery(rig, { state: 'waiting', body });
	const h = start(hookArgv(rig), rig.env, d.input);
	/* The hook waits for the turn; its reader goes away first. */
	await new Promise((r) => setTimeout(r, 500));
	h.stderr.destroy();
	makeReady(d);
	const { code, signal } = await h.exited;
	assert.deepEqual({ code, signal }, { code: 1, signal: null }, 'an error it reports, not SIGPIPE');
	assert.equal(onDisk(d).state, 'unknown');
	assert.equal(onDisk(d).outcome, 'write_failed');
	const { line, rec } = await listed(c, d.id);
	assert.equal(line, `${d.id}\tunknown\tagent-child turn 1\twrite_failed`);
	assert.equal(rec.state, 'unknown');
	await neverAgain(rig, d);
});

test('DLV-CLAUDE: a full pipe: ready while the hook is stuck writing, unknown (handover_interrupted) once it is killed', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	/* Far more than any pipe holds; nobody reads the hook's stderr. */
	const body = 'x'.repeat(8 << 20) + '\n[turn 1 done]\n';
	const d = claudeDelivery(rig, { body });
	const h = start(hookArgv(rig), rig.env, d.input);
	h.stderr.pause();
	await until(() => fs.existsSync(path.join(d.dir, `${d.id}.claim`)), 20000, 'the hook claimed it');
	await new Promise((r) => setTimeout(r, 1000));
	assert.equal(h.exitCode, null, 'the hook is still in its write');
	let seen = await listed(c, d.id);
	assert.equal(seen.line, `${d.id}\tready\tagent-child turn 1\tdone`, 'not submitted before the write is done');
	assert.equal(onDisk(d).state, 'ready');
	/* Claude Code's timeout, or the parent gone: the hook is killed mid-write. */
	h.kill('SIGKILL');
	await h.exited;
	seen = await listed(c, d.id);
	assert.equal(seen.line, `${d.id}\tunknown\tagent-child turn 1\thandover_interrupted`);
	assert.equal(onDisk(d).state, 'unknown', 'the server wrote it down');
	assert.equal(onDisk(d).outcome, 'handover_interrupted');
	assert.equal(fs.readFileSync(path.join(d.dir, `${d.id}.body`), 'utf8'), body, 'the body is kept');
	await neverAgain(rig, d);
});
