'use strict';
/*
 * A scripted mock of the Anthropic Messages API for Claude Code.
 *
 * POST /v1/messages answers streaming (SSE: message_start,
 * content_block_start/delta/stop with text_delta or input_json_delta,
 * message_delta with stop_reason and usage, message_stop) or plain JSON,
 * as the request asks.  The main loop is the request whose tools include
 * mcp__<server>__*, or that lists them as deferred tools (tool search):
 * when the script's next call is of a deferred tool not loaded yet, it
 * gets first a ToolSearch call that loads all the deferred ones, then
 * the script's next tool_use (or the final text).  Every other request (title or topic generation with a small
 * model, and the like) gets a short harmless text; count_tokens gets a
 * count.  Every request is recorded.
 */
const { Script, flatten, serve, sse, json } = require('./script.cjs');

/* The main loop offers the server's tools, or one of the client's own named in native. */
function isMain(body, prefix, native = []) {
	return !!(body && Array.isArray(body.tools) && body.tools.some((t) => t && typeof t.name === 'string' &&
		(t.name.startsWith(prefix) || native.includes(t.name))));
}

/*
 * Tool search (Claude Code 2.1.332 by default): the MCP tools are not in
 * tools; a system message lists their names as deferred, and the model
 * loads their schemas with the ToolSearch tool ("select:<a>,<b>").
 * Returns the deferred names of the server, or [] when its tools are not
 * deferred in this request.
 */
