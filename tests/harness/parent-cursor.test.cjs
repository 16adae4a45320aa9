'use strict';
/*
 * DLV-CURSOR: Cursor's CLI cannot be installed here, so the parent is this
 * test speaking MCP as Cursor does (clientInfo.name "cursor-vscode") and
 * running the hook commands aiterm-setup wrote into ~/.cursor/hooks.json
 * the way Cursor runs them (a shell command, the documented JSON on stdin:
 * conversation_id, tool_name, result_json; postToolUse's answer
 * additional_context on stdout).  The child is the real Claude Code.
 * Without the hooks the call is refused before anything reaches a child;
 * with them the next tool call's postToolUse carries the answer, or the
 * receipt's wait_process prints it when the turn ended first: never both.
 */
const { execFileSync, spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig, seedClaude } = require('./lib/agent-rig.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { until } = require('./lib/until.cjs');
const { wrapperScript } = require('../mcp/lib/server.cjs');

const T = { timeout: 120000 };
const BUILD = path.dirname(process.env.AITERM_MCP || path.join(process.env.top_builddir, 'aiterm-mcp'));

async function cursorRig(t) {
	const mock = await startClaudeMock({ defaultText: 'Child default.' });
	t.after(() => mock.close());
	const rig = new AgentRig(t);
	rig.env.ANTHROPIC_BASE_URL = mock.url;
	rig.clientInfo = { name: 'cursor-vscode', version: '1.7.0' };
	seedClaude(rig.dirs.home, rig.dirs.work, {});
	fs.mkdirSync(path.join(rig.dirs.home, '.cursor'));
	rig.show(t);
	await rig.start();
	return { rig, mock };
}

function setupCursor(rig) {
	const wrapper = path.join(rig.dirs.bin, 'aiterm-mcp');
	const vars = Object.fromEntries(Object.entries(rig.env).filter(([k]) => /^(AITERM_|XDG_|TMUX_TMPDIR$)/.test(k)));
	fs.writeFileSync(wrapper, wrapperScript(vars, [path.join(BUILD, 'aiterm-mcp')]), { mode: 0o755 });
	const out = JSON.parse(execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--server', wrapper, '--clients', 'cursor'],
		{ env: rig.env, encoding: 'utf8', timeout: 120000 }));
	assert.equal(out.ok, true, JSON.stringify(out));
	return JSON.parse(fs.readFileSync(path.join(rig.dirs.home, '.cursor', 'hooks.json'), 'utf8'));
}

/* Runs a hooks.json entry as Cursor does: its command in a shell, the input on stdin. */
function runHook(rig, entry, input) {
	const r = spawnSync('/bin/sh', ['-c', entry.command], { env: rig.env, input: JSON.stringify(input), encoding: 'utf8', timeout: 30000 });
	assert.equal(r.status, 0, r.stderr);
	return JSON.parse(r.stdout);
}

function waiter(argv, env) {
	return new Promise((resolve) => {
		const c = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '', stderr = '';
		c.stdout.on('data', (b) => { stdout += b; });
		c.stderr.on('data', (b) => { stderr += b; });
		const timer = setTimeout(() => c.kill('SIGKILL'), 60000);
		c.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr }); });
	});
}

const base = (rig) => ({ conversation_id: 'conv-7f3a', generation_id: 'gen-1', workspace_roots: [rig.dirs.work] });

