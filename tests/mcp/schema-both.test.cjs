'use strict';
/*
 * Every result of every tool matches the outputSchema the tool declares,
 * in both modes of ADR 0006 (issue 32): a client that asks for
 * structuredContent (the experimental capability aiterm/structuredContent)
 * and one that does not (every real AI client).  Each tool of tools/list
 * is driven through its main paths by the official MCP SDK client, whose
 * callTool() itself rejects a structuredContent that does not match
 * (-32602); each result is also checked here with ajv (the SDK's own
 * validator, tests/mcp/node_modules) in strict mode, so a schema that ajv
 * cannot read fails too.  The agent paths (agent_launch, pty_send to an
 * agent, pty_read agent_transcript, its receipts with a parent's
 * delivery) run on the Cursor stand-in of tests/harness (a node script
 * answering from a mock model on 127.0.0.1), the only agent CLI the MCP
 * suite can start without the real CLIs.
 *
 * A tool of tools/list that no driver calls fails the test: a new tool
 * gets its driver here.  Without the capability, tools/list declares no
 * outputSchema and no result carries structuredContent; were one sent,
 * it is still checked against the schema the structured mode declares.
 * Error results (isError) carry no structuredContent (the SDK does not
 * require one); one that did would be checked the same way.
 * Feature IDs: PTY-OPEN, PTY-SEND, PTY-READ, PTY-DONE, PTY-KEY, PTY-LIST,
 * OBS-CORE, OPS-DIAG, AGT-LAUNCH, AGT-SEND, AGT-TURN, AGT-APPROVE,
 * DLV-CORE, REM-RELAY (the relay is not driven: a remote result is the
 * other host's, checked by the same schema there).
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const Ajv = require('ajv');
const addFormats = require('ajv-formats');
const { Rig, textOf } = require('./lib/pty.cjs');
const { startCursorMock, seedCursor, cursorBinary } = require('../harness/lib/cursor-mock.cjs');
const { writePng } = require('../harness/lib/images.cjs');

const T = { timeout: 240000 };

/*
 * The schemas as the structured mode declares them, compiled once per
 * test.  Strict, but for two idioms of ours: a union type with its
 * properties (["object", "null"]), and anyOf branches that only say
 * which fields a path requires (its properties are declared once above).
 */
function compileAll(tools) {
	const ajv = new Ajv({ strict: true, allErrors: true, strictTypes: false, strictRequired: false });
	addFormats(ajv);
	const out = new Map();
	for (const tool of tools) {
		assert.equal(typeof tool.outputSchema, 'object', `${tool.name} declares an outputSchema`);
		assert.equal(tool.outputSchema.type, 'object', `${tool.name}: outputSchema.type is "object" (MCP)`);
		out.set(tool.name, ajv.compile(tool.outputSchema));
	}
	return out;
}

/*
 * One mode's checker: call() drives a tool through the SDK client and
 * records, never throws on, a result that does not match; the test ends
 * with every problem listed at once and every tool driven.
 */
class Checker {
	constructor(mode, validators, listed) {
		this.mode = mode;
		this.validators = validators;
		this.listed = listed;
		this.driven = new Map();
		this.problems = [];
	}

	async call(conn, name, args, what, opts = {}) {
		const label = `${this.mode} ${name} (${what})`;
		const paths = this.driven.get(name) || new Set();
		paths.add(what);
		this.driven.set(name, paths);
		let r;
		try {
			r = await conn.client.callTool({ name, arguments: args, _meta: opts.meta }, undefined,
				{ timeout: opts.ms || 60000 });
		} catch (err) {
			/* The SDK client's own check (what issue 32 reported), or a protocol error. */
			this.problems.push(`${label}: the SDK client threw: ${err.message}\n  last result: ${
				JSON.stringify(conn.lastResult()).slice(0, 1500)}`);
			return null;
		}
		const sc = r.structuredContent;
		if (sc !== undefined) {
			const v = this.validators.get(name);
			if (!v(sc))
				this.problems.push(`${label}: structuredContent does not match the outputSchema: ${
					JSON.stringify(v.errors)}\n  structuredContent: ${JSON.stringify(sc).slice(0, 1500)}`);
			if (this.mode === 'text')
				this.problems.push(`${label}: structuredContent sent to a client that did not ask for it (ADR 0006)`);
		} else if (this.mode === 'structured' && r.isError !== true) {
			this.problems.push(`${label}: a successful result without structuredContent: ${textOf(r).slice(0, 500)}`);
		}
		if (opts.error !== undefined && (r.isError === true) !== opts.error)
			this.problems.push(`${label}: isError ${r.isError === true}, expected ${opts.error}: ${textOf(r).slice(0, 500)}`);
		return { r, text: textOf(r), sc, isError: r.isError === true };
	}

