'use strict';
/*
 * bench/tasks/run.cjs: one task one way on one client, and the figures of
 * that run, all computed from what the mock model received: the tool
 * results (tokens, facts of the task's must_keep found in them after the
 * reference stripper, the time of each call and whether a wait ran out
 * its timeout) and the tool definitions the client sent (the way's own
 * tools; for aiterm with Claude Code's tool search: the deferred listing up
 * front, the schemas once loaded).  Needs NODE_PATH on the build tree's
 * tests/clients/node_modules and AITERM_MCP & co. in the environment
 * (bench/tasks.cjs, tests/clients/run.sh set them).
 */
const path = require('node:path');
const { runClaude, findInstructions } = require('../../tests/clients/lib/claude.cjs');
const { runCodex } = require('../../tests/clients/lib/codex.cjs');
const { tokens } = require('../../tests/clients/lib/common.cjs');
const { strip } = require('../lib/strip.cjs');
const { NATIVE } = require('./ways.cjs');

const TASKS = {
	ssh: require('./ssh.cjs'),
	build: require('./build.cjs'),
	repl: require('./repl.cjs'),
	longjob: require('./longjob.cjs'),
};

/* The ways each client runs, in table order. */
const WAYS = {
	claude: [
		{ way: 'aiterm', label: 'aiterm' },
		{ way: 'aiterm', label: 'aiterm-nosearch', env: { ENABLE_TOOL_SEARCH: 'false' } },
		{ way: 'shell', label: 'bash' },
		{ way: 'tmux', label: 'tmux' },
	],
	codex: [
		{ way: 'aiterm', label: 'aiterm' },
		{ way: 'shell', label: 'exec' },
		{ way: 'tmux', label: 'tmux' },
	],
};

const PREFIX = 'mcp__aiterm__';
const json = (x) => JSON.stringify(x);

/* The lines naming our deferred tools in a Claude request (tool search). */
function deferredLines(body) {
	const out = [];
	for (const m of body.messages || []) {
		const text = typeof m.content === 'string' ? m.content : (m.content || []).map((b) => b.text || '').join('\n');
		if (/deferred tools/.test(text))
			out.push(...text.split('\n').filter((l) => l.trim().startsWith(PREFIX)));
	}
	return out;
}

/*
 * Tokens of the way's tool definitions as the client sent them: upfront
 * (the first request) and full (once loaded, the last request).
 * Claude Code: aiterm's mcp__aiterm__* tools plus the server instructions
 * in the system prompt, or the Bash tool.  Codex: the mcp__aiterm
 * namespace tool (its description is the instructions), or exec_command
 * and write_stdin.
 */
function defs(client, way, r) {
	if (!r.main.length)
		return { upfront: null, full: null };
	const first = r.main[0].body;
	const last = r.main[r.main.length - 1].body;
	const pick = (body, f) => (body.tools || []).filter(f).map(({ defer_loading: _, ...t }) => t);
	if (client === 'claude') {
		if (way !== 'aiterm') {
			const n = tokens(json(pick(first, (t) => t.name === 'Bash')));
			return { upfront: n, full: n };
		}
		const instr = (body) => tokens(findInstructions(body, 'aiterm').text || '');
		const mine = (t) => t.name.startsWith(PREFIX);
		const up = pick(first, mine);
		return {
			upfront: (up.length ? tokens(json(up)) : tokens(deferredLines(first).join('\n'))) + instr(first),
			full: tokens(json(pick(last, mine))) + instr(last),
		};
	}
	const f = way === 'aiterm' ? (t) => t.type === 'namespace' && t.name === 'mcp__aiterm' :
		(t) => ['exec_command', 'write_stdin'].includes(t.name);
	const n = tokens(json(pick(way === 'aiterm' ? last : first, f)));
	return { upfront: n, full: n };
}

/*
 * The task's must_keep strings found in none of the results the model
 * received (each after the reference stripper, bench/lib/strip.cjs), with
 * runs of blanks as one space (a reducer may realign columns).
 */
function lostFacts(task, results) {
	const flat = (x) => x.replace(/[ \t]+/g, ' ');
	const seen = flat(strip(results.map((x) => String(x.seen)).join('\n')));
	return task.must_keep.filter((f) => !seen.includes(flat(f)));
}

/* An aiterm call that waited and used up its whole timeout (default 10 s). */
function ranOut(r) {
	if (!['pty_send', 'pty_read'].includes(r.tool) || !(r.args.wait || r.args.until))
		return false;
	return r.ms >= (r.args.timeout || 10) * 1000 - 250;
}

async function runTask(task, client, way, shared) {
	const ctx = { shared };
	const steps = task.ways[way.way](ctx, client);
	const env = Object.assign({}, way.env || {});
	if (shared && shared.bin)
		env.PATH = `${shared.bin}:${process.env.PATH}`;
	const opts = {
		steps, mcpConfig: true, env, timeoutMs: 300000,
		noServer: way.way !== 'aiterm',
		native: way.way === 'aiterm' ? [] : NATIVE[client],
		prompt: `Do the "${task.name}" task with the terminal tools.`,
		final: 'Done.',
		prepare: async (dirs) => {
			ctx.work = dirs.work;
			ctx.home = dirs.home;
			ctx.sock = path.join(dirs.tmux, 'bench.sock');
			await task.prepare(ctx);
		},
	};
	const r = client === 'claude' ? await runClaude(opts) : await runCodex(opts);
	const results = r.results.map((x) => Object.assign({}, x, { tokens: tokens(x.seen), ranOut: way.way === 'aiterm' && ranOut(x) }));
	const lost = lostFacts(task, results);
	const searches = r.main.filter((m) => m.toolSearch).length;
	const problems = [];
	if (r.timedOut)
		problems.push('client timed out');
	if (r.exitCode !== 0)
		problems.push(`client exit ${r.exitCode}: ${String(r.stderr).slice(-300)}`);
	if (!r.finished)
		problems.push('the script did not finish');
	problems.push(...r.scriptErrors);
	const d = defs(client, way.way, r);
	return {
		task: task.name, client, way: way.label,
		calls: results.length + searches,
		tool_search_calls: searches,
		tokens: results.reduce((a, x) => a + x.tokens, 0),
		defs_upfront: d.upfront, defs_full: d.full,
		facts: task.must_keep.length, kept: task.must_keep.length - lost.length, lost,
		waits_ran_out: results.filter((x) => x.ranOut).length,
		task_ms: r.main.length ? r.main[r.main.length - 1].time - r.main[0].time : null,
		client_ms: r.ms,
		problems,
		results: results.map((x) => ({ tool: x.tool, args: x.args, tokens: x.tokens, ms: x.ms, ranOut: x.ranOut, seen: x.seen })),
	};
}

module.exports = { runTask, lostFacts, TASKS, WAYS, defs, ranOut };