test('DLV-CURSOR: refused without Aiterm\'s hooks; with them postToolUse adds the answer to the conversation once', T, async (t) => {
	const { rig, mock } = await cursorRig(t);
	const refused = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Child question?' });
	assert.equal(refused.isError, true, refused.text);
	assert.match(refused.text, /CURSOR_PARENT_HOOK_UNAVAILABLE/);
	assert.equal((await rig.call('pty_list', {})).text.includes('claude'), false, 'no child started');

	const hooks = setupCursor(rig);
	assert.equal(hooks.version, 1);
	const after = hooks.hooks.afterMCPExecution.find((h) => h.command.includes('aiterm-hook'));
	const post = hooks.hooks.postToolUse.find((h) => h.command.includes('aiterm-hook'));
	assert.ok(after && post, JSON.stringify(hooks));

	mock.push({ type: 'text', text: 'The child says 42.', holdMs: 2500 });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Child question?' });
	assert.equal(l.isError, false, l.text);
	const m = l.text.match(/^delivery: (d[0-9a-f]{16}) waiting; your next tool call gets the answer \(Cursor hook\); if you end your turn first, run: .+$/m);
	assert.ok(m, l.text);
	assert.equal(l.sc.wait_command, null);
	assert.equal(l.sc.wait_process.argv.at(-1), m[1]);
	/* Cursor's afterMCPExecution: the tool's result as result_json. */
	assert.deepEqual(runHook(rig, after, Object.assign(base(rig), { hook_event_name: 'afterMCPExecution', tool_name: 'MCP:aiterm:agent_launch',
		tool_input: JSON.stringify({ harness: 'claude-code' }), result_json: JSON.stringify(l.result), duration: 12 })), {});
	/* A tool call before the answer: nothing yet. */
	const early = runHook(rig, post, Object.assign(base(rig), { hook_event_name: 'postToolUse', tool_name: 'Shell', tool_input: {}, tool_output: 'ok' }));
	assert.deepEqual(early, {});
	await until('the answer stored', () => fs.existsSync(path.join(rig.dirs.state, 'parent-deliveries', `${m[1]}.body`)), 60000);
	const got = runHook(rig, post, Object.assign(base(rig), { hook_event_name: 'postToolUse', tool_name: 'Shell', tool_input: {}, tool_output: 'ok' }));
	assert.match(got.additional_context, /^Aiterm: the answer of \S+ \(turn 1, delivery d[0-9a-f]{16}\):\nThe child says 42\.\n\[turn 1 done/, JSON.stringify(got));
	assert.deepEqual(runHook(rig, post, Object.assign(base(rig), { hook_event_name: 'postToolUse', tool_name: 'Shell' })), {}, 'once');
	const w = spawnSync(l.sc.wait_process.argv[0], l.sc.wait_process.argv.slice(1), { env: rig.env, encoding: 'utf8', timeout: 10000 });
	assert.equal(w.status, 3, w.stderr);
	const list = await rig.call('parent_deliveries', {});
	assert.match(list.text, new RegExp(`^${m[1]}\\tsubmitted\\t`, 'm'), list.text);
});

test('DLV-CURSOR: a parent that ended its turn runs wait_process; the hook then has nothing to add', T, async (t) => {
	const { rig, mock } = await cursorRig(t);
	const hooks = setupCursor(rig);
	const after = hooks.hooks.afterMCPExecution.find((h) => h.command.includes('aiterm-hook'));
	const post = hooks.hooks.postToolUse.find((h) => h.command.includes('aiterm-hook'));
	mock.push({ type: 'text', text: 'Printed by the waiter.', holdMs: 1500 });
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Child question?' });
	runHook(rig, after, Object.assign(base(rig), { hook_event_name: 'afterMCPExecution', tool_name: 'MCP:aiterm:agent_launch', result_json: JSON.stringify(l.result) }));
	/* Not spawnSync: the mock model answering the child runs in this process. */
	const w = await waiter(l.sc.wait_process.argv, rig.env);
	assert.equal(w.status, 0, w.stderr);
	assert.match(w.stdout, /^Printed by the waiter\.\n\[turn 1 done/);
	assert.deepEqual(runHook(rig, post, Object.assign(base(rig), { hook_event_name: 'postToolUse', tool_name: 'Shell' })), {});
	/* --remove-cursor-parent-hooks takes out only Aiterm's. */
	const file = path.join(rig.dirs.home, '.cursor', 'hooks.json');
	const h = JSON.parse(fs.readFileSync(file, 'utf8'));
	h.hooks.postToolUse.unshift({ command: 'echo theirs' });
	fs.writeFileSync(file, JSON.stringify(h));
	execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--remove-cursor-parent-hooks', '--server', path.join(rig.dirs.bin, 'aiterm-mcp')], { env: rig.env });
	assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), { version: 1, hooks: { postToolUse: [{ command: 'echo theirs' }] } });
});
