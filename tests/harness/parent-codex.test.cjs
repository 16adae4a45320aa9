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

const T = { timeout: 240000 };
const BUILD = path.dirname(process.env.AITERM_MCP || path.join(process.env.top_builddir, 'aiterm-mcp'));


test('DLV-CODEX: the child\'s answer reaches the Codex parent through its thread queue as the next turn', T, async (t) => {
	const parentMock = await startCodexMock({ defaultText: 'Parent default.' });
	t.after(() => parentMock.close());
	const childMock = await startClaudeMock({ defaultText: 'Child default.' });
	t.after(() => childMock.close());
	const rig = new AgentRig(t);
	const d = rig.dirs;
	rig.env.ANTHROPIC_BASE_URL = childMock.url;
	seedClaude(d.home, d.work, {});
	seedCodex(d.codex, d.work, `${parentMock.url}/v1`.replace(/\/v1\/v1$/, '/v1'));
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
	rig.show(t);
	await rig.start();

	childMock.push({ type: 'text', text: 'The child says 42.', holdMs: 2000 });
	parentMock.push(
		{ type: 'call', name: 'agent_launch', namespace: 'mcp__aiterm', args: { harness: 'claude-code', cwd: d.work, prompt: 'Child question?' } },
		{ type: 'text', text: 'Launched the child; I will wait.' },
		{ type: 'text', text: 'Got the child\'s answer.' },
	);
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: d.work, prompt: 'Ask the child' }, 120000);
	assert.equal(l.isError, false, l.text);
	const bodyText = (r) => JSON.stringify(r.body || {});
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
