'use strict';
/*
 * DLV-CORE, DLV-WAIT: a child agent's answer reaches a parent that has no
 * receiver of its own by itself.  The parent here is the test, an MCP
 * client like any generic one; the child is the real Claude Code CLI
 * against the mock Anthropic server.  The dispatch receipt carries
 * parent_delivery and wait_process; the waiter (aiterm-wait, a separate
 * process) prints the answer once the turn ends, exactly once; a server
 * killed while the turn runs leaves the record to the next server, which
 * takes it over and delivers; a child killed mid-turn delivers that end.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig, seedClaude } = require('./lib/agent-rig.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { serverBinary } = require('../mcp/lib/server.cjs');

const T = { timeout: 120000 };

async function rigWithMock(t) {
	const mock = await startClaudeMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const rig = new AgentRig(t);
	seedClaude(rig.dirs.home, rig.dirs.work, {});
	rig.show(t);
	await rig.server(mock.url);
	return { rig, mock };
}

/* Runs argv (input on stdin when given); resolves {code, stdout, stderr, ms}. */
function run(argv, env, input, ms = 60000) {
	return new Promise((resolve) => {
		const t0 = Date.now();
		const child = spawn(argv[0], argv.slice(1), { env, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
		if (input !== undefined)
			child.stdin.end(input);
		let stdout = '', stderr = '';
		child.stdout.on('data', (b) => { stdout += b; });
		child.stderr.on('data', (b) => { stderr += b; });
		const timer = setTimeout(() => child.kill('SIGKILL'), ms);
		child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr, ms: Date.now() - t0 }); });
	});
}

/* The receipt's wait_process. */
const waiter = (argv, env, ms) => run(argv, env, undefined, ms);

function receipt(r) {
	assert.equal(r.isError, false, r.text);
	const m = r.text.match(/^delivery: (d[0-9a-f]{16}) waiting; its answer is printed by: (.+)$/m);
	assert.ok(m, `the receipt names the delivery: ${r.text}`);
	assert.deepEqual(r.sc.parent_delivery, { delivery_id: m[1], state: 'waiting' });
	assert.equal(r.sc.wait_process.argv[r.sc.wait_process.argv.length - 1], m[1]);
	assert.equal(r.sc.wait_command, m[2]);
	return { id: m[1], argv: r.sc.wait_process.argv };
}

function sid(text) {
	return text.match(/^launched claude-code \S+ in (\S+) \(launch /m)[1];
}

test('DLV-WAIT: the launch receipt names the waiter; it prints the turn\'s answer once, a second waiter is refused', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Delivered answer one.', chunks: 2, delayMs: 300, holdMs: 1500 });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'First question?' });
	const d = receipt(l);
	/* Started while the turn runs: the waiter waits, it does not poll the child. */
	const w = await waiter(d.argv, rig.env);
	assert.equal(w.code, 0, w.stderr);
	assert.match(w.stdout, /^Delivered answer one\.\n\[turn 1 done( · [\d.]+s)?\]\n$/, w.stdout);
	const again = await waiter(d.argv, rig.env, 10000);
	/*
	 * Grok Build also runs the hooks of ~/.claude/settings.json and
	 * ~/.cursor/hooks.json: Aiterm's hooks leave a delivery that is not
	 * their parent's alone (a second delivery below checks it unclaimed).
	 */
	assert.equal(again.code, 3, again.stderr);
	assert.match(again.stderr, /already taken/);
	/* A second turn is its own delivery. */
	mock.push({ type: 'text', text: 'Delivered answer two.' });
	const s = await rig.call('pty_send', { session_id: sid(l.text), text: 'Second question?' });
	const d2 = receipt(s);
	assert.notEqual(d2.id, d.id);
	const hook = path.join(path.dirname(d2.argv[0]), 'aiterm-hook');
	for (const [verb, input] of [['claude-post', { session_id: 'grok-session', tool_use_id: 'call_1', tool_response: { content: [{ type: 'text', text: s.text }] } }],
		['cursor-after', { conversation_id: 'grok-conv', result_json: JSON.stringify(s.result) }],
		['cursor-post', { conversation_id: 'grok-conv' }]]) {
		const h = await run([hook, verb, '--state-dir', rig.dirs.state], rig.env, JSON.stringify(input));
		assert.equal(h.code, 0, `${verb}: ${h.stderr}`);
		assert.doesNotMatch(h.stdout, /additional_context/, verb);
	}
	const w2 = await waiter(d2.argv, rig.env);
	assert.equal(w2.code, 0, w2.stderr);
	assert.match(w2.stdout, /^Delivered answer two\.\n\[turn 2 done/, w2.stdout);
	/* The record says it was handed over, once printed whole (ADR 0032), and who got it. */
	const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'parent-deliveries', `${d2.id}.json`), 'utf8'));
	assert.equal(rec.state, 'submitted');
	assert.equal(rec.turn, 2);
	assert.match(fs.readFileSync(path.join(rig.dirs.state, 'parent-deliveries', `${d2.id}.claim`), 'utf8'), /^aiterm-wait \d+\n$/);
	/* parent_deliveries: newest first, a claimed ready one is submitted. */
	const list = await rig.call('parent_deliveries', { session_id: sid(l.text) });
	assert.equal(list.isError, false, list.text);
	const lines = list.text.split('\n');
	assert.match(lines[0], new RegExp(`^${d2.id}\tsubmitted\t\\S+ turn 2\tdone$`), list.text);
	assert.match(lines[1], new RegExp(`^${d.id}\tsubmitted\t\\S+ turn 1\tdone$`), list.text);
	assert.equal(list.sc.total, 2);
	const none = await rig.call('parent_deliveries', { session_id: 'no-such-agent' });
	assert.equal(none.text, 'no parent deliveries');
});

