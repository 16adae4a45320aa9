'use strict';
/*
 * The mock model behind the Cursor stand-in (tests/harness/cursor-standin):
 * OpenAI Chat Completions on 127.0.0.1 (lib/mock-server.cjs), every POST
 * /v1/chat/completions taking the next action of the test's queue
 * (mock.push).  The stand-in finds it through CURSOR_STANDIN_MODEL_URL;
 * the real CLI talks to Cursor's backend, which no test can reach.
 */
const fs = require('node:fs');
const path = require('node:path');
const { startMockServer, urlPath } = require('./mock-server.cjs');

async function startCursorMock(opts = {}) {
	return startMockServer(async (req, res, body, rec, ctx) => {
		if (req.method !== 'POST' || !urlPath(req).endsWith('/chat/completions'))
			return false;
		rec.kind = 'main';
		rec.action = ctx.take();
		await ctx.chatStream(res, body, rec.action);
		return true;
	}, opts);
}

/*
 * A user's ~/.cursor: cli-config.json (documented: "version" and
 * "permissions" allow/deny lists) and, when hooks are given, hooks.json
 * (documented: {"version": 1, "hooks": {event: [{command}]}}).
 */
function seedCursor(home, parts = {}) {
	const dir = path.join(home, '.cursor');
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.writeFileSync(path.join(dir, 'cli-config.json'),
		JSON.stringify({ version: 1, permissions: { allow: [], deny: [] } }, null, 2));
	if (parts.hooks)
		fs.writeFileSync(path.join(dir, 'hooks.json'), JSON.stringify({ version: 1, hooks: parts.hooks }, null, 2));
}

/* The stand-in's executable (a node script with a shebang). */
function cursorBinary() {
	return path.resolve(__dirname, '..', 'cursor-standin', 'agent.cjs');
}

/* ASSUMED project id of a real cwd (the stand-in's store.cjs). */
const { projectId } = require('../cursor-standin/store.cjs');

module.exports = { startCursorMock, seedCursor, cursorBinary, projectId };