function deferredNames(body, prefix) {
	if (!body || !Array.isArray(body.tools) || !body.tools.some((t) => t && t.name === 'ToolSearch'))
		return [];
	const names = new Set();
	const re = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\w+$`, 'gm');
	for (const m of body.messages || []) {
		const text = m ? flatten(m.content) : '';
		if (!/deferred tools/.test(text))
			continue;
		for (const x of text.match(re) || [])
			names.add(x);
	}
	return [...names];
}

/*
 * Whether the mock's ToolSearch call was answered in this request: its
 * tool_result holds tool_reference blocks, and from then on the tools
 * are in tools (with defer_loading: true; the API expands those).
 */
function searched(body) {
	return (body.messages || []).some((m) => m && m.role === 'user' && Array.isArray(m.content) &&
		m.content.some((b) => b && b.type === 'tool_result' && String(b.tool_use_id).startsWith(SEARCH_ID)));
}

const SEARCH_ID = 'toolu_search_';

/*
 * Whether the script's next call is of a tool still deferred (not in
 * tools): a model searches when it needs a tool it does not have.  The
 * tools a server marks "anthropic/alwaysLoad" come up front (ADR 0041);
 * a task that uses only those needs no ToolSearch.  The script's answer
 * is the same however often it is asked (see script.cjs).
 */
function needsSearch(script, body, prefix, deferred) {
	const act = script.advance(findResults(script, body));
	if (act.kind !== 'tool' || act.native)
		return false;
	const name = prefix + act.tool;
	const loaded = (body.tools || []).some((t) => t && t.name === name);
	return !loaded && deferred.includes(name);
}

/* The tool results for our ids in a request's messages: Map k -> {seen, raw, isError}. */
function findResults(script, body) {
	const found = new Map();
	for (const m of body.messages || []) {
		if (!m || m.role !== 'user' || !Array.isArray(m.content))
			continue;
		for (const b of m.content) {
			if (!b || b.type !== 'tool_result')
				continue;
			const k = script.indexOf(b.tool_use_id);
			if (k >= 0)
				found.set(k, { seen: flatten(b.content), raw: b.content, isError: b.is_error === true });
		}
	}
	return found;
}

/* A rough input token count for usage figures. */
function roughTokens(body) {
	return Math.max(1, Math.ceil(JSON.stringify(body || {}).length / 4));
}

let msgSeq = 0;

function reply(res, body, blocks, stopReason) {
	const id = `msg_mock_${++msgSeq}`;
	const model = (body && body.model) || 'claude-mock';
	const usage = { input_tokens: roughTokens(body), output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
	if (!body || body.stream !== true) {
		json(res, 200, {
			id, type: 'message', role: 'assistant', model,
			content: blocks, stop_reason: stopReason, stop_sequence: null, usage,
		});
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	sse(res, 'message_start', {
		type: 'message_start',
		message: {
			id, type: 'message', role: 'assistant', model, content: [],
			stop_reason: null, stop_sequence: null,
			usage: Object.assign({}, usage, { output_tokens: 1 }),
		},
	});
	blocks.forEach((b, index) => {
		if (b.type === 'tool_use') {
			sse(res, 'content_block_start', {
				type: 'content_block_start', index,
				content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} },
			});
			const js = JSON.stringify(b.input);
			/* Two pieces, as a real stream splits the JSON. */
			const cut = Math.floor(js.length / 2);
			for (const part of [js.slice(0, cut), js.slice(cut)]) {
				sse(res, 'content_block_delta', {
					type: 'content_block_delta', index,
					delta: { type: 'input_json_delta', partial_json: part },
				});
			}
		} else {
			sse(res, 'content_block_start', {
				type: 'content_block_start', index,
				content_block: { type: 'text', text: '' },
			});
			sse(res, 'content_block_delta', {
				type: 'content_block_delta', index,
				delta: { type: 'text_delta', text: b.text },
			});
		}
		sse(res, 'content_block_stop', { type: 'content_block_stop', index });
	});
	sse(res, 'message_delta', {
		type: 'message_delta',
		delta: { stop_reason: stopReason, stop_sequence: null },
		usage: { output_tokens: 10 },
	});
	sse(res, 'message_stop', { type: 'message_stop' });
	res.end();
}

/*
 * Starts the mock.  opts: steps, final (the last text), server (the MCP
 * server name, default "aiterm"), sideText (the answer to side requests),
 * native (names of the client's own tools that mark the main loop, for a
 * script that calls them: ["Bash"]).
 * Returns {url, port, script, requests, main (the main-loop requests),
 * close()}.
 */
async function startAnthropicMock(opts = {}) {
	const serverName = opts.server || 'aiterm';
	const prefix = `mcp__${serverName}__`;
	const script = new Script(opts.steps, { final: opts.final, idPrefix: 'toolu_aiterm_' });
	const main = [];
	const side = [];
	let searches = 0;
	const srv = await serve(async (req, res, body, rec) => {
		const url = req.url.split('?')[0];
		if (req.method === 'POST' && url.endsWith('/v1/messages/count_tokens')) {
			rec.kind = 'count_tokens';
			json(res, 200, { input_tokens: roughTokens(body) });
			return;
		}
		if (req.method === 'POST' && url.endsWith('/v1/messages')) {
			const deferred = deferredNames(body, prefix);
			if (deferred.length > 0 && !searched(body) && needsSearch(script, body, prefix, deferred)) {
				/* The model first loads the server's tools, all of them. */
				rec.kind = 'main';
				rec.toolSearch = true;
				main.push(rec);
				reply(res, body, [{ type: 'tool_use', id: `${SEARCH_ID}${++searches}`, name: 'ToolSearch',
					input: { query: `select:${deferred.join(',')}`, max_results: deferred.length } }], 'tool_use');
				return;
			}
			if (isMain(body, prefix, opts.native) || deferred.length > 0) {
				const act = script.answer(rec, findResults(script, body), main);
				if (act.kind === 'tool')
					reply(res, body, [{ type: 'tool_use', id: act.id, name: act.native ? act.tool : prefix + act.tool, input: act.args }], 'tool_use');
				else
					reply(res, body, [{ type: 'text', text: act.text }], 'end_turn');
				return;
			}
			rec.kind = 'side';
			side.push(rec);
			reply(res, body, [{ type: 'text', text: opts.sideText || 'Scripted session' }], 'end_turn');
			return;
		}
		rec.kind = 'other';
		json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock: no ${req.method} ${url}` } });
	});
	return {
		url: `http://127.0.0.1:${srv.port}`,
		port: srv.port,
		script,
		requests: srv.requests,
		main,
		side,
		close: srv.close,
	};
}

module.exports = { startAnthropicMock, findResults, isMain };
