'use strict';
/*
 * The official MCP SDK client, connected to aiterm-mcp over stdio with the
 * per-test environment from server.cjs.  The SDK is found through
 * NODE_PATH, which tests/mcp/run.sh points at the build tree's node_modules.
 */
const fs = require('node:fs');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { makeEnv, serverBinary, STRUCTURED_CAPS, ServerWatch, assertServerClean } = require('./server.cjs');

/*
 * Connects a Client.  opts: args, env, testTools (AITERM_TEST_TOOLS=1),
 * before(dirs, env) (called before the spawn), structured (default true:
 * ask for structuredContent; false: the text-only view real AI clients get).
 * Returns { client, transport, dirs, env, stderr(), protocolVersion,
 * received, sent }: received and sent log every message that crossed the
 * transport, with a timestamp ({ at, msg }).
 */
async function connectSdk(t, opts = {}) {
	const extra = Object.assign({}, opts.env || {});
	if (opts.testTools)
		extra.AITERM_TEST_TOOLS = '1';
	const { dirs, env } = makeEnv(null, extra);
	if (opts.before)
		opts.before(dirs, env);
	const transport = new StdioClientTransport({
		command: serverBinary(),
		args: opts.args || [],
		env,
		cwd: dirs.home,
		stderr: 'pipe',
	});
	const out = { transport, dirs, env, protocolVersion: null, received: [], sent: [] };
	let stderr = '';
	transport.stderr.setEncoding('utf8');
	transport.stderr.on('data', (s) => { stderr += s; });
	out.stderr = () => stderr;

	/*
	 * The client tells an HTTP transport the negotiated version through
	 * setProtocolVersion(); the stdio transport has none, so this one only
	 * records it.
	 */
	transport.setProtocolVersion = (v) => { out.protocolVersion = v; };
	const send = transport.send.bind(transport);
	transport.send = (msg, o) => {
		out.sent.push({ at: Date.now(), msg });
		return send(msg, o);
	};

	const capabilities = opts.structured === false ? {} : STRUCTURED_CAPS;
	const client = new Client({ name: 'aiterm-sdk-test', version: '0.0.0' }, { capabilities });
	out.client = client;
	let watch = null;
	if (t) {
		/* The server must exit with status 0 on stdin EOF, with no sanitizer report (server.cjs serverProblems). */
		t.after(async () => {
			try {
				const before = watch ? watch.signals.length : 0;
				await client.close().catch(() => {});
				if (watch) {
					await watch.done(3000);
					assertServerClean(watch.exit, stderr, { harnessSignals: watch.signals.slice(before) });
				}
			} finally {
				fs.rmSync(dirs.root, { recursive: true, force: true });
			}
		});
	}
	try {
		await client.connect(transport);
	} catch (err) {
		err.message += `\nserver stderr:\n${stderr}`;
		throw err;
	}
	/* The SDK keeps the child in _process (pinned SDK version). */
	if (transport._process)
		watch = new ServerWatch(transport._process, transport.stderr);
	out.watch = watch;
	/* Protocol.connect() installed its handler; log in front of it. */
	const onmessage = transport.onmessage;
	transport.onmessage = (msg, extra2) => {
		out.received.push({ at: Date.now(), msg });
		onmessage(msg, extra2);
	};
	return out;
}

module.exports = { connectSdk };
