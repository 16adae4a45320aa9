'use strict';
/*
 * DLV-CODEX (issue 33, ADR 0016): the Codex Steer hooks' hand-over, run
 * as Codex runs them (aiterm-hook codex-post / codex-stop, the hook's
 * JSON on stdin, the output on stdout) on a submitted Codex delivery kept
 * in the test's own state root, read back through the real server
 * (parent_deliveries).  Codex's app-server is a stand-in here (the real
 * one is in tests/harness/parent-codex.test.cjs): it speaks the 0.171.0
 * protocol (`codex app-server generate-json-schema --experimental`:
 * thread/queue/list {data, nextCursor}, thread/queue/delete {deleted})
 * and says what it was asked, so that the faults the real one cannot be
 * made to show are shown: a delete answered false, an output cut short,
 * a hook that died mid-way.
 */
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig } = require('./lib/pty.cjs');
const { serverBinary } = require('./lib/server.cjs');

const T = { timeout: 60000 };
const bin = (name) => path.join(path.dirname(serverBinary()), name);

/* codex app-server as far as the hook uses it; every request logged. */
const STANDIN = `#!${process.execPath}
const fs = require('fs');
const log = (m) => fs.appendFileSync(process.env.STANDIN_LOG, JSON.stringify(m) + '\\n');
let buf = '';
process.stdin.on('data', (b) => {
	buf += b;
	let i;
	while ((i = buf.indexOf('\\n')) >= 0) {
		const m = JSON.parse(buf.slice(0, i));
		buf = buf.slice(i + 1);
		log({ method: m.method, params: m.params, home: process.env.CODEX_HOME, argv: process.argv.slice(2) });
		if (m.id === undefined)
			continue;
		let result = {};
		if (m.method === 'thread/queue/list')
			result = { data: JSON.parse(process.env.STANDIN_QUEUE || '[]'), nextCursor: null };
		else if (m.method === 'thread/queue/delete')
			result = { deleted: process.env.STANDIN_DELETE !== 'false' };
		process.stdout.write(JSON.stringify({ id: m.id, result }) + '\\n');
	}
});
`;

function setupRun(rig) {
	const dir = path.join(rig.dirs.state, 'parent-deliveries');
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.chmodSync(rig.dirs.state, 0o700);
	const codex = path.join(rig.dirs.home, 'standin-codex');
	fs.writeFileSync(codex, STANDIN, { mode: 0o755 });
	const home = path.join(rig.dirs.home, '.codex-parent');
	fs.mkdirSync(home, { recursive: true });
	return { dir, codex, home, log: path.join(rig.dirs.home, 'standin.log') };
}

/* A Codex parent's delivery codex-queue already put on the thread's queue. */
function codexDelivery(run, body) {
	const id = 'd' + crypto.randomBytes(8).toString('hex');
	const thread = crypto.randomUUID();
	const now = Date.now();
	const rec = {
		format: 1, id, session_id: 'agent-child', state: 'ready', parent: 'codex', turn: 1, event_cursor: '1:0',
		owner: { pid: 0, start: '' }, created_ms: now - 5000, updated_ms: now, conversation: thread, home: run.home, outcome: 'done',
	};
	fs.writeFileSync(path.join(run.dir, `${id}.body`), body, { mode: 0o600 });
	fs.writeFileSync(path.join(run.dir, `${id}.json`), JSON.stringify(Object.assign({}, rec, { state: 'submitted' })), { mode: 0o600 });
	fs.writeFileSync(path.join(run.dir, `${id}.claim`), `codex-queue ${process.pid}\n`, { mode: 0o600 });
	const queue = [{ id: `q-${id}`, clientUserMessageId: id, input: [{ type: 'text', text: `Aiterm: the answer of agent-child (turn 1, delivery ${id}):\n${body}` }] }];
	return { id, thread, queue };
}

function hook(rig, run, verb, input, opts = {}) {
	const env = Object.assign({}, rig.env, { CODEX_HOME: run.home, AITERM_CODEX_BIN: run.codex, STANDIN_LOG: run.log,
		STANDIN_QUEUE: JSON.stringify(opts.queue || []), STANDIN_DELETE: opts.deleted === false ? 'false' : 'true' });
	const argv = [bin('aiterm-hook'), verb, '--state-dir', rig.dirs.state];
	const child = opts.closeStdout ?
		spawn('/bin/sh', ['-c', 'exec "$0" "$@" >&-', ...argv], { env, stdio: ['pipe', 'ignore', 'pipe'] }) :
		spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'pipe', 'pipe'] });
	let out = '', err = '';
	if (child.stdout)
		child.stdout.on('data', (b) => { out += b; });
	child.stderr.on('data', (b) => { err += b; });
	child.stdin.end(JSON.stringify(input));
	return new Promise((resolve) => child.on('exit', (code) => resolve({ code, out, err })));
}

const calls = (run) => fs.existsSync(run.log) ? fs.readFileSync(run.log, 'utf8').trim().split('\n').map((l) => JSON.parse(l)) : [];
const owned = (rig) => { const p = path.join(rig.dirs.state, 'codex-hooks'); return fs.existsSync(p) ? fs.readdirSync(p) : []; };

async function listed(c, id) {
	const list = await c.ok('parent_deliveries', {});
	return { line: list.text.split('\n').find((l) => l.startsWith(`${id}\t`)), rec: list.sc.deliveries.find((x) => x.id === id) };
}

test('DLV-CODEX Steer: no answer owed to this thread: the hook prints nothing and starts no app-server', T, async (t) => {
	const rig = new Rig(t);
	const run = setupRun(rig);
	const d = codexDelivery(run, 'Not for that thread.\n');
	const r = await hook(rig, run, 'codex-post', { session_id: crypto.randomUUID(), hook_event_name: 'PostToolUse' }, { queue: d.queue });
	assert.equal(r.code, 0, r.err);
	assert.equal(r.out, '');
	assert.deepEqual(calls(run), [], 'codex app-server was not started');
});

