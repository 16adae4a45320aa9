'use strict';
/*
 * A programmable mock of the OpenAI Responses API for the interactive
 * Codex CLI (TUI) fixtures.  Unlike tests/clients/lib/mock-openai.cjs
 * (scripted MCP calls for `codex exec`), every POST /v1/responses takes
 * the next action from a queue the test fills (mock.push(action)); when the
 * queue is empty it answers with opts.defaultText.  Actions:
 *
 *   {type:'text', text, chunks:n, delayMs, holdMs}
 *       an assistant message streamed as n output_text deltas, delayMs
 *       apart, response.completed holdMs after the last delta.
 *   {type:'hold', text}
 *       response.created, then nothing until mock.release() (then the
 *       text as one delta and response.completed).
 *   {type:'call', name, args, namespace}
 *       one function_call (builtin tool such as exec_command / shell).
 *   {type:'status', status, body, headers}
 *       an HTTP error answer (e.g. 529 overloaded) instead of SSE.
 *   {type:'failed', code, message}
 *       SSE response.created then response.failed.
 *
 * opts.reply(body), when given, answers a request the queue has nothing
 * for (the text it returns).  The thread-title request (see isTitle) is
 * answered apart.  Every
 * request is recorded {method, url, headers, body, time, kind,
 * action, events:[{type, time}]} with the time of each SSE event written.
 */
const { startMockServer, urlPath, delay } = require('./mock-server.cjs');

function usage(body) {
	const input = Math.max(1, Math.ceil(JSON.stringify(body || {}).length / 4));
	return {
		input_tokens: input, input_tokens_details: { cached_tokens: 0 },
		output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: input + 10,
	};
}

/*
 * The thread-title side request: no tools, text.format a JSON schema with
 * a "title" property (x-codex-turn-metadata thread_source "thread_title").
 * It is answered {"title": opts.title} and never takes from the queue.
 */
function isTitle(body) {
	const f = body && body.text && body.text.format;
	return !!(f && f.schema && f.schema.properties && f.schema.properties.title && !(body.tools && body.tools.length));
}

async function startCodexMock(opts = {}) {
	let seq = 0;
	const defaultText = opts.defaultText || 'Mock answer.';

	function sse(res, rec, type, data) {
		rec.events.push({ type, time: Date.now() });
		res.write(`event: ${type}\ndata: ${JSON.stringify(Object.assign({ type }, data))}\n\n`);
	}

	async function answer(req, res, body, rec, ctx) {
		let act;
		if (isTitle(body)) {
			rec.kind = 'title';
			act = { type: 'text', text: JSON.stringify({ title: opts.title || 'Mock title' }) };
		} else {
			rec.kind = 'main';
			act = opts.reply && ctx.queue.length === 0 ? { type: 'text', text: opts.reply(body) } : ctx.take();
		}
		rec.action = act;
		if (act.type === 'status') {
			const s = JSON.stringify(act.body || { error: { type: 'overloaded_error', code: 'overloaded', message: 'Overloaded' } });
			res.writeHead(act.status || 529, Object.assign({ 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) }, act.headers || {}));
			res.end(s);
			rec.events.push({ type: `http ${act.status || 529}`, time: Date.now() });
			return;
		}
		const id = `resp_mock_${++seq}`;
		const model = (body && body.model) || 'mock-model';
		const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'in_progress', output: [] };
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
		sse(res, rec, 'response.created', { response: base });
		if (act.type === 'failed') {
			if (act.delayMs)
				await delay(act.delayMs);
			sse(res, rec, 'response.failed', {
				response: Object.assign({}, base, { status: 'failed', error: { code: act.code || 'server_error', message: act.message || 'The mock failed this response.' } }),
			});
			res.end();
			return;
		}
		let items = [];
		if (act.type === 'call') {
			const n = ++seq;
			const item = {
				type: 'function_call', id: `fc_mock_${n}`, call_id: act.callId || `call_mock_${n}`,
				name: act.name, arguments: JSON.stringify(act.args || {}), status: 'completed',
			};
			if (act.namespace)
				item.namespace = act.namespace;
			sse(res, rec, 'response.output_item.added', { output_index: 0, item: Object.assign({}, item, { arguments: '', status: 'in_progress' }) });
			sse(res, rec, 'response.output_item.done', { output_index: 0, item });
			items = [item];
		} else {
			const n = ++seq;
			const text = act.text || defaultText;
			const msgId = `msg_mock_${n}`;
			const item = { type: 'message', id: msgId, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text, annotations: [] }] };
			sse(res, rec, 'response.output_item.added', { output_index: 0, item: Object.assign({}, item, { status: 'in_progress', content: [] }) });
			if (act.type === 'hold') {
				await ctx.hold();
				sse(res, rec, 'response.output_text.delta', { item_id: msgId, output_index: 0, content_index: 0, delta: text });
			} else {
				const chunks = Math.max(1, act.chunks || 1);
				const size = Math.ceil(text.length / chunks);
				for (let i = 0; i < text.length; i += size) {
					if (i > 0 && act.delayMs)
						await delay(act.delayMs);
					sse(res, rec, 'response.output_text.delta', { item_id: msgId, output_index: 0, content_index: 0, delta: text.slice(i, i + size) });
				}
				if (act.holdMs)
					await delay(act.holdMs);
			}
			sse(res, rec, 'response.output_item.done', { output_index: 0, item });
			items = [item];
		}
		sse(res, rec, 'response.completed', { response: Object.assign({}, base, { status: 'completed', output: items, usage: usage(body) }) });
		res.end();
	}

	return startMockServer(async (req, res, body, rec, ctx) => {
		rec.events = [];
		const url = urlPath(req);
		if (req.method === 'GET' && url.endsWith('/models')) {
			rec.kind = 'models';
			res.writeHead(200, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ object: 'list', data: [], models: [] }));
			return true;
		}
		if (req.method === 'POST' && url.endsWith('/responses')) {
			await answer(req, res, body, rec, ctx);
			return true;
		}
		return false;
	}, { defaultText });
}

module.exports = { startCodexMock, isTitle, delay };
