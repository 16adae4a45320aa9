'use strict';
/*
 * aiterm-mcp through the official MCP SDK client (stdio transport): the
 * lifecycle, tools/list, the diagnostics tool (OPS-DIAG) with its
 * structured output checked by the SDK against the tool's outputSchema,
 * ping, logging, tool errors, progress and cancellation.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { McpError, ErrorCode } = require('@modelcontextprotocol/sdk/types.js');
const { connectSdk } = require('./lib/sdk.cjs');
const { delay, listFiles } = require('./lib/server.cjs');

const T = { timeout: 30000 };
const NEGOTIABLE = ['2025-11-25', '2025-06-18'];

function textOf(result) {
	assert.ok(Array.isArray(result.content), 'content is an array');
	return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

test('MCP lifecycle: connect (initialize + initialized), serverInfo names aiterm-mcp', T, async (t) => {
	const { client, stderr } = await connectSdk(t);
	const info = client.getServerVersion();
	assert.ok(info, 'serverInfo present');
	assert.equal(info.name, 'aiterm-mcp', stderr());
	assert.equal(typeof info.version, 'string');
	assert.ok(info.version.length > 0, 'serverInfo.version is not empty');
	const caps = client.getServerCapabilities();
	assert.equal(typeof caps, 'object');
	assert.equal(typeof caps.tools, 'object', 'tools capability declared');
});

test('MCP lifecycle: negotiated protocol version is 2025-11-25 or 2025-06-18', T, async (t) => {
	const s = await connectSdk(t);
	assert.ok(NEGOTIABLE.includes(s.protocolVersion), `negotiated ${s.protocolVersion}`);
	const init = s.sent.find((e) => e.msg.method === 'notifications/initialized');
	assert.ok(init, 'the client sent notifications/initialized');
});

test('OPS-DIAG tools/list: diagnostics has title, inputSchema, outputSchema and readOnlyHint', T, async (t) => {
	const { client } = await connectSdk(t);
	const { tools } = await client.listTools();
	assert.ok(Array.isArray(tools));
	const names = tools.map((x) => x.name);
	assert.equal(new Set(names).size, names.length, `tool names are unique: ${names}`);
	const d = tools.find((x) => x.name === 'diagnostics');
	assert.ok(d, `diagnostics listed among ${names}`);
	assert.equal(typeof d.title, 'string');
	assert.ok(d.title.length > 0, 'title not empty');
	assert.equal(typeof d.description, 'string');
	assert.ok(d.description.length > 0, 'description not empty');
	assert.equal(d.inputSchema.type, 'object');
	assert.equal(typeof d.outputSchema, 'object', 'outputSchema present');
	assert.equal(d.outputSchema.type, 'object');
	for (const k of ['version', 'state_root', 'plugins', 'multiplexer'])
		assert.ok(d.outputSchema.properties && k in d.outputSchema.properties, `outputSchema describes ${k}`);
	assert.ok(d.annotations, 'annotations present');
	assert.equal(d.annotations.readOnlyHint, true);
	if ('destructiveHint' in d.annotations)
		assert.equal(d.annotations.destructiveHint, false);
});

test('MCP-TOOLS ADR 0041: the five primitives, and only they, carry _meta anthropic/alwaysLoad', T, async (t) => {
	const { client } = await connectSdk(t);
	const { tools } = await client.listTools();
	const up = tools.filter((x) => x._meta && x._meta['anthropic/alwaysLoad'] === true).map((x) => x.name).sort();
	assert.deepEqual(up, ['pty_close', 'pty_key', 'pty_open', 'pty_read', 'pty_send']);
	for (const x of tools)
		assert.ok(x._meta === undefined || Object.keys(x._meta).join() === 'anthropic/alwaysLoad', `${x.name}: ${JSON.stringify(x._meta)}`);
});

test('MCP test tools: test_sleep is not listed without AITERM_TEST_TOOLS', T, async (t) => {
	const { client } = await connectSdk(t);
	const { tools } = await client.listTools();
	assert.ok(!tools.some((x) => x.name === 'test_sleep'), 'test_sleep hidden');
});

test('OPS-DIAG diagnostics: text plus structuredContent, validated by the SDK against outputSchema', T, async (t) => {
	const { client, dirs, stderr } = await connectSdk(t);
	await client.listTools();
	/* callTool() validates structuredContent only when it holds a validator. */
	assert.equal(typeof client.getToolOutputValidator('diagnostics'), 'function',
		'the SDK compiled a validator from the outputSchema');
	const r = await client.callTool({ name: 'diagnostics' });
	assert.notEqual(r.isError, true, `diagnostics failed: ${textOf(r)}\n${stderr()}`);
	assert.ok(textOf(r).length > 0, 'text content present');
	const sc = r.structuredContent;
	assert.equal(typeof sc, 'object');
	assert.notEqual(sc, null);
	assert.equal(typeof sc.version, 'string');
	assert.ok(sc.version.length > 0);
	assert.equal(sc.state_root, dirs.state, 'state_root is AITERM_STATE_DIR');
	assert.ok(Array.isArray(sc.plugins), 'plugins is an array');
	for (const p of sc.plugins)
		assertPluginRecord(p);
	assert.ok('multiplexer' in sc, 'multiplexer reported');
});