	/* Every listed tool was called; every problem, at once. */
	finish() {
		const missing = this.listed.filter((n) => !this.driven.has(n));
		assert.deepEqual(missing, [], `${this.mode}: tools of tools/list that no driver calls (add one here)`);
		assert.deepEqual(this.problems, [], `${this.mode}: results that do not match their outputSchema`);
	}
}

/* Starts a server in mode (structured or text) on rig; remembers its last result. */
async function serve(rig, mode, clientName) {
	const conn = await rig.server({ structured: mode === 'structured', clientName });
	let last = null;
	const onmessage = conn.transport.onmessage;
	conn.transport.onmessage = (msg, extra) => {
		if (msg && (msg.result !== undefined || msg.error !== undefined))
			last = msg;
		onmessage(msg, extra);
	};
	conn.lastResult = () => last;
	return conn;
}

/* The checker of a mode: the schemas from a structured server on the same rig. */
async function checkerFor(rig, mode, conn) {
	const { tools } = await conn.client.listTools();
	let declared = tools;
	if (mode === 'text') {
		for (const tool of tools)
			assert.equal(tool.outputSchema, undefined, `text mode: ${tool.name} declares no outputSchema (ADR 0006)`);
		const s = await serve(rig, 'structured');
		declared = (await s.client.listTools()).tools;
		await s.close();
	}
	return new Checker(mode, compileAll(declared), tools.map((x) => x.name));
}

/* Every tool's arguments that its inputSchema refuses: an isError result. */
async function badArguments(c, conn) {
	for (const name of c.listed)
		await c.call(conn, name, { no_such_argument: 1 }, 'bad arguments', { error: true });
}