test('DLV-CODEX Steer: PostToolUse prints a queued answer Codex deleted (additionalContext); once', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const run = setupRun(rig);
	const body = 'The child says 42.\n[turn 1 done]\n';
	const d = codexDelivery(run, body);
	const r = await hook(rig, run, 'codex-post', { session_id: d.thread, hook_event_name: 'PostToolUse' }, { queue: d.queue });
	assert.equal(r.code, 0, r.err);
	assert.deepEqual(JSON.parse(r.out), { hookSpecificOutput: { hookEventName: 'PostToolUse',
		additionalContext: `Aiterm: the answer of agent-child (turn 1, delivery ${d.id}):\n${body}` } });
	const seen = calls(run);
	assert.deepEqual(seen.map((m) => m.method), ['initialize', 'initialized', 'thread/queue/list', 'thread/queue/delete']);
	assert.ok(seen.every((m) => m.home === run.home && m.argv[0] === 'app-server'));
	assert.deepEqual(seen[3].params, { threadId: d.thread, queuedSubmissionId: `q-${d.id}` });
	const { line, rec } = await listed(c, d.id);
	assert.equal(line, `${d.id}\tsubmitted\tagent-child turn 1\tdone\tsteer emitted`);
	assert.equal(rec.codex_hook.state, 'emitted');
	assert.equal(rec.codex_hook.thread, d.thread);
	assert.equal(rec.codex_hook.body_sha256, crypto.createHash('sha256').update(body).digest('hex'));
	/* The same answer again (still listed): held, never printed twice. */
	const again = await hook(rig, run, 'codex-post', { session_id: d.thread }, { queue: d.queue });
	assert.equal(again.out, '');
	assert.equal(owned(rig).length, 1);
});

test('DLV-CODEX Steer: Stop continues the turn with the answer ({"decision":"block"})', T, async (t) => {
	const rig = new Rig(t);
	const run = setupRun(rig);
	const d = codexDelivery(run, 'Late answer.\n');
	const r = await hook(rig, run, 'codex-stop', { session_id: d.thread, hook_event_name: 'Stop', stop_hook_active: false }, { queue: d.queue });
	assert.equal(r.code, 0, r.err);
	assert.deepEqual(JSON.parse(r.out), { decision: 'block', reason: `Aiterm: the answer of agent-child (turn 1, delivery ${d.id}):\nLate answer.\n` });
});

test('DLV-CODEX Steer: a delete Codex answers false is not printed (the queue has it)', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const run = setupRun(rig);
	const d = codexDelivery(run, 'Codex ran it already.\n');
	const r = await hook(rig, run, 'codex-post', { session_id: d.thread }, { queue: d.queue, deleted: false });
	assert.equal(r.code, 0, r.err);
	assert.equal(r.out, '');
	const { rec } = await listed(c, d.id);
	assert.equal(rec.codex_hook.state, 'queued');
	assert.equal(rec.codex_hook.error, undefined);
});

test('DLV-CODEX Steer: an output cut short is unknown (CODEX_HOOK_DELIVERY_UNCONFIRMED), the body kept, never printed again', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const run = setupRun(rig);
	const body = 'Written nowhere.\n';
	const d = codexDelivery(run, body);
	const r = await hook(rig, run, 'codex-post', { session_id: d.thread }, { queue: d.queue, closeStdout: true });
	assert.equal(r.code, 1, r.err);
	const { line, rec } = await listed(c, d.id);
	assert.equal(rec.state, 'unknown', 'the delivery as a reader sees it');
	assert.equal(rec.codex_hook.state, 'unknown');
	assert.equal(rec.codex_hook.why, 'write_failed');
	assert.equal(rec.codex_hook.error, 'CODEX_HOOK_DELIVERY_UNCONFIRMED');
	assert.equal(line, `${d.id}\tunknown\tagent-child turn 1\tdone\tsteer unknown CODEX_HOOK_DELIVERY_UNCONFIRMED`);
	assert.equal(fs.readFileSync(path.join(run.dir, `${d.id}.body`), 'utf8'), body, 'the body is kept');
	const again = await hook(rig, run, 'codex-post', { session_id: d.thread }, { queue: d.queue });
	assert.equal(again.out, '', 'never resent');
});

test('DLV-CODEX Steer: a hook that died while taking an answer reads as unknown (CODEX_HOOK_DELIVERY_UNCONFIRMED)', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const run = setupRun(rig);
	const d = codexDelivery(run, 'Taken by a hook that died.\n');
	const dir = path.join(rig.dirs.state, 'codex-hooks');
	fs.mkdirSync(dir, { mode: 0o700 });
	/* As the hook leaves it between the delete and its output: removing, its pid gone. */
	fs.writeFileSync(path.join(dir, `${d.id}.0000000000000000.${d.thread}.0000000000000000`), JSON.stringify({
		thread: d.thread, delivery_id: d.id, body_sha256: '00', state: 'removing', pid: 2147483000, start: '1' }));
	const { rec } = await listed(c, d.id);
	assert.equal(rec.state, 'unknown');
	assert.equal(rec.codex_hook.state, 'unknown');
	assert.equal(rec.codex_hook.why, 'hook_ended');
	assert.equal(rec.codex_hook.error, 'CODEX_HOOK_DELIVERY_UNCONFIRMED');
	const r = await hook(rig, run, 'codex-post', { session_id: d.thread }, { queue: d.queue });
	assert.equal(r.out, '', 'never resent');
});
