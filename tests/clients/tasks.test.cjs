'use strict';
/*
 * bench/tasks.cjs works (issue 34): one task (the build-fix loop) through
 * the real Claude Code, the aiterm way (tool search off) and the Bash way.
 * The row's figures are computed from the tool results the mock model
 * really received: the calls, their tokens, the facts of the task's
 * must_keep found in them (and lost when a result is missing).
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { runTask, lostFacts, TASKS, WAYS } = require('../../bench/tasks/run.cjs');
const { tokens } = require('./lib/common.cjs');

const T = { timeout: 180000 };
const task = TASKS.build;
const way = (label) => WAYS.claude.find((w) => w.label === label);
/* The tools the task's table calls, in order (it has no step left out by an if). */
const planned = (w) => task.ways[w]({}, 'claude').map((s) => s.tool);

function checkRow(row, tools) {
	assert.deepEqual(row.problems, [], JSON.stringify(row.problems));
	assert.deepEqual(row.results.map((r) => r.tool), tools);
	assert.equal(row.calls, tools.length);
	assert.equal(row.tokens, row.results.reduce((a, r) => a + tokens(r.seen), 0), 'tokens are those of the received results');
	assert.ok(row.tokens > 0);
	assert.equal(row.facts, task.must_keep.length);
	assert.deepEqual(row.lost, [], `facts lost: ${JSON.stringify(row.results.map((r) => r.seen))}`);
	assert.equal(row.kept, row.facts);
	/* Which result says what: the first make test fails, the last passes. */
	const makes = row.results.filter((r) => /make test/.test(JSON.stringify(r.args)));
	assert.match(String(makes[0].seen), /FAIL test_divide: calc_div\(8, 4\) = 32, want 2/);
	assert.match(String(makes[1].seen), /6 passed, 0 failed/);
	/* Without the last run's result, its fact is lost. */
	assert.deepEqual(lostFacts(task, row.results.filter((r) => r !== makes[1])), ['6 passed, 0 failed']);
	assert.ok(row.task_ms > 0 && row.defs_full > 0 && row.defs_upfront > 0);
}

test('bench/tasks: the build task through Claude Code with aiterm (tool search off) and with Bash', T, async (t) => {
	const a = await runTask(task, 'claude', way('aiterm-nosearch'));
	assert.ok(planned('aiterm').includes('pty_send'));
	checkRow(a, planned('aiterm'));
	assert.equal(a.tool_search_calls, 0);
	assert.equal(a.defs_upfront, a.defs_full, 'no tool search: every definition up front');
	assert.equal(a.waits_ran_out, 0);
	const b = await runTask(task, 'claude', way('bash'));
	assert.deepEqual(planned('shell'), ['Bash', 'Bash', 'Bash', 'Bash']);
	checkRow(b, planned('shell'));
	t.diagnostic(`aiterm: ${a.calls} calls, ${a.tokens} tokens, defs ${a.defs_full}; bash: ${b.calls} calls, ${b.tokens} tokens, defs ${b.defs_full}`);
});

/*
 * ADR 0041: the terminal's primitives carry "anthropic/alwaysLoad", so
 * Claude Code (tool search on, its default) lists them in the first
 * request and defers the rest: a terminal task costs no ToolSearch call;
 * a deferred tool is still found by one, when the model needs it.
 */
test('MCP-TOOLS ADR 0041: with Claude Code\'s tool search the primitives come up front, the rest behind one ToolSearch', T, async (t) => {
	const { runClaude } = require('./lib/claude.cjs');
	const PRIMITIVES = ['pty_open', 'pty_send', 'pty_read', 'pty_key', 'pty_close'];
	const r = await runClaude({
		mcpConfig: true,
		steps: [
			{ tool: 'pty_open', args: { name: 'up' } },
			{ tool: 'pty_send', args: { session_id: 'up', text: 'echo up-front', wait: true } },
			{ tool: 'diagnostics', args: {} },
			{ tool: 'pty_close', args: { session_id: 'up' } },
		],
	});
	assert.equal(r.exitCode, 0, r.stderr);
	assert.ok(r.finished, JSON.stringify(r.scriptErrors));
	assert.deepEqual(r.results.map((x) => x.isError), [false, false, false, false], JSON.stringify(r.results.map((x) => x.seen)));
	assert.match(r.results[1].seen, /^up-front$/m);
	const first = (r.main[0].body.tools || []).map((x) => x.name).filter((n) => n.startsWith('mcp__aiterm__'));
	assert.deepEqual(first.sort(), PRIMITIVES.map((n) => `mcp__aiterm__${n}`).sort(), 'the first request lists the primitives, no other tool of ours');
	/* One ToolSearch, made when the model needed diagnostics (the third request of six: four calls, the search, the final text). */
	assert.deepEqual(r.main.map((m) => !!m.toolSearch), [false, false, true, false, false, false]);
	t.diagnostic(`first request: ${first.length} aiterm tools up front; ToolSearch before diagnostics only`);
});