/* One entry of diagnostics' plugins: {name, kind, loaded, error?, ...}. */
function assertPluginRecord(p) {
	const s = JSON.stringify(p);
	assert.equal(typeof p.loaded, 'boolean', s);
	if (p.loaded) {
		assert.equal(typeof p.name, 'string', s);
		assert.equal(typeof p.kind, 'string', s);
	} else {
		assert.equal(typeof p.error, 'string', `an unloaded plugin says why: ${s}`);
		assert.ok(p.error.length > 0, s);
	}
}

test('OPS-DIAG diagnostics lists plugins that did not load, with the reason', T, async (t) => {
	const before = (dirs, env) => {
		const pdir = path.join(dirs.root, 'plugins');
		fs.mkdirSync(pdir);
		/* A manifest whose module does not exist. */
		fs.writeFileSync(path.join(pdir, 'no-module.yaml'), [
			'manifest: 1', 'name: no-module', 'kind: reducer', 'module: does_not_exist',
			'abi: "2.0"', 'version: 0.0.1', 'summary: test manifest without a module',
			'reducers:', '  - {name: x, version: "1", commands: [x]}', '',
		].join('\n'));
		/* A manifest that is not valid YAML: name and kind are unknown. */
		fs.writeFileSync(path.join(pdir, 'bad-yaml.yaml'),
			'manifest: 1\nname: bad-yaml\nkind: [mux\nmodule: nothing\n');
		env.AITERM_PLUGIN_PATH = pdir;
	};
	const { client, stderr } = await connectSdk(t, { before });
	await client.listTools();
	assert.equal(typeof client.getToolOutputValidator('diagnostics'), 'function');
	/* The SDK checks structuredContent against outputSchema here. */
	const r = await client.callTool({ name: 'diagnostics' });
	assert.notEqual(r.isError, true, `${textOf(r)}\n${stderr()}`);
	const plugins = r.structuredContent.plugins;
	assert.equal(plugins.length, 2, JSON.stringify(plugins));
	for (const p of plugins) {
		assertPluginRecord(p);
		assert.equal(p.loaded, false, JSON.stringify(p));
	}
	const nm = plugins.find((p) => p.name === 'no-module');
	assert.ok(nm, `no-module listed: ${JSON.stringify(plugins)}`);
	assert.equal(nm.kind, 'reducer');
	assert.match(nm.error, /does_not_exist/);
	const by = plugins.find((p) => p !== nm);
	assert.match(by.error, /yaml/i);
	assert.match(textOf(r), /no-module|does_not_exist/);
});

test('OPS-DIAG diagnostics is read-only: HOME and XDG directories stay empty', T, async (t) => {
	const { client, dirs } = await connectSdk(t);
	await client.listTools();
	const r = await client.callTool({ name: 'diagnostics' });
	assert.notEqual(r.isError, true);
	for (const d of [dirs.home, dirs.xdgConfig, dirs.xdgData, dirs.xdgCache, dirs.xdgState])
		assert.deepEqual(listFiles(d), [], `nothing written below ${d}`);
});

test('MCP ping: client.ping() resolves', T, async (t) => {
	const { client } = await connectSdk(t);
	const r = await client.ping();
	assert.deepEqual(r, {});
});

test('MCP logging: logging capability declared and setLoggingLevel("debug") accepted', T, async (t) => {
	const { client } = await connectSdk(t);
	assert.equal(typeof client.getServerCapabilities().logging, 'object', 'logging capability');
	const r = await client.setLoggingLevel('debug');
	assert.deepEqual(r, {});
	await client.ping();
});

test('MCP tools/call: an unknown tool rejects with McpError -32602', T, async (t) => {
	const { client } = await connectSdk(t);
	await assert.rejects(client.callTool({ name: 'no_such_tool_xyz' }), (err) => {
		assert.ok(err instanceof McpError, `McpError, got ${err}`);
		assert.equal(err.code, ErrorCode.InvalidParams);
		assert.match(err.message, /no_such_tool_xyz/);
		return true;
	});
	await client.ping();
});

