'use strict';
/*
 * The part every mock model of tests/harness shares: a server on
 * 127.0.0.1 (tests/clients/lib/script.cjs's serve) that records each request {method, url, body, time,
 * kind, action}, a queue of actions the test fills (mock.push), held
 * answers that wait for mock.release(), and an OpenAI Chat Completions
 * SSE streamer (content deltas, tool_calls deltas, a usage chunk,
 * `data: [DONE]`).  A mock gives its routes: route(req, res, body, rec)
 * returns true when it answered; anything else is a JSON 404.
 *
 * Chat actions (chatStream):
 *   {type:'text', text, chunks:n, delayMs}  n content deltas, delayMs apart
 *   {type:'hold', text}                     nothing until mock.release()
 *   {type:'call', name, args}               one tool call (finish tool_calls)
 *   {type:'status', status, body}           an HTTP error instead of SSE
 */
const { serve, json } = require('../../clients/lib/script.cjs');

function delay(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

async function startMockServer(route, opts = {}) {
	const queue = [];
	let releaseFns = [];
	let seq = 0;
	const defaultText = opts.defaultText || 'Mock answer.';

	const ctx = {
		queue,
		defaultText,
		next: () => ++seq,
		/* The next queued action, or the default answer. */
		take: () => (queue.length ? queue.shift() : { type: 'text', text: defaultText }),
		/* Resolves when the test calls release(). */
		hold: () => new Promise((resolve) => { releaseFns.push(resolve); }),
	};

	/* An HTTP error answer: true when act was one. */
	ctx.status = (res, act) => {
		if (act.type !== 'status')
			return false;
		json(res, act.status || 500, act.body || { error: { message: 'mock error', type: 'server_error' } });
		return true;
	};

	/* One Chat Completions answer to body, streamed as SSE, from act. */
	ctx.chatStream = async (res, body, act) => {
		if (ctx.status(res, act))
			return;
		const n = ctx.next();
		const id = `chatcmpl-mock-${n}`;
		const model = (body && body.model) || 'mock-model';
		const chunk = (choice, extra) => res.write(`data: ${JSON.stringify(Object.assign({ id, object: 'chat.completion.chunk',
			created: Math.floor(Date.now() / 1000), model, choices: choice ? [Object.assign({ index: 0 }, choice)] : [] }, extra || {}))}\n\n`);
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
		chunk({ delta: { role: 'assistant', content: '' }, finish_reason: null });
		let finish = 'stop';
		if (act.type === 'call') {
			const args = JSON.stringify(act.args || {});
			const half = Math.ceil(args.length / 2);
			chunk({ delta: { tool_calls: [{ index: 0, id: act.callId || `call_mock_${n}`, type: 'function',
				function: { name: act.name, arguments: args.slice(0, half) } }] }, finish_reason: null });
			chunk({ delta: { tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }, finish_reason: null });
			finish = 'tool_calls';
		} else {
			const text = act.text || defaultText;
			if (act.type === 'hold')
				await ctx.hold();
			const chunks = Math.max(1, act.chunks || 1);
			const size = Math.ceil(text.length / chunks);
			for (let i = 0; i < text.length; i += size) {
				if (i > 0 && act.delayMs)
					await delay(act.delayMs);
				chunk({ delta: { content: text.slice(i, i + size) }, finish_reason: null });
			}
		}
		chunk({ delta: {}, finish_reason: finish });
		const input = Math.max(1, Math.ceil(JSON.stringify(body || {}).length / 4));
		chunk(null, { usage: { prompt_tokens: input, completion_tokens: 10, total_tokens: input + 10 } });
		res.write('data: [DONE]\n\n');
		res.end();
	};

	const srv = await serve(async (req, res, body, rec) => {
		if (await route(req, res, body, rec, ctx))
			return;
		rec.kind = 'other';
		json(res, 404, { error: { type: 'not_found', message: `mock: no ${req.method} ${req.url}` } });
	});
	const { port, requests } = srv;
	return {
		url: `http://127.0.0.1:${port}/v1`,
		port,
		requests,
		queue,
		push: (...acts) => { queue.push(...acts); },
		release: () => { const f = releaseFns; releaseFns = []; f.forEach((r) => r()); return f.length; },
		main: () => requests.filter((r) => r.kind === 'main'),
		/* Resolves once a held answer waits for release(). */
		held: async (ms = 30000) => {
			const t = Date.now();
			while (releaseFns.length === 0 && Date.now() - t < ms)
				await delay(50);
			return releaseFns.length;
		},
		close: () => {
			releaseFns.forEach((r) => r());
			return srv.close();
		},
	};
}

/* The path of a request without its query. */
function urlPath(req) {
	return req.url.split('?')[0];
}

module.exports = { startMockServer, urlPath, delay };