test('DLV-WAIT: pty_send wait=true answers in the call and makes no delivery; bad ids are refused', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Inline.' });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work });
	mock.push({ type: 'text', text: 'Inline two.' });
	const s = await rig.call('pty_send', { session_id: sid(l.text), text: 'Q?', wait: true, timeout: 30 });
	assert.match(s.text, /^Inline/, s.text);
	assert.doesNotMatch(s.text, /^delivery:/m);
	const dir = path.join(rig.dirs.state, 'parent-deliveries');
	assert.deepEqual(fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.json')) : [], []);
	const wait = path.join(path.dirname(process.env.AITERM_MCP || path.join(process.env.top_builddir, 'aiterm-mcp')), 'aiterm-wait');
	const bad = await waiter([wait, '--state-dir', rig.dirs.state, 'nope'], rig.env, 5000);
	assert.equal(bad.code, 2);
	assert.match(bad.stderr, /not a delivery id: nope/);
	const none = await waiter([wait, '--state-dir', rig.dirs.state, 'd0000000000000000'], rig.env, 5000);
	assert.equal(none.code, 2);
	assert.match(none.stderr, /no delivery d0000000000000000/);
});

test('DLV-CORE: the server killed while the turn runs; of two servers started next, one takes the record over and delivers', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Answer after the restart.', holdMs: 4000 });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Slow question?' });
	const d = receipt(l);
	const w = waiter(d.argv, rig.env, 60000);
	rig.srv.kill('SIGKILL');
	await new Promise((r) => setTimeout(r, 300));
	const rec0 = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'parent-deliveries', `${d.id}.json`), 'utf8'));
	assert.equal(rec0.state, 'waiting');
	/* Two servers start at once: exactly one takes the record over. */
	const [a, b] = await Promise.all([rig.start(), rig.start()]);
	const got = await w;
	assert.equal(got.code, 0, got.stderr);
	assert.match(got.stdout, /^Answer after the restart\.\n\[turn 1 done/, got.stdout);
	const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'parent-deliveries', `${d.id}.json`), 'utf8'));
	assert.ok([a.child.pid, b.child.pid].includes(rec.owner.pid), `a new server owns it: ${rec.owner.pid}`);
	/* aiterm-wait printed it whole: it claimed the record (ADR 0032). */
	assert.equal(rec.state, 'submitted');
});

test('DLV-CORE: a child killed mid-turn delivers that end', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Never finished.', holdMs: 20000 });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Doomed?' });
	const d = receipt(l);
	const w = waiter(d.argv, rig.env, 60000);
	const o = await rig.call('pty_observe', { session_id: sid(l.text) });
	const pid = o.sc && o.sc.harness_pid ? o.sc.harness_pid : Number((o.text.match(/harness pid (\d+)/) || [])[1]);
	assert.ok(pid > 0, o.text);
	process.kill(pid, 'SIGKILL');
	const got = await w;
	assert.equal(got.code, 0, got.stderr);
	t.diagnostic(`delivered: ${JSON.stringify(got.stdout)}`);
	assert.match(got.stdout, /exit|ended|did not end/i, got.stdout);
});