/* The shell paths: sessions, sends, reads of every kind, keys, observation. */
async function shellPaths(c, conn, rig) {
	await c.call(conn, 'diagnostics', {}, 'report', { error: false });
	await c.call(conn, 'test_sleep', { ms: 5 }, 'sleep', { error: false });
	const o = await c.call(conn, 'pty_open', { name: 'sh1', cols: 100, rows: 30, cwd: rig.dirs.home }, 'open', { error: false });
	rig.sessions.add('sh1');
	assert.ok(o && !o.isError, JSON.stringify(o && o.r));
	const id = 'sh1';
	await c.call(conn, 'pty_open', { name: 'sh1' }, 'name taken', { error: true });
	await c.call(conn, 'pty_open', { cwd: '/no/such/dir' }, 'bad cwd', { error: true });

	await c.call(conn, 'pty_send', { session_id: id, text: 'echo one', wait: true }, 'wait', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'false', wait: true }, 'wait, exit 1', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'echo two' }, 'no wait', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, wait: true }, 'wait', { error: false });
	await c.call(conn, 'pty_read', { session_id: id }, 'plain, nothing new', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'echo three; sleep 1' }, 'no wait, long', { error: false });
	await c.call(conn, 'pty_read', { session_id: id }, 'plain, still running', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, until: 'three' }, 'until', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, wait: true, timeout: 5 }, 'wait, the end', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'sleep 3', wait: true, timeout: 0.3 }, 'timeout', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, wait: true, timeout: 10 }, 'after a timeout', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'echo x', until: '(', until_regex: true }, 'bad regex', { error: true });
	await c.call(conn, 'pty_send', { session_id: id, text: 'seq 1 3000', wait: true }, 'folded output', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, screen: true }, 'screen', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, lines: 3 }, 'lines', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, line_range: [1, 2] }, 'line_range', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, line_range: [1, 5000] }, 'line_range, paged', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, full: true }, 'full', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, full: true, raw: true }, 'full raw', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, line_range: [3, 2] }, 'bad line_range', { error: true });
	await c.call(conn, 'pty_read', { session_id: id, agent_transcript: true }, 'agent_transcript of a shell', { error: true });
	/* A program in the foreground: text typed into it, nested completion. */
	await c.call(conn, 'pty_send', { session_id: id, text: 'cat' }, 'start cat', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'typed into cat' }, 'direct', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'more', wait: true, timeout: 2 }, 'nested', { error: false });
	await c.call(conn, 'pty_key', { session_id: id, key: 'ctrl-c' }, 'key', { error: false });
	await c.call(conn, 'pty_key', { session_id: id, key: 'no-such-key' }, 'bad key', { error: true });
	await c.call(conn, 'pty_read', { session_id: id, wait: true, timeout: 2 }, 'after ctrl-c', { error: false });
	/* A secret prompt (issue 36): its page and how the client is asked. */
	await c.call(conn, 'pty_send', { session_id: id, text: 'read -r -s -p "Key: " k', wait: true }, 'a secret prompt', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, wait: true, timeout: 5 }, 'read at a secret prompt', { error: false });
	await c.call(conn, 'pty_observe', { session_id: id }, 'observe a secret prompt', { error: false });
	await c.call(conn, 'pty_key', { session_id: id, key: 'ctrl-c' }, 'out of the secret prompt', { error: false });

	await c.call(conn, 'pty_list', {}, 'list', { error: false });
	await c.call(conn, 'pty_list', { env_keys: ['HOME', 'NO_SUCH_VAR'] }, 'list env_keys', { error: false });
	const ob = await c.call(conn, 'pty_observe', { session_id: id }, 'observe', { error: false });
	const cursor = ob && ob.sc ? ob.sc.cursor : ((ob && ob.text.match(/^cursor: (\S+)$/m)) || [])[1];
	if (cursor)
		await c.call(conn, 'pty_observe', { session_id: id, cursor }, 'observe with cursor', { error: false });
	await c.call(conn, 'pty_observe', { session_id: 'no-such-session' }, 'observe absent', {});
	await c.call(conn, 'agent_approval', { session_id: id }, 'a shell session', { error: true });
	await c.call(conn, 'claude_approval', { session_id: id }, 'a shell session', { error: true });
	await c.call(conn, 'agent_configure', { session_id: id, model: 'x' }, 'a shell session', { error: true });
	await c.call(conn, 'parent_deliveries', {}, 'none', { error: false });

	/* A shell that exits: its end, and the log of a dead pane. */
	await c.call(conn, 'pty_open', { name: 'sh2' }, 'open', { error: false });
	rig.sessions.add('sh2');
	await c.call(conn, 'pty_send', { session_id: 'sh2', text: 'echo bye; exit 3', wait: true }, 'the shell exits', { error: false });
	await c.call(conn, 'pty_read', { session_id: 'sh2', full: true }, 'full, dead pane', { error: false });
	await c.call(conn, 'pty_read', { session_id: 'sh2' }, 'plain, dead pane', {});
	await c.call(conn, 'pty_send', { session_id: 'sh2', text: 'echo no' }, 'to a dead pane', { error: true });
	await c.call(conn, 'pty_close', { session_id: 'sh2' }, 'close', { error: false });

	for (const [name, args] of [['pty_read', {}], ['pty_send', { text: 'x' }], ['pty_key', { key: 'enter' }],
		['agent_approval', {}], ['agent_configure', { model: 'x' }]])
		await c.call(conn, name, Object.assign({ session_id: 'no-such-session' }, args), 'unknown session', { error: true });
	/* Closing is idempotent: a session that is not open is a success. */
	await c.call(conn, 'pty_close', { session_id: 'no-such-session' }, 'unknown session', { error: false });
	await c.call(conn, 'pty_read', { session_id: '../bad' }, 'invalid session id', { error: true });
}

