'use strict';
/*
 * The scripted model shared by the two mock servers (mock-anthropic.cjs,
 * mock-openai.cjs) and a small HTTP server skeleton for them.
 *
 * A script is a list of steps {tool, args, native, if}: if(results,
 * last), when given and false at the step's turn, leaves the step out
 * (a model that reacts to what it read).  native marks a tool
 * of the client's own (Claude Code's Bash, Codex's exec_command), called
 * by its plain name; the others are the MCP server's.  args is an object, or a
 * function (results, last) => object called with the results so far
 * (each {tool, args, seen, isError, raw, at}; a left-out step has none) and the last of them (last.seen
 * is the text the model saw for the previous call).  Answering the main loop is
 * idempotent: the mock gives its tool calls fixed ids (one per step), and
 * for each main-loop request it counts how many of them already have a
 * result in the conversation, records those results and answers with the
 * next step, or with the final text once every step has a result.  A
 * retried request therefore gets the same answer again.
 */
const http = require('node:http');

class Script {
	constructor(steps, opts = {}) {
		this.steps = (steps || []).map((s, i) => {
			if (!s || typeof s.tool !== 'string')
				throw new Error(`step ${i} has no tool name`);
			return s;
		});
		this.final = opts.final || 'Done.';
		this.idPrefix = opts.idPrefix || 'call_aiterm_';
		this.results = [];	/* one per step, filled as results arrive */
		this.resolvedArgs = [];	/* args as sent, one per step issued */
		this.issuedAt = [];	/* Date.now() when each step's call was sent */
		this.skipped = [];	/* steps left out by their if() */
		this.finished = false;	/* the final text was sent */
		this.errors = [];	/* args functions that threw, etc. */
	}

	id(k) {
		return `${this.idPrefix}${k}`;
	}

	/* Index of the step a call id belongs to, or -1. */
	indexOf(id) {
		if (typeof id !== 'string' || !id.startsWith(this.idPrefix))
			return -1;
		const k = Number(id.slice(this.idPrefix.length));
		return Number.isInteger(k) && k >= 0 && k < this.steps.length ? k : -1;
	}

	/* Answers one main-loop request: records it, returns the next action. */
	answer(rec, found, main) {
		rec.kind = 'main';
		main.push(rec);
		rec.answer = this.advance(found);
		return rec.answer;
	}

	/*
	 * found: Map step index -> {seen, raw, isError} taken from one request.
	 * Records new results and returns the next action:
	 * {kind:'tool', k, id, tool, args} or {kind:'final', text}.
	 */
	advance(found) {
		let k = 0;
		for (;;) {
			while (k < this.steps.length && (this.skipped[k] || found.has(k))) {
				const f = found.get(k);
				if (f && !this.results[k]) {
					this.results[k] = {
						tool: this.steps[k].tool,
						args: this.resolvedArgs[k],
						seen: f.seen,
						isError: !!f.isError,
						raw: f.raw,
						at: Date.now(),
					};
				}
				k++;
			}
			if (k >= this.steps.length) {
				this.finished = true;
				return { kind: 'final', text: this.final };
			}
			if (this.resolvedArgs[k] === undefined) {
				const step = this.steps[k];
				const prev = this.results.slice(0, k);
				const last = prev.filter(Boolean).pop();
				let args = step.args;
				try {
					/* step.if(prev, last) false: the model leaves this step out. */
					if (step.if && !step.if(prev, last)) {
						this.skipped[k] = true;
						continue;
					}
					if (typeof args === 'function')
						args = args(prev, last);
				} catch (err) {
					this.errors.push(`step ${k} (${step.tool}) args: ${err.message}`);
					this.finished = true;
					return { kind: 'final', text: `script error: ${err.message}` };
				}
				this.resolvedArgs[k] = args || {};
				this.issuedAt[k] = Date.now();
			}
			return { kind: 'tool', k, id: this.id(k), tool: this.steps[k].tool, args: this.resolvedArgs[k], native: !!this.steps[k].native };
		}
	}
}

/*
 * The text of a tool result as the model receives it: a string stays as
 * it is; an array of content blocks gives its text parts joined with "\n"
 * (non-text blocks as their JSON).  The raw value is recorded beside it.
 */
function flatten(content) {
	if (content === undefined || content === null)
		return '';
	if (typeof content === 'string')
		return content;
	if (Array.isArray(content)) {
		return content.map((b) => {
			if (b && typeof b.text === 'string')
				return b.text;
			return JSON.stringify(b);
		}).join('\n');
	}
	return JSON.stringify(content);
}

/*
 * Starts an HTTP server on 127.0.0.1 with an ephemeral port.  handler(req,
 * res, body, rec) answers; every request is recorded as {method, url,
 * headers, body (parsed JSON or text), time}.
 */
async function serve(handler) {
	const requests = [];
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (c) => chunks.push(c));
		req.on('end', async () => {
			const text = Buffer.concat(chunks).toString('utf8');
			let body = text;
			if (text) {
				try { body = JSON.parse(text); } catch { /* keep the text */ }
			}
			const rec = { method: req.method, url: req.url, headers: req.headers, body, time: Date.now() };
			requests.push(rec);
			try {
				await handler(req, res, body, rec);
			} catch (err) {
				rec.error = err.stack || String(err);
				if (!res.headersSent) {
					res.writeHead(500, { 'content-type': 'application/json' });
					res.end(JSON.stringify({ error: { type: 'mock_error', message: String(err) } }));
				} else {
					res.end();
				}
			}
		});
	});
	server.keepAliveTimeout = 1000;
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const { port } = server.address();
	return {
		server,
		port,
		requests,
		close: () => new Promise((resolve) => {
			server.closeAllConnections?.();
			server.close(() => resolve());
		}),
	};
}

/* Writes one server-sent event. */
function sse(res, event, data) {
	res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function json(res, status, obj, headers = {}) {
	const s = JSON.stringify(obj);
	res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(s) });
	res.end(s);
}

module.exports = { Script, flatten, serve, sse, json };
