'use strict';
/*
 * DLV-CODEX: a real Codex parent (the interactive TUI, in a pane) whose
 * Aiterm server aiterm-setup registered with `codex mcp add` launches a
 * real Claude Code child through Aiterm and ends its turn; when the
 * child's answer is ready, Aiterm hands it to Codex's own queue
 * (thread/queue/add through `codex app-server` of the same CODEX_HOME),
 * and Codex runs it as the thread's next turn: the parent's next request
 * to its mock model carries the answer.  The destination is the thread
 * Codex names in the call's _meta, nothing the model typed.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig, seedClaude, seedCodex } = require('./lib/agent-rig.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { until, sleep } = require('./lib/until.cjs');
const { startCodexMock } = require('./lib/codex-mock.cjs');
const { wrapperScript } = require('../mcp/lib/server.cjs');
const { tokens } = require('../clients/lib/common.cjs');

const T = { timeout: 240000 };
const BUILD = path.dirname(process.env.AITERM_MCP || path.join(process.env.top_builddir, 'aiterm-mcp'));


/*
 * A Codex parent (its mock) whose Aiterm server aiterm-setup registered,
 * and a Claude Code child (its mock).  top: config.toml lines; steer:
 * aiterm-setup --codex-steer enable before Codex starts.
 */
async function parentRig(t, opts = {}) {
	const parentMock = await startCodexMock({ defaultText: 'Parent default.' });
	t.after(() => parentMock.close());
	const childMock = await startClaudeMock({ defaultText: 'Child default.' });
	t.after(() => childMock.close());
	const rig = new AgentRig(t);
	const d = rig.dirs;
	rig.env.ANTHROPIC_BASE_URL = childMock.url;
	seedClaude(d.home, d.work, {});
	seedCodex(d.codex, d.work, `${parentMock.url}/v1`.replace(/\/v1\/v1$/, '/v1'), { top: opts.top || [] });
	/* Codex hands its MCP servers no environment: the server's is in its command. */
	const wrapper = path.join(d.bin, 'aiterm-mcp');
	fs.writeFileSync(wrapper, wrapperScript(rig.env, [path.join(BUILD, 'aiterm-mcp')]), { mode: 0o755 });
	const out = execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--server', wrapper, '--clients', 'codex-cli'],
		{ env: rig.env, encoding: 'utf8', timeout: 120000 });
	const s = JSON.parse(out);
	assert.equal(s.clients[0].status, 'registered', out);
	/* The user approves Aiterm's tools (else Codex asks on every call). */
	const cfg = path.join(d.codex, 'config.toml');
	const toml = fs.readFileSync(cfg, 'utf8');
	assert.match(toml, /AITERM_CODEX_BIN/, 'the receiver knows which codex serves this home');
	fs.writeFileSync(cfg, toml.replace(/^\[mcp_servers\.aiterm\]\n/m, '[mcp_servers.aiterm]\ndefault_tools_approval_mode = "approve"\n'));
	let steer = null;
	const before = {
		hooks: fs.existsSync(path.join(d.codex, 'hooks.json')) ? fs.readFileSync(path.join(d.codex, 'hooks.json'), 'utf8') : null,
		config: fs.readFileSync(cfg, 'utf8'),
	};
	if (opts.steer) {
		steer = JSON.parse(execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--server', wrapper, '--codex-steer', 'enable'],
			{ env: rig.env, encoding: 'utf8', timeout: 120000 }));
		assert.equal(steer.aiterm.codex_steer, 'ready', JSON.stringify(steer));
	}
	rig.show(t);
	await rig.start();
	return { rig, d, parentMock, childMock, wrapper, steer, before };
}

const bodyText = (r) => JSON.stringify(r.body || {});
const turnOf = (r) => { try { return JSON.parse(r.headers['x-codex-turn-metadata']).turn_id; } catch { return null; } };

test('DLV-CODEX: the child\'s answer reaches the Codex parent through its thread queue as the next turn', T, async (t) => {
	const { rig, d, parentMock, childMock } = await parentRig(t);
	childMock.push({ type: 'text', text: 'The child says 42.', holdMs: 2000 });
	parentMock.push(
		{ type: 'call', name: 'agent_launch', namespace: 'mcp__aiterm', args: { harness: 'claude-code', cwd: d.work, prompt: 'Child question?' } },
		{ type: 'text', text: 'Launched the child; I will wait.' },
		{ type: 'text', text: 'Got the child\'s answer.' },
	);
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: d.work, prompt: 'Ask the child' }, 120000);
	assert.equal(l.isError, false, l.text);
	const receipt = await until('the parent\'s tool result', () => parentMock.requests.find((r) => /delivery: d[0-9a-f]{16} waiting; the answer comes back by itself \(Codex thread queue\)/.test(bodyText(r))), 120000);
	assert.ok(receipt);
	const woke = await until('the parent\'s turn with the answer', () => parentMock.requests.find((r) => bodyText(r).includes('The child says 42.')), 120000);
	const text = bodyText(woke);
	t.diagnostic(`the parent read: ${text.slice(Math.max(0, text.indexOf('Aiterm: the answer') - 100), text.indexOf('Aiterm: the answer') + 200)}`);
	assert.match(text, /Aiterm: the answer of \S+ \(turn 1, delivery d[0-9a-f]{16}\):\\nThe child says 42\.\\n\[turn 1 done/);
	const list = await rig.call('parent_deliveries', {});
	const rec = list.sc.deliveries.find((x) => x.parent === 'codex');
	assert.ok(rec, list.text);
	assert.equal(rec.state, 'submitted', list.text);
	assert.equal(rec.home, d.codex);
});