test('OPS-BOUNDARY tools/call: an unexpected argument gives isError naming it', T, async (t) => {
	const { client } = await connectSdk(t);
	await client.listTools();
	const r = await client.callTool({ name: 'diagnostics', arguments: { bogus: 1 } });
	assert.equal(r.isError, true, `isError for {bogus: 1}: ${JSON.stringify(r)}`);
	assert.match(textOf(r), /bogus/);
	await client.ping();
});

test('OPS-BOUNDARY tools/call: wrong argument types give isError naming the argument', T, async (t) => {
	const { client } = await connectSdk(t, { testTools: true });
	await client.listTools();
	for (const args of [{ ms: 'abc' }, { ms: 1.5 }, {}]) {
		const r = await client.callTool({ name: 'test_sleep', arguments: args });
		assert.equal(r.isError, true, `isError for ${JSON.stringify(args)}: ${JSON.stringify(r)}`);
		assert.match(textOf(r), /\bms\b/, `the message names ms: ${textOf(r)}`);
	}
	await client.ping();
});

test('MCP progress: test_sleep reports increasing progress every 100 ms', T, async (t) => {
	const { client, stderr } = await connectSdk(t, { testTools: true });
	const { tools } = await client.listTools();
	const ts = tools.find((x) => x.name === 'test_sleep');
	assert.ok(ts, 'test_sleep listed with AITERM_TEST_TOOLS=1');
	assert.equal(ts.inputSchema.type, 'object');
	assert.equal(ts.inputSchema.properties.ms.type, 'integer');
	const seen = [];
	const started = Date.now();
	const r = await client.callTool({ name: 'test_sleep', arguments: { ms: 600 } }, undefined, {
		onprogress: (p) => seen.push(p),
	});
	const took = Date.now() - started;
	assert.notEqual(r.isError, true, `${JSON.stringify(r)}\n${stderr()}`);
	assert.ok(took >= 550, `slept ${took} ms`);
	assert.ok(seen.length >= 2, `progress notifications: ${JSON.stringify(seen)}`);
	for (let i = 1; i < seen.length; i++)
		assert.ok(seen[i].progress > seen[i - 1].progress, `progress increases: ${JSON.stringify(seen)}`);
	for (const p of seen)
		if (p.total !== undefined)
			assert.ok(p.progress <= p.total, `progress <= total: ${JSON.stringify(p)}`);
});

test('MCP progress: no progress notifications without a progressToken', T, async (t) => {
	const s = await connectSdk(t, { testTools: true });
	await s.client.listTools();
	const r = await s.client.callTool({ name: 'test_sleep', arguments: { ms: 300 } });
	assert.notEqual(r.isError, true);
	const progress = s.received.filter((e) => e.msg.method === 'notifications/progress');
	assert.deepEqual(progress, []);
});

test('MCP cancellation: aborting test_sleep rejects promptly, the server stops it and stays usable', T, async (t) => {
	const s = await connectSdk(t, { testTools: true });
	const { client } = s;
	await client.listTools();
	const ac = new AbortController();
	let progress = 0;
	const started = Date.now();
	const call = client.callTool({ name: 'test_sleep', arguments: { ms: 10000 } }, undefined, {
		signal: ac.signal,
		onprogress: () => { progress++; },
	});
	setTimeout(() => ac.abort('test abort'), 200);
	await assert.rejects(call);
	const rejectedAfter = Date.now() - started;
	assert.ok(rejectedAfter < 1500, `rejected after ${rejectedAfter} ms`);

	const req = s.sent.find((e) => e.msg.method === 'tools/call' && e.msg.params.name === 'test_sleep');
	const cancel = s.sent.find((e) => e.msg.method === 'notifications/cancelled');
	assert.ok(req && cancel, 'the SDK sent notifications/cancelled');
	assert.equal(cancel.msg.params.requestId, req.msg.id);
	const token = req.msg.params._meta && req.msg.params._meta.progressToken;
	assert.notEqual(token, undefined, 'the request carried a progressToken');

	/* The server still answers, and no longer works on the cancelled call. */
	await client.ping();
	await delay(800);
	const late = s.received.filter((e) => e.at > cancel.at + 400 &&
		e.msg.method === 'notifications/progress' &&
		e.msg.params.progressToken === token);
	assert.deepEqual(late.map((e) => e.msg), [], 'no progress after the cancellation');
	const answered = s.received.filter((e) => e.msg.id === req.msg.id && !('method' in e.msg));
	assert.deepEqual(answered.map((e) => e.msg), [], 'no response to the cancelled request');
	assert.ok(progress >= 1, 'progress was reported before the abort');

	const r = await client.callTool({ name: 'test_sleep', arguments: { ms: 100 } });
	assert.notEqual(r.isError, true);
	await client.ping();
});
