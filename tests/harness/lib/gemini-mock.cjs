'use strict';
/*
 * A programmable mock of the Gemini API (generativelanguage, v1beta) for
 * the Gemini CLI (@google/gemini-cli), written for this project.  The CLI
 * reads GEMINI_API_KEY and GOOGLE_GEMINI_BASE_URL (this mock's root, no
 * /v1beta) and posts to
 *
 *   /v1beta/models/<model>:streamGenerateContent?alt=sse   a turn (SSE)
 *   /v1beta/models/<model>:generateContent                 side calls
 *   /v1beta/models/<model>:countTokens                     token counts
 *
 * Every streamGenerateContent takes the next action from a queue the test
 * fills (mock.push(action)), else opts.reply(body) when given, else
 * opts.defaultText.  Actions:
 *
 *   {type:'text', text, chunks:n, delayMs}  n text parts, delayMs apart
 *   {type:'hold', text}                     nothing until mock.release()
 *   {type:'call', name, args, text}         text (if any), then one
 *                                           functionCall part
 *   {type:'status', status, body}           an HTTP error instead of SSE
 *
 * generateContent never takes from the queue: it is the CLI's own side
 * calls.  With model "auto" the CLI first asks a router classifier which
 * model to use and wants JSON back ({reasoning, model_choice}); it asks
 * again until the answer parses.  Any generateContent that asks for JSON
 * (generationConfig.responseMimeType application/json) gets an object
 * made from its schema (enums: the first value; strings: "mock"), the
 * others opts.sideText.  Every request is recorded {method, url, body,
 * time, kind, action}; kind is 'main', 'json' (a JSON side call), 'side'
 * or 'count'.
 */
const { startMockServer, urlPath, delay } = require('./mock-server.cjs');
const { json } = require('../../clients/lib/script.cjs');

/* A value of JSON schema s (either responseSchema or responseJsonSchema). */
function fromSchema(s) {
	if (!s || typeof s !== 'object')
		return 'mock';
	const type = String(s.type || '').toLowerCase();
	if (Array.isArray(s.enum) && s.enum.length)
		return s.enum[0];
	if (type === 'object' || s.properties) {
		const o = {};
		for (const [k, v] of Object.entries(s.properties || {}))
			o[k] = fromSchema(v);
		return o;
	}
	if (type === 'array')
		return [];
	if (type === 'boolean')
		return false;
	if (type === 'number' || type === 'integer')
		return 0;
	return 'mock';
}

function candidate(parts, finish) {
	const c = { content: { role: 'model', parts }, index: 0 };
	if (finish)
		c.finishReason = finish;
	return c;
}

const usage = { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };

async function stream(res, act, ctx) {
	if (ctx.status(res, act))
		return;
	res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
	const send = (parts, finish) => res.write(`data: ${JSON.stringify({ candidates: [candidate(parts, finish)],
		usageMetadata: usage, modelVersion: 'mock-model' })}\r\n\r\n`);
	if (act.type === 'hold')
		await ctx.hold();
	const text = act.type === 'call' ? act.text || '' : act.text || ctx.defaultText;
	const chunks = Math.max(1, act.chunks || 1);
	const size = Math.max(1, Math.ceil(text.length / chunks));
	for (let i = 0; i < text.length; i += size) {
		if (i > 0 && act.delayMs)
			await delay(act.delayMs);
		send([{ text: text.slice(i, i + size) }]);
	}
	if (act.type === 'call') {
		if (act.delayMs)
			await delay(act.delayMs);
		send([{ functionCall: { name: act.name, args: act.args || {} } }], 'STOP');
	} else {
		send([{ text: '' }], 'STOP');
	}
	res.end();
}

async function startGeminiMock(opts = {}) {
	const sideText = opts.sideText || 'Mock side answer.';
	return startMockServer(async (req, res, body, rec, ctx) => {
		const url = urlPath(req);
		if (req.method !== 'POST' || !url.startsWith('/v1beta/models/'))
			return false;
		if (url.endsWith(':streamGenerateContent')) {
			const act = opts.reply && ctx.queue.length === 0 ? { type: 'text', text: opts.reply(body) } : ctx.take();
			rec.kind = 'main';
			rec.action = act;
			await stream(res, act, ctx);
			return true;
		}
		if (url.endsWith(':generateContent')) {
			const g = (body && body.generationConfig) || {};
			let text = sideText;
			rec.kind = 'side';
			if (/json/.test(String(g.responseMimeType || ''))) {
				rec.kind = 'json';
				text = JSON.stringify(fromSchema(g.responseJsonSchema || g.responseSchema));
			}
			json(res, 200, { candidates: [candidate([{ text }], 'STOP')], usageMetadata: usage, modelVersion: 'mock-model' });
			return true;
		}
		if (url.endsWith(':countTokens')) {
			rec.kind = 'count';
			json(res, 200, { totalTokens: 10 });
			return true;
		}
		return false;
	}, { defaultText: opts.defaultText }).then((m) => Object.assign(m, { url: `http://127.0.0.1:${m.port}` }));
}

/*
 * ~/.gemini/settings.json of a user who signed in with an API key (no
 * sign-in chooser), parts.noAuth leaves the choice out (the chooser),
 * parts.settings is merged in.
 */
function seedGemini(home, parts = {}) {
	const fs = require('node:fs');
	const path = require('node:path');
	const dir = path.join(home, '.gemini');
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	const s = { privacy: { usageStatisticsEnabled: false }, general: { disableAutoUpdate: true, disableUpdateNag: true } };
	if (!parts.noAuth)
		s.security = { auth: { selectedType: 'gemini-api-key' } };
	Object.assign(s, parts.settings || {});
	fs.writeFileSync(path.join(dir, 'settings.json'), JSON.stringify(s, null, 2) + '\n');
}

/* The CLI's entry point in the pinned package (run with node). */
function geminiEntry() {
	const path = require('node:path');
	return path.join(path.dirname(require.resolve('@google/gemini-cli/package.json')), 'bundle', 'gemini.js');
}

module.exports = { startGeminiMock, seedGemini, geminiEntry, fromSchema, delay };