test('DLV-CORE: a child owing its answer to one parent refuses another parent\'s text, whatever its kind', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Answer for the first parent.', holdMs: 5000 });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'First parent asks?' });
	const d = receipt(l);
	const w = waiter(d.argv, rig.env, 60000);
	const session = sid(l.text);
	/* A second parent, a Codex one (its receiver needs no hooks), on its own server. */
	rig.clientInfo = { name: 'codex-mcp-client', version: '0.171.0' };
	const other = await rig.start();
	const res = await other.request('tools/call', { name: 'pty_send', arguments: { session_id: session, text: 'Second parent interrupts?' },
		_meta: { threadId: 'thread-second-parent' } }, 'second', 30000);
	const r = res.result || {};
	const text = (r.content || []).map((c) => c.text).join('\n');
	t.diagnostic(`second parent: ${JSON.stringify(text)}`);
	assert.equal(r.isError, true, text);
	assert.match(text, new RegExp(`CHILD_CLAIMED: session ${session} owes its answer to another parent \\(wait, delivery ${d.id}\\); nothing was sent`));
	/* Awaiting the answer in the call makes no record, and is refused the same way. */
	const res2 = await other.request('tools/call', { name: 'pty_send', arguments: { session_id: session, text: 'Second parent waits?', wait: true } ,
		_meta: { threadId: 'thread-second-parent' } }, 'second-wait', 30000);
	const text2 = ((res2.result || {}).content || []).map((c) => c.text).join('\n');
	assert.equal((res2.result || {}).isError, true, text2);
	assert.match(text2, /CHILD_CLAIMED: /);
	const got = await w;
	assert.equal(got.code, 0, got.stderr);
	assert.match(got.stdout, /^Answer for the first parent\.\n/, got.stdout);
	const screen = await rig.call('pty_read', { session_id: session });
	assert.doesNotMatch(screen.text, /Second parent (interrupts|waits)/, 'the refused text never reached the child');
	assert.ok(!mock.requests.some((q) => /Second parent (interrupts|waits)/.test(JSON.stringify(q.body || q))), 'nor its model');
});

test('DLV-WAIT: the official MCP SDK client as a generic parent; aiterm-wait, a separate process, prints the answer', T, async (t) => {
	const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
	const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'Answer for the SDK parent.', holdMs: 1500 });
	const client = new Client({ name: 'sdk-parent', version: '1.0.0' });
	const transport = new StdioClientTransport({ command: serverBinary(), args: [], env: rig.env, cwd: rig.dirs.home, stderr: 'pipe' });
	await client.connect(transport);
	t.after(() => client.close());
	const r = await client.callTool({ name: 'agent_launch', arguments: { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'SDK parent asks?' } },
		undefined, { timeout: 60000 });
	const text = r.content.map((c) => c.text).join('\n');
	t.diagnostic(`receipt: ${JSON.stringify(text)}`);
	/* A generic client gets the text only (no structuredContent unless it opts in, ADR 0006): the command is in it. */
	assert.ok(!r.isError, text);
	assert.equal(r.structuredContent, undefined, 'no structuredContent without the opt-in');
	const m = text.match(/^delivery: (d[0-9a-f]{16}) waiting; its answer is printed by: (.+)$/m);
	assert.ok(m, text);
	const d = { id: m[1] };
	const got = await run(['/bin/sh', '-c', m[2]], rig.env, undefined, 60000);
	assert.equal(got.code, 0, got.stderr);
	assert.match(got.stdout, /^Answer for the SDK parent\.\n\[turn 1 done/, got.stdout);
	const list = await client.callTool({ name: 'parent_deliveries', arguments: {} });
	assert.match(list.content[0].text, new RegExp(`^${d.id}\\tsubmitted\\t`, 'm'));
});

test('DLV-CORE: a record whose server died while sending (turn 0) is taken over as unknown and never resent', T, async (t) => {
	const { rig, mock } = await rigWithMock(t);
	mock.push({ type: 'text', text: 'First answer.' });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'First?' });
	const first = receipt(l);
	assert.equal((await waiter(first.argv, rig.env, 60000)).code, 0);
	/* What a server killed between saving the record and the send's answer leaves (doc/delivery.md). */
	const dead = spawn('true', [], { stdio: 'ignore' });
	await new Promise((r) => dead.on('close', r));
	const id = 'd00000000000000aa';
	const now = Date.now();
	const dir = path.join(rig.dirs.state, 'parent-deliveries');
	fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({ format: 1, id, session_id: sid(l.text), state: 'waiting',
		parent: 'wait', turn: 0, event_cursor: '', owner: { pid: dead.pid, start: '1' }, created_ms: now, updated_ms: now }));
	fs.writeFileSync(path.join(dir, `${id}.lock`), '');
	const before = mock.requests.length;
	await rig.start();
	const rec = await require('./lib/until.cjs').until('the record taken over', () => {
		const j = JSON.parse(fs.readFileSync(path.join(dir, `${id}.json`), 'utf8'));
		return j.state !== 'waiting' ? j : null;
	}, 20000);
	assert.equal(rec.state, 'unknown');
	assert.equal(rec.outcome, 'send_interrupted');
	const w = await waiter(first.argv.slice(0, -1).concat([id]), rig.env, 20000);
	assert.equal(w.code, 1, `the waiter says it cannot be known: ${w.stdout}${w.stderr}`);
	const list = await rig.call('parent_deliveries', {});
	assert.match(list.text, new RegExp(`^${id}\\tunknown\\t`, 'm'));
	await new Promise((r) => setTimeout(r, 1500));
	assert.equal(mock.requests.length, before, 'nothing was sent to the child again');
});
