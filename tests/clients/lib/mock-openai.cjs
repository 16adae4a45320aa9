'use strict';
/*
 * A scripted mock of the OpenAI Responses API for Codex CLI.
 *
 * POST /v1/responses answers with SSE: response.created,
 * response.output_item.added / .done for each output item, and
 * response.completed with usage.  The main loop is the request whose tools
 * include the namespace tool mcp__<server> (Codex sends the MCP server's
 * tools as one tool of type "namespace" holding the plain tool names); it
 * gets the script's next function_call, which carries namespace =
 * "mcp__<server>" and the plain name, or the final message.  Other
 * requests get a short assistant message; GET /v1/models an empty list.
 * Every request is recorded.
 */
const { Script, flatten, serve, sse, json } = require('./script.cjs');

function namespaceTool(body, ns) {
	if (!body || !Array.isArray(body.tools))
		return null;
	return body.tools.find((t) => t && t.type === 'namespace' && t.name === ns) || null;
}

/* The function_call_output items for our call ids: Map k -> {seen, raw}. */
function findResults(script, body) {
	const found = new Map();
	const input = Array.isArray(body.input) ? body.input : [];
	for (const it of input) {
		if (!it || it.type !== 'function_call_output')
			continue;
		const k = script.indexOf(it.call_id);
		if (k >= 0)
			found.set(k, { seen: flatten(it.output), raw: it.output, isError: false });
	}
	return found;
}

let seq = 0;

function usage(body) {
	const input = Math.max(1, Math.ceil(JSON.stringify(body || {}).length / 4));
	return {
		input_tokens: input, input_tokens_details: { cached_tokens: 0 },
		output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 },
		total_tokens: input + 10,
	};
}

function reply(res, body, items) {
	const id = `resp_mock_${++seq}`;
	const model = (body && body.model) || 'mock-model';
	const base = { id, object: 'response', created_at: Math.floor(Date.now() / 1000), model, status: 'in_progress', output: [] };
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	sse(res, 'response.created', { type: 'response.created', response: base });
	items.forEach((item, output_index) => {
		const added = Object.assign({}, item, { status: 'in_progress' });
		if (item.type === 'function_call')
			added.arguments = '';
		if (item.type === 'message')
			added.content = [];
		sse(res, 'response.output_item.added', { type: 'response.output_item.added', output_index, item: added });
		if (item.type === 'message') {
			const text = item.content[0].text;
			sse(res, 'response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index, content_index: 0, delta: text });
		}
		sse(res, 'response.output_item.done', { type: 'response.output_item.done', output_index, item });
	});
	sse(res, 'response.completed', {
		type: 'response.completed',
		response: Object.assign({}, base, { status: 'completed', output: items, usage: usage(body) }),
	});
	res.end();
}

function message(text) {
	const n = ++seq;
	return {
		type: 'message', id: `msg_mock_${n}`, role: 'assistant', status: 'completed',
		content: [{ type: 'output_text', text, annotations: [] }],
	};
}

/*
 * Starts the mock.  opts: steps, final, server (MCP server name, default
 * "aiterm"), sideText, native (names of Codex's own tools that mark the
 * main loop, for a script that calls them: ["exec_command"]; such a call
 * has no namespace).  Returns {url (the base URL including /v1), port,
 * script, requests, main, side, close()}.
 */
async function startOpenAIMock(opts = {}) {
	const serverName = opts.server || 'aiterm';
	const ns = `mcp__${serverName}`;
	const script = new Script(opts.steps, { final: opts.final, idPrefix: 'call_aiterm_' });
	const main = [];
	const side = [];
	const srv = await serve(async (req, res, body, rec) => {
		const url = req.url.split('?')[0];
		if (req.method === 'GET' && url.endsWith('/models')) {
			rec.kind = 'models';
			json(res, 200, { object: 'list', data: [], models: [] });
			return;
		}
		if (req.method === 'POST' && url.endsWith('/responses')) {
			const native = opts.native || [];
			if (namespaceTool(body, ns) || (Array.isArray(body.tools) && body.tools.some((t) => t && native.includes(t.name)))) {
				const act = script.answer(rec, findResults(script, body), main);
				if (act.kind === 'tool') {
					reply(res, body, [Object.assign({
						type: 'function_call', id: `fc_mock_${act.k}`, call_id: act.id,
					}, act.native ? {} : { namespace: ns }, {
						name: act.tool, arguments: JSON.stringify(act.args), status: 'completed',
					})]);
				} else {
					reply(res, body, [message(act.text)]);
				}
				return;
			}
			rec.kind = 'side';
			side.push(rec);
			reply(res, body, [message(opts.sideText || 'Scripted session')]);
			return;
		}
		rec.kind = 'other';
		json(res, 404, { error: { type: 'not_found', message: `mock: no ${req.method} ${url}` } });
	});
	return {
		url: `http://127.0.0.1:${srv.port}/v1`,
		port: srv.port,
		script,
		requests: srv.requests,
		main,
		side,
		close: srv.close,
	};
}

module.exports = { startOpenAIMock, findResults, namespaceTool };
