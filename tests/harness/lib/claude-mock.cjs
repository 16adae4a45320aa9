'use strict';
/*
 * A small mock of the Anthropic Messages API for driving the interactive
 * Claude Code TUI.  Unlike tests/clients/lib/mock-anthropic.cjs (a fixed
 * script for `claude -p`), the answers to main-loop requests come from a
 * queue the driver fills while the session runs:
 *
 *   {type:'text', text, chunks (pieces, default 1), delayMs (between
 *    pieces), holdMs (before message_start)}
 *   {type:'tool', name, input, id, text (optional text block before)}
 *   {type:'error', status, body, headers}  plain JSON error, no stream
 *
 * Any of them may carry when(body): it answers the first main-loop
 * request for which that holds (two sessions on one mock).
 *
 * A main-loop request is a POST /v1/messages whose tools are not empty;
 * with an empty queue it gets opts.reply(body) when given, else
 * `defaultText`.  Every other request
 * (title/topic generation, quota probes) gets a short text.  Every
 * request is recorded with times: time (arrival), firstEvent, lastEvent.
 */
const { serve, sse, json } = require('../../clients/lib/script.cjs');

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
let seq = 0;

function isMain(body) {
	return !!(body && Array.isArray(body.tools) && body.tools.length > 0);
}

async function stream(res, body, blocks, stopReason, opt, rec) {
	const id = `msg_mock_${++seq}`;
	const model = (body && body.model) || 'claude-mock';
	const usage = { input_tokens: 100, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
	if (!body || body.stream !== true) {
		json(res, 200, { id, type: 'message', role: 'assistant', model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage });
		rec.lastEvent = Date.now();
		return;
	}
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	if (opt.holdMs)
		await sleep(opt.holdMs);
	rec.firstEvent = Date.now();
	sse(res, 'message_start', { type: 'message_start', message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } });
	for (let index = 0; index < blocks.length; index++) {
		const b = blocks[index];
		if (b.type === 'tool_use') {
			sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
			const js = JSON.stringify(b.input);
			const cut = Math.floor(js.length / 2);
			for (const part of [js.slice(0, cut), js.slice(cut)])
				sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: part } });
		} else {
			sse(res, 'content_block_start', { type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
			const n = Math.max(1, opt.chunks || 1);
			const words = b.text;
			const size = Math.ceil(words.length / n);
			for (let i = 0; i < words.length; i += size) {
				if (i > 0 && opt.delayMs)
					await sleep(opt.delayMs);
				sse(res, 'content_block_delta', { type: 'content_block_delta', index, delta: { type: 'text_delta', text: words.slice(i, i + size) } });
			}
		}
		sse(res, 'content_block_stop', { type: 'content_block_stop', index });
	}
	sse(res, 'message_delta', { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 10 } });
	sse(res, 'message_stop', { type: 'message_stop' });
	rec.lastEvent = Date.now();
	res.end();
}

let toolSeq = 0;

async function startClaudeMock(opts = {}) {
	const queue = [];
	const main = [];
	const side = [];
	const srv = await serve(async (req, res, body, rec) => {
		const url = req.url.split('?')[0];
		if (req.method === 'POST' && url.endsWith('/v1/messages/count_tokens')) {
			rec.kind = 'count_tokens';
			json(res, 200, { input_tokens: 100 });
			return;
		}
		if (req.method === 'POST' && url.endsWith('/v1/messages')) {
			if (isMain(body)) {
				rec.kind = 'main';
				main.push(rec);
				/* The first queued answer whose when(body) holds (none: any). */
				const at = queue.findIndex((a) => !a.when || a.when(body));
				const act = at >= 0 ? queue.splice(at, 1)[0] :
					{ type: 'text', text: opts.reply ? opts.reply(body) : opts.defaultText || 'OK.' };
				rec.action = act;
				if (opts.onMain)
					opts.onMain(rec);
				if (act.type === 'error') {
					if (act.holdMs)
						await sleep(act.holdMs);
					json(res, act.status || 529, act.body || { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, act.headers);
					rec.lastEvent = Date.now();
					return;
				}
				if (act.type === 'tool') {
					const blocks = [];
					if (act.text)
						blocks.push({ type: 'text', text: act.text });
					blocks.push({ type: 'tool_use', id: act.id || `toolu_mock_${++toolSeq}`, name: act.name, input: act.input });
					await stream(res, body, blocks, 'tool_use', act, rec);
					return;
				}
				await stream(res, body, [{ type: 'text', text: act.text }], 'end_turn', act, rec);
				return;
			}
			rec.kind = 'side';
			side.push(rec);
			await stream(res, body, [{ type: 'text', text: opts.sideText || 'Mock session' }], 'end_turn', {}, rec);
			return;
		}
		rec.kind = 'other';
		json(res, 404, { type: 'error', error: { type: 'not_found_error', message: `mock: no ${req.method} ${url}` } });
	});
	return {
		url: `http://127.0.0.1:${srv.port}`,
		port: srv.port,
		requests: srv.requests,
		main, side, queue,
		push: (...a) => queue.push(...a),
		close: srv.close,
	};
}

module.exports = { startClaudeMock, isMain };