/* Codex runs the tools without asking, outside a sandbox (a test tree). */
const FREE = ['approval_policy = "never"', 'sandbox_mode = "danger-full-access"'];
const sleepCall = (d, s) => ({ type: 'call', name: 'exec_command', args: { cmd: `sleep ${s}`, workdir: d.work } });

/*
 * The parent's model launches a Claude Code child (which answers answer
 * after holdMs) and then goes on with actions; the request that carried
 * the receipt and the first that carries the answer.
 */
async function askChild(p, answer, holdMs, actions) {
	p.childMock.push({ type: 'text', text: answer, holdMs });
	p.parentMock.push({ type: 'call', name: 'agent_launch', namespace: 'mcp__aiterm', args: { harness: 'claude-code', cwd: p.d.work, prompt: 'Child question?' } },
		...actions);
	const l = await p.rig.call('agent_launch', { harness: 'codex-cli', cwd: p.d.work, prompt: 'Ask the child' }, 120000);
	assert.equal(l.isError, false, l.text);
	const receipt = await until('the parent\'s tool result', () => p.parentMock.requests.find((r) => /delivery: d[0-9a-f]{16} waiting; the answer comes back by itself/.test(bodyText(r))), 120000);
	const got = await until('the answer in the parent\'s requests', () => p.parentMock.requests.find((r) => bodyText(r).includes(answer)), 120000);
	return { receipt, got };
}

test('DLV-CODEX Steer: a parent mid tool loop gets the child\'s answer in the same turn (PostToolUse)', T, async (t) => {
	const p = await parentRig(t, { top: FREE, steer: true });
	const { rig, d, parentMock } = p;
	const loop = [];
	for (let i = 0; i < 8; i++)
		loop.push(sleepCall(d, 3));
	const { receipt, got } = await askChild(p, 'The child says 42.', 2000, [...loop, { type: 'text', text: 'Done with the loop.' }]);
	const text = bodyText(got);
	const at = text.indexOf('Aiterm: the answer');
	t.diagnostic(`the parent read: ${text.slice(Math.max(0, at - 300), at + 200)}`);
	assert.ok(turnOf(receipt), 'Codex names its turn');
	assert.equal(turnOf(got), turnOf(receipt), 'the same turn: Steer, not the queue\'s next turn');
	assert.match(text, /Aiterm: the answer of \S+ \(turn 1, delivery d[0-9a-f]{16}\):\\nThe child says 42\./);
	/* What the model reads of it: a developer message of the hook's text (counted). */
	const steered = (got.body.input || []).find((i) => i.role === 'developer' && JSON.stringify(i.content).includes('The child says 42.'));
	assert.ok(steered, 'Codex hands the hook\'s additionalContext to the model as a developer message');
	t.diagnostic(`the Steer hand-over as the model reads it: ${tokens(steered.content[0].text)} tokens: ${JSON.stringify(steered.content[0].text)}`);
	/* It came after a tool's output of this turn, not as a new user turn. */
	const idx = parentMock.requests.indexOf(got);
	assert.ok(parentMock.requests.slice(parentMock.requests.indexOf(receipt), idx).every((r) => turnOf(r) === turnOf(receipt)));
	const list = await until('the hand-over recorded', async () => {
		const r = await rig.call('parent_deliveries', {});
		const rec = r.sc.deliveries.find((x) => x.parent === 'codex');
		return rec && rec.codex_hook && rec.codex_hook.state === 'emitted' ? r : null;
	}, 30000);
	const rec = list.sc.deliveries.find((x) => x.parent === 'codex');
	assert.equal(rec.state, 'submitted', list.text);
	assert.match(list.text, /steer emitted/);
	assert.equal(rec.codex_hook.error, undefined);
	/* Once: no later request starts a turn with it again. */
	await sleep(3000);
	assert.equal(parentMock.requests.filter((r) => turnOf(r) !== turnOf(receipt) && bodyText(r).includes('The child says 42.')).length, 0, 'never resent as a queued turn');
});