/* The agent paths, on the Cursor stand-in. */
async function agentPaths(c, conn, rig, mock) {
	const work = rig.dirs.work;
	await c.call(conn, 'agent_launch', { harness: 'no-such-harness', cwd: work }, 'unknown harness', { error: true });
	await c.call(conn, 'agent_launch', { harness: 'cursor-cli', cwd: '/no/such/dir' }, 'bad cwd', { error: true });
	mock.push({ type: 'text', text: 'First answer.' });
	/* With an image (AGT-IMAGE): the receipt counts it. */
	const l = await c.call(conn, 'agent_launch', { harness: 'cursor-cli', cwd: work, trust_project: true,
		prompt: 'First question', name: 'ag1', image: [writePng(rig.dirs.root)] }, 'with a prompt and an image',
		{ error: false, ms: 120000 });
	assert.ok(l && !l.isError, `the launch: ${JSON.stringify(l && l.r)}`);
	rig.sessions.add('ag1');
	const id = 'ag1';
	await c.call(conn, 'pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 }, 'agent answer, wait',
		{ error: false, ms: 90000 });
	/* A turn that runs: read without wait, a steer into it, the answer. */
	mock.push({ type: 'hold', text: 'Held answer.' });
	mock.push({ type: 'text', text: 'After the steer.' });
	await c.call(conn, 'pty_send', { session_id: id, text: 'Second question', image: [writePng(rig.dirs.root, 'b.png', 2)] },
		'agent turn with an image, no wait', { error: false });
	assert.ok(await mock.held(), 'the second request waits');
	await c.call(conn, 'pty_read', { session_id: id, agent_transcript: true }, 'agent answer, running', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 0.5 },
		'agent answer, still running', { error: false });
	await c.call(conn, 'pty_send', { session_id: id, text: 'Steer it' }, 'agent steer', { error: false });
	mock.release();
	await c.call(conn, 'pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 }, 'agent answer after a steer',
		{ error: false, ms: 90000 });
	mock.push({ type: 'text', text: 'Third answer.' });
	await c.call(conn, 'pty_send', { session_id: id, text: 'Third question', wait: true, timeout: 60 }, 'agent turn, wait',
		{ error: false, ms: 90000 });
	await c.call(conn, 'pty_read', { session_id: id, agent_transcript: true, turn: 1 }, 'agent answer, saved turn', { error: false });
	await c.call(conn, 'pty_read', { session_id: id, agent_transcript: true, turn: 99 }, 'agent answer, later turn', { error: true });
	await c.call(conn, 'pty_read', { session_id: id, screen: true }, 'agent screen', { error: false });
	await c.call(conn, 'pty_read', { session_id: id }, 'agent pane output', { error: false });
	await c.call(conn, 'pty_observe', { session_id: id }, 'observe an agent', { error: false });
	/* Cursor's harness reads no approvals (the Claude and Codex ones do: tests/harness). */
	await c.call(conn, 'agent_approval', { session_id: id }, 'a harness without approvals', { error: true });
	await c.call(conn, 'agent_approval', { session_id: id, choice: 'yes', digest: '0123456789abcdef' }, 'answer none', { error: true });
	await c.call(conn, 'claude_approval', { session_id: id }, 'not a Claude session', { error: true });
	/* AGT-CONFIGURE (issue 33): the stand-in's assumed /model picker. */
	await c.call(conn, 'agent_configure', { session_id: id, model: 'sonnet-4' }, 'configure', { error: false, ms: 30000 });
	await c.call(conn, 'agent_configure', { session_id: id, model: 'no-such-model' }, 'configure, not offered',
		{ error: true, ms: 30000 });
	await c.call(conn, 'pty_list', {}, 'list with an agent', { error: false });
	await c.call(conn, 'parent_deliveries', {}, 'deliveries', { error: false });
	await c.call(conn, 'parent_deliveries', { session_id: id }, 'deliveries of a session', { error: false });

	/* No prompt: the launch alone; a read before any turn. */
	const l2 = await c.call(conn, 'agent_launch', { harness: 'cursor-cli', cwd: work, trust_project: true, name: 'ag2' },
		'without a prompt', { error: false, ms: 120000 });
	rig.sessions.add('ag2');
	assert.ok(l2 && !l2.isError, JSON.stringify(l2 && l2.r));
	await c.call(conn, 'pty_read', { session_id: 'ag2', agent_transcript: true }, 'agent answer, no turn yet', { error: true });
	await c.call(conn, 'pty_key', { session_id: 'ag2', key: 'enter' }, 'key to an agent', { error: false });
	await c.call(conn, 'pty_close', { session_id: 'ag2' }, 'close an agent', { error: false });
}

