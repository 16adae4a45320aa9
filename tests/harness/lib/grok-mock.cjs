'use strict';
/*
 * A programmable mock of the OpenAI Chat Completions API for the Grok
 * Build CLI (@xai-official/grok), written for this project.  Grok speaks
 * Chat Completions to a model of ~/.grok/config.toml whose base_url is
 * this mock (the server and the streaming are lib/mock-server.cjs) (unless the model sets api_backend); every POST
 * /v1/chat/completions takes the next action from a queue the test fills
 * (mock.push(action)); when the queue is empty it answers opts.reply(body)
 * when given, else opts.defaultText.
 * Actions:
 *
 *   {type:'text', text, chunks:n, delayMs}
 *       an assistant message streamed as n content deltas, delayMs apart.
 *   {type:'hold', text}
 *       the role delta, then nothing until mock.release() (then the text,
 *       finish_reason stop, the usage chunk and [DONE]).
 *   {type:'call', name, args}
 *       one tool call streamed as tool_calls deltas (finish_reason
 *       tool_calls).
 *   {type:'status', status, body}
 *       an HTTP error answer instead of SSE.
 *
 * Each stream ends with a usage chunk (choices: []) and `data: [DONE]`.
 * Side calls never take from the queue: on the session's model (see
 * sideKind) the prompt suggestion is answered opts.suggestion (the ghost
 * text in the composer after a turn) and the title / dashboard line
 * opts.sideText; GROK_MODELS_BASE_URL (this mock too) gets the first
 * title as POST /v1/responses (Responses API, SSE when asked to stream)
 * and GET /v1/models ("mock-model").  Every
 * request is recorded {method, url, body, time, kind, action}.
 */
const { startMockServer, urlPath, delay } = require('./mock-server.cjs');

/*
 * Grok's side calls on the session's own model (Chat Completions too):
 * the prompt suggestion after a turn (its system prompt), the session
 * title refresh and the dashboard line (a last user message that is a
 * system reminder asking for them).  They never take from the queue.
 */
function sideKind(body) {
	const m = (body && body.messages) || [];
	const text = (x) => (typeof x === 'string' ? x : JSON.stringify(x || ''));
	if (m.length && /^You predict the next line/.test(text(m[0].content)))
		return 'suggestion';
	const last = m.length ? text(m[m.length - 1].content) : '';
	if (/^"?<system-reminder>Generate a session title/.test(last))
		return 'title';
	if (/^"?<system-reminder>Write an ultra-short dashboard line/.test(last))
		return 'dashboard';
	return null;
}

async function startGrokMock(opts = {}) {
	const sideText = opts.sideText || 'Mock title';
	const suggestion = opts.suggestion || 'Mock suggestion';

	async function chat(res, body, rec, ctx) {
		const side = sideKind(body);
		const act = side ? { type: 'text', text: side === 'suggestion' ? suggestion : sideText } :
			opts.reply && ctx.queue.length === 0 ? { type: 'text', text: opts.reply(body) } : ctx.take();
		rec.kind = side || 'main';
		rec.action = act;
		await ctx.chatStream(res, body, act);
	}

	/* A Responses API answer (side calls on the built-in model). */
	function responses(res, body, rec, ctx) {
		rec.kind = 'side';
		const seq = ctx.next();
		const id = `resp_mock_${seq}`;
		const item = { type: 'message', id: `msg_mock_${seq}`, role: 'assistant', status: 'completed',
			content: [{ type: 'output_text', text: sideText, annotations: [] }] };
		const done = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model: (body && body.model) || 'mock-model',
			status: 'completed', output: [item], output_text: sideText,
			usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } } };
		if (!(body && body.stream)) {
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify(done));
			return;
		}
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify(Object.assign({ type }, data))}\n\n`);
		ev('response.created', { response: Object.assign({}, done, { status: 'in_progress', output: [] }) });
		ev('response.output_item.added', { output_index: 0, item: Object.assign({}, item, { status: 'in_progress', content: [] }) });
		ev('response.output_text.delta', { item_id: item.id, output_index: 0, content_index: 0, delta: sideText });
		ev('response.output_item.done', { output_index: 0, item });
		ev('response.completed', { response: done });
		res.end();
	}

	return startMockServer(async (req, res, body, rec, ctx) => {
		const url = urlPath(req);
		if (req.method === 'POST' && url.endsWith('/chat/completions')) {
			await chat(res, body, rec, ctx);
			return true;
		}
		if (req.method === 'POST' && url.endsWith('/responses')) {
			responses(res, body, rec, ctx);
			return true;
		}
		if (req.method === 'GET' && url.endsWith('/models')) {
			rec.kind = 'models';
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ object: 'list', data: [{ id: 'mock-model', object: 'model', owned_by: 'mock' }] }));
			return true;
		}
		return false;
	}, { defaultText: opts.defaultText });
}

/*
 * ~/.grok/config.toml of a user whose default model is the mock (Chat
 * Completions); parts.noKey leaves the api_key out (the login splash).
 */
function seedGrok(home, baseUrl, parts = {}) {
	const fs = require('node:fs');
	const path = require('node:path');
	const dir = path.join(home, '.grok');
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	const q = (x) => JSON.stringify(String(x));
	const L = ['[models]', 'default = "mock"', '', '[model.mock]', 'model = "mock-model"', `base_url = ${q(baseUrl)}`];
	if (!parts.noKey)
		L.push('api_key = "mock-key-for-the-aiterm-harness"');
	L.push(...(parts.extra || []));
	fs.writeFileSync(path.join(dir, 'config.toml'), L.join('\n') + '\n');
}

/*
 * The native Grok Build binary of the pinned npm package.  npm ci runs
 * with --ignore-scripts, so the package's postinstall (which decompresses
 * bin/grok.br into ~/.grok/bin) never ran: it is decompressed here once,
 * beside node_modules (tests/clients/grok-bin/grok-<version>), and the
 * tests run it directly (its node launcher would decompress it again into
 * every test's own HOME).
 */
function grokBinary() {
	const fs = require('node:fs');
	const path = require('node:path');
	const zlib = require('node:zlib');
	const pkg = require.resolve(`@xai-official/grok-${process.platform}-${process.arch}/package.json`);
	const { version } = JSON.parse(fs.readFileSync(pkg, 'utf8'));
	const dir = path.resolve(path.dirname(pkg), '../../../grok-bin');
	const bin = path.join(dir, `grok-${version}`);
	if (!fs.existsSync(bin)) {
		fs.mkdirSync(dir, { recursive: true });
		const tmp = `${bin}.tmp.${process.pid}`;
		fs.writeFileSync(tmp, zlib.brotliDecompressSync(fs.readFileSync(path.join(path.dirname(pkg), 'bin', 'grok.br'))));
		fs.chmodSync(tmp, 0o755);
		fs.renameSync(tmp, bin);
	}
	return bin;
}

module.exports = { startGrokMock, seedGrok, sideKind, grokBinary, delay };