test('DLV-CODEX Steer: an answer that arrives while the final reply is written continues the same turn (Stop)', T, async (t) => {
	const p = await parentRig(t, { top: FREE, steer: true });
	const { receipt, got } = await askChild(p, 'The child says 43.', 1000, [
		{ type: 'text', text: 'Writing my final reply slowly.', chunks: 4, delayMs: 500, holdMs: 15000 },
		{ type: 'text', text: 'Now with the child\'s answer.' },
	]);
	assert.equal(turnOf(got), turnOf(receipt), 'the Stop hook continued the same turn');
	const list = await p.rig.call('parent_deliveries', {});
	const rec = list.sc.deliveries.find((x) => x.parent === 'codex');
	assert.equal(rec.codex_hook && rec.codex_hook.state, 'emitted', list.text);
});

test('DLV-CODEX Steer: a parent that already ended its turn gets the answer as its next turn (the queue)', T, async (t) => {
	const p = await parentRig(t, { top: FREE, steer: true });
	const { rig, d, wrapper, before } = p;
	const { receipt, got } = await askChild(p, 'The child says 44.', 3000, [
		{ type: 'text', text: 'Launched the child; I will wait.' },
		{ type: 'text', text: 'Got the child\'s answer.' },
	]);
	assert.notEqual(turnOf(got), turnOf(receipt), 'a turn of its own');
	const list = await rig.call('parent_deliveries', {});
	const rec = list.sc.deliveries.find((x) => x.parent === 'codex');
	assert.equal(rec.state, 'submitted', list.text);
	assert.equal(rec.codex_hook, undefined, 'no hook took it: the queue ran it');
	/* disable: hooks.json and the approvals as they were, byte for byte. */
	const dis = JSON.parse(execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--server', wrapper, '--codex-steer', 'disable'],
		{ env: rig.env, encoding: 'utf8', timeout: 120000 }));
	assert.equal(dis.aiterm.codex_steer, 'disabled', JSON.stringify(dis));
	assert.equal(before.hooks, null);
	assert.equal(fs.existsSync(path.join(d.codex, 'hooks.json')), false, 'there was no hooks.json');
	/* The TUI itself appends its [tui] notes; everything else as it was. */
	const after = fs.readFileSync(path.join(d.codex, 'config.toml'), 'utf8');
	assert.ok(after.startsWith(before.config), `config.toml byte for byte up to what Codex added: ${after}`);
	assert.doesNotMatch(after.slice(before.config.length), /hooks/, 'no approval of ours left');
});

test('DLV-CODEX Steer: hooks racing for one queued answer: exactly one prints it', T, async (t) => {
	const { rig, d, parentMock, childMock } = await parentRig(t, { top: FREE, steer: true });
	childMock.push({ type: 'text', text: 'The child says 45.', holdMs: 1000 });
	parentMock.push(
		{ type: 'call', name: 'agent_launch', namespace: 'mcp__aiterm', args: { harness: 'claude-code', cwd: d.work, prompt: 'Child question?' } },
		sleepCall(d, 40),
		{ type: 'text', text: 'Slept.' },
	);
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: d.work, prompt: 'Ask the child' }, 120000);
	assert.equal(l.isError, false, l.text);
	/* While the parent sleeps in its tool, the answer is put on the queue. */
	const rec = await until('the answer on the queue', async () => {
		const r = await rig.call('parent_deliveries', {});
		return r.sc.deliveries.find((x) => x.parent === 'codex' && x.state === 'submitted');
	}, 120000);
	const { spawn } = require('node:child_process');
	const hook = path.join(BUILD, 'aiterm-hook');
	const input = JSON.stringify({ session_id: rec.conversation, hook_event_name: 'PostToolUse', tool_name: 'exec_command' });
	const runs = await Promise.all([0, 1, 2, 3, 4, 5].map(() => new Promise((resolve) => {
		const p = spawn(hook, ['codex-post', '--state-dir', d.state], { env: Object.assign({}, rig.env, { CODEX_HOME: d.codex }), stdio: ['pipe', 'pipe', 'pipe'] });
		let out = '', err = '';
		p.stdout.on('data', (b) => { out += b; });
		p.stderr.on('data', (b) => { err += b; });
		p.on('exit', (code) => resolve({ code, out, err }));
		p.stdin.end(input);
	})));
	t.diagnostic(JSON.stringify(runs));
	const printed = runs.filter((r) => r.out.includes('The child says 45.'));
	assert.equal(printed.length, 1, 'exactly one hook printed it');
	const o = JSON.parse(printed[0].out);
	assert.equal(o.hookSpecificOutput.hookEventName, 'PostToolUse');
	assert.match(o.hookSpecificOutput.additionalContext, /^Aiterm: the answer of \S+ \(turn 1, delivery d[0-9a-f]{16}\):\nThe child says 45\./);
	assert.ok(runs.every((r) => r.code === 0), JSON.stringify(runs));
	const owned = fs.readdirSync(path.join(d.state, 'codex-hooks'));
	assert.equal(owned.length, 1, owned.join(' '));
	assert.equal((fs.statSync(path.join(d.state, 'codex-hooks')).mode & 0o777), 0o700);
	const list = await rig.call('parent_deliveries', {});
	assert.equal(list.sc.deliveries.find((x) => x.id === rec.id).codex_hook.state, 'emitted', list.text);
});