/*
 * The receipts of a parent that has a receiver: Codex (the answer comes
 * back by itself: no waiter) and Cursor (a waiter offered, no command
 * line).  The Codex hand-over runs AITERM_CODEX_BIN, /bin/false here.
 */
async function receiverPaths(c, rig, mode, mock) {
	const codex = await serve(rig, mode, 'codex-mcp-client');
	mock.push({ type: 'text', text: 'For the Codex parent.' });
	await c.call(codex, 'agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, trust_project: true,
		prompt: 'From Codex', name: 'ag3' }, 'a Codex parent', { error: false, ms: 120000, meta: { threadId: 'thread-schema-both' } });
	rig.sessions.add('ag3');
	mock.push({ type: 'text', text: 'Again for Codex.' });
	await c.call(codex, 'pty_read', { session_id: 'ag3', agent_transcript: true, wait: true, timeout: 60 }, 'a Codex parent',
		{ error: false, ms: 90000 });
	await c.call(codex, 'pty_send', { session_id: 'ag3', text: 'Again' }, 'a Codex parent', { error: false,
		meta: { threadId: 'thread-schema-both' } });
	await codex.close();

	const cursor = await serve(rig, mode, 'cursor-vscode');
	mock.push({ type: 'text', text: 'For the Cursor parent.' });
	await c.call(cursor, 'agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, trust_project: true,
		prompt: 'From Cursor', name: 'ag4' }, 'a Cursor parent', { error: false, ms: 120000 });
	rig.sessions.add('ag4');
	await c.call(cursor, 'parent_deliveries', {}, 'deliveries with receivers', { error: false });
	await cursor.close();
}

/* Aiterm's Cursor hooks in the rig's HOME: what the Cursor receiver needs. */
function cursorHooks(home) {
	seedCursor(home, { hooks: {
		afterMCPExecution: [{ command: 'aiterm-hook cursor-after' }],
		postToolUse: [{ command: 'aiterm-hook cursor-post' }],
	} });
}

for (const mode of ['structured', 'text']) {
	test(`issue 32: every tool's every result matches its outputSchema (${mode === 'structured' ?
		'with' : 'without'} aiterm/structuredContent)`, T, async (t) => {
		const mock = await startCursorMock({ defaultText: 'Default answer.' });
		t.after(() => mock.close());
		const rig = new Rig(t, {
			AITERM_TEST_TOOLS: '1',
			CURSOR_STANDIN_MODEL_URL: mock.url,
			CURSOR_API_KEY: 'mock-cursor-key-for-the-aiterm-schema-test',
			AITERM_CODEX_BIN: '/bin/false',
		});
		rig.dirs.work = path.join(rig.dirs.root, 'work');
		const bin = path.join(rig.dirs.root, 'bin');
		fs.mkdirSync(rig.dirs.work, { mode: 0o700 });
		fs.mkdirSync(bin, { mode: 0o700 });
		fs.symlinkSync(cursorBinary(), path.join(bin, 'cursor-agent'));
		rig.env.PATH = `${bin}:${rig.env.PATH || '/usr/bin:/bin'}`;
		cursorHooks(rig.dirs.home);

		const conn = await serve(rig, mode);
		const c = await checkerFor(rig, mode, conn);
		await badArguments(c, conn);
		await shellPaths(c, conn, rig);
		await agentPaths(c, conn, rig, mock);
		await receiverPaths(c, rig, mode, mock);
		c.finish();
	});
}
