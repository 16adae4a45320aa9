'use strict';
/*
 * REM-RELAY DLV-CODEX: a real Codex parent (the interactive TUI, in a
 * pane) launches a real Claude Code child on another host (a real sshd on
 * 127.0.0.1, key auth) with agent_launch{remote}, and ends its turn.  Its
 * Aiterm server takes the far delivery over (ADR 0027): a local record
 * that names the host, Codex's receipt ("comes back by itself"), and a
 * relayed pty_read of the child's turn.  The ssh connection is killed
 * while the child still thinks; the server reads the same turn again and
 * hands the answer to Codex's thread queue: the parent's next request to
 * its mock model carries it.  The same for a Claude Code parent, woken by
 * its PostToolUse hook.
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig, seedClaude, seedCodex } = require('./lib/agent-rig.cjs');
const { setupParent } = require('./lib/claude-parent.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { startCodexMock } = require('./lib/codex-mock.cjs');
const { until } = require('./lib/until.cjs');
const { sshdUnavailable } = require('../mcp/lib/sshd.cjs');
const { startFarHost } = require('./lib/far-host.cjs');
const { sshProcs } = require('../mcp/lib/remote.cjs');
const { skip } = require('../mcp/lib/skip.cjs');
const { shq, wrapperScript } = require('../mcp/lib/server.cjs');

const T = { timeout: 240000 };
const BUILD = path.dirname(process.env.AITERM_MCP || path.join(process.env.top_builddir, 'aiterm-mcp'));

const bodyText = (r) => JSON.stringify(r.body || {});

/*
 * The local rig and the far host whose Claude Code answers from childUrl;
 * after the test: the local servers (and their ssh) first, then sshd and
 * the far side by PID, then the mocks.  null when there is no sshd (a
 * visible skip).
 */
async function localAndFar(t, childUrl, mocks) {
	const why = sshdUnavailable();
	if (why) {
		skip(t, 'no-sshd', why);
		for (const m of mocks)
			await m.close();
		return null;
	}
	const rig = new AgentRig(t);
	let host = null;
	t.after(async () => {
		await rig.cleanup().catch((e) => t.diagnostic(`local: ${e.message}`));
		if (host)
			await host.stop();
		for (const m of mocks)
			await m.close();
	});
	host = await startFarHost(rig, { ANTHROPIC_BASE_URL: childUrl });
	return { rig, host };
}

/*
 * The rig: a far host running Claude Code (the child, thinking holdMs),
 * a Codex parent whose server aiterm-setup registered, told by its mock
 * model to launch the child there; returned once the parent's model has
 * read the launch receipt.  null when there is no sshd (a visible skip).
 */
async function parentWithFarChild(t, holdMs) {
	const parentMock = await startCodexMock({ defaultText: 'Parent default.' });
	const childMock = await startClaudeMock({ defaultText: 'Child default.' });
	const lf = await localAndFar(t, childMock.url, [childMock, parentMock]);
	if (!lf)
		return null;
	const { rig, host } = lf;
	const d = rig.dirs;
	seedCodex(d.codex, d.work, `${parentMock.url}/v1`.replace(/\/v1\/v1$/, '/v1'));
	/* Codex hands its MCP servers no environment: the server's is in its command. */
	const wrapper = path.join(d.bin, 'aiterm-mcp');
	const serverLog = path.join(d.root, 'parent-server.log');
	fs.writeFileSync(wrapper, wrapperScript(rig.env, [path.join(BUILD, 'aiterm-mcp')], { tail: `2>>${shq(serverLog)}` }), { mode: 0o755 });
	const out = execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--server', wrapper, '--clients', 'codex-cli'],
		{ env: rig.env, encoding: 'utf8', timeout: 120000 });
	assert.equal(JSON.parse(out).clients[0].status, 'registered', out);
	const cfg = path.join(d.codex, 'config.toml');
	fs.writeFileSync(cfg, fs.readFileSync(cfg, 'utf8').replace(/^\[mcp_servers\.aiterm\]\n/m, '[mcp_servers.aiterm]\ndefault_tools_approval_mode = "approve"\n'));
	rig.show(t);
	await rig.start();

	childMock.push({ type: 'text', text: 'The far child says 42.', holdMs });
	parentMock.push(
		{ type: 'call', name: 'agent_launch', namespace: 'mcp__aiterm', args: { remote: 'far', harness: 'claude-code', cwd: host.far.dirs.work, prompt: 'Far child question?' } },
		{ type: 'text', text: 'Launched the far child; I will wait.' },
		{ type: 'text', text: 'Got the far child\'s answer.' },
	);
	const l = await rig.call('agent_launch', { harness: 'codex-cli', cwd: d.work, prompt: 'Ask the far child' }, 120000);
	assert.equal(l.isError, false, l.text);
	const receipt = await until('the parent\'s tool result', () => parentMock.requests.find((r) => /delivery: d[0-9a-f]{16} waiting; the answer comes back by itself \(Codex thread queue\)/.test(bodyText(r))), 150000)
		.catch((e) => { throw new Error(`${e.message}; the parent's last input: ${JSON.stringify(((parentMock.requests.at(-1) || {}).body || {}).input?.slice(-3))}`); });
	const rt = bodyText(receipt);
	const localId = rt.match(/delivery: (d[0-9a-f]{16}) waiting; the answer comes back by itself/)[1];
	/* A relayed dispatch's record: in a folder of its own, which older readers never open (ADR 0032). */
	const recPath = path.join(d.state, 'remote-parent-deliveries', `${localId}.json`);
	/* The answer in the parent's next request; on a timeout, what the record and the server said. */
	const answered = () => until('the parent\'s turn with the answer', () => parentMock.requests.find((r) => bodyText(r).includes('The far child says 42.')), 150000)
		.catch((e) => {
			const log = fs.existsSync(serverLog) ? fs.readFileSync(serverLog, 'utf8').slice(-2000) : '(none)';
			throw new Error(`${e.message}; the record: ${fs.readFileSync(recPath, 'utf8')}; the parent's server said: ${log}`);
		});
	return { rig, d, far: host.far, childMock, parentMock, parent: l.sc.session_id, rt, localId, recPath, answered };
}

test('REM-RELAY DLV-CODEX: a relayed child\'s answer reaches the Codex parent by its queue, across a dropped connection', T, async (t) => {
	/* The child thinks long enough for the connection to be cut meanwhile. */
	const r = await parentWithFarChild(t, 8000);
	if (!r)
		return;
	const { rig, d, far, childMock, parentMock, parent, rt, localId, answered } = r;
	assert.ok(!/its answer is printed by: ssh/.test(rt), 'no far waiter for a parent with a receiver');
	assert.match(rt, /answer: pty_read remote=far session_id=agent-/);
	/* The local record names the host and the far record; nothing is owed there any more. */
	const rec = JSON.parse(fs.readFileSync(path.join(d.state, 'remote-parent-deliveries', `${localId}.json`), 'utf8'));
	assert.ok(!fs.existsSync(path.join(d.state, 'parent-deliveries', `${localId}.json`)), 'not beside the local ones');
	assert.equal(rec.parent, 'codex');
	assert.equal(rec.remote.host, 'far');
	assert.match(rec.remote.delivery_id, /^d[0-9a-f]{16}$/);
	assert.ok(fs.existsSync(path.join(far.dirs.state, 'parent-deliveries', `${rec.remote.delivery_id}.json`)), 'the far record is the far side\'s');
	assert.equal(childMock.main.some((x) => JSON.stringify(x.body.messages).includes('The far child says 42.')), false);
	/* Cut the connection while the child still thinks. */
	const pids = sshProcs(rig);
	assert.ok(pids.length > 0, 'the parent\'s server holds an ssh connection');
	for (const pid of pids)
		process.kill(pid, 'SIGKILL');
	const woke = await answered();
	const text = bodyText(woke);
	t.diagnostic(`the parent read: ${text.slice(Math.max(0, text.indexOf('Aiterm: the answer') - 100), text.indexOf('Aiterm: the answer') + 200)}`);
	assert.match(text, new RegExp(`Aiterm: the answer of \\S+ \\(turn 1, delivery ${localId}\\):\\\\nThe far child says 42\\.\\\\n\\[turn 1 done`));
	assert.ok(sshProcs(rig).some((p) => !pids.includes(p)), 'a new connection read the turn again');
	const list = await rig.call('parent_deliveries', {});
	const mine = list.sc.deliveries.find((x) => x.id === localId);
	assert.ok(mine, list.text);
	assert.equal(mine.state, 'submitted', list.text);
	assert.match(list.text, new RegExp(`^${localId}\\tsubmitted\\tagent-\\S+ turn 1 on far`, 'm'), list.text);
	assert.equal(list.sc.remote_deliveries, undefined, list.text);
	/* A second question to the same far child, by a relayed pty_send: its answer comes back too. */
	const child = rt.match(/answer: pty_read remote=far session_id=(agent-[0-9a-f]+)/)[1];
	childMock.push({ type: 'text', text: 'The far child says 43.' });
	parentMock.push(
		{ type: 'call', name: 'pty_send', namespace: 'mcp__aiterm', args: { remote: 'far', session_id: child, text: 'Second far question?' } },
		{ type: 'text', text: 'Asked again; I will wait.' },
		{ type: 'text', text: 'Got the second answer.' },
	);
	const again = await rig.call('pty_send', { session_id: parent, text: 'Ask the far child again' });
	assert.equal(again.isError, false, again.text);
	const second = await until('the parent\'s turn with the second answer', () => parentMock.requests.find((x) => bodyText(x).includes('The far child says 43.')), 150000);
	const m2 = bodyText(second).match(/Aiterm: the answer of \S+ \(turn 2, delivery (d[0-9a-f]{16})\):\\nThe far child says 43\./);
	assert.ok(m2, bodyText(second).slice(-1500));
	assert.notEqual(m2[1], localId);
	const list2 = await rig.call('parent_deliveries', {});
	assert.match(list2.text, new RegExp(`^${m2[1]}\\tsubmitted\\t${child} turn 2 on far\\tdone$`, 'm'), list2.text);
});

test('REM-RELAY DLV-CORE: a relayed delivery whose server was killed is taken over by the next server on the state root', T, async (t) => {
	const r = await parentWithFarChild(t, 12000);
	if (!r)
		return;
	const { rig, localId, recPath, answered } = r;
	/* The parent's server (Codex's child, not the test's) dies mid-turn. */
	const mine = new Set(rig.servers.map((s) => s.child && s.child.pid));
	const parentServers = fs.readdirSync('/proc').filter((p) => /^\d+$/.test(p)).map(Number).filter((pid) => {
		try {
			const argv0 = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')[0];
			return argv0.endsWith('/aiterm-mcp') && !mine.has(pid) &&
				fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`AITERM_STATE_DIR=${rig.dirs.state}`);
		} catch { return false; }
	});
	/* Codex may run more than one; the record's owner is the one that took the call. */
	const owner = JSON.parse(fs.readFileSync(recPath, 'utf8')).owner.pid;
	assert.ok(parentServers.includes(owner), `the record's owner ${owner} is a server of the parent's: ${parentServers}`);
	process.kill(owner, 'SIGKILL');
	/* Another server on the same state root (here the test's) takes the record over at its start. */
	const srv = await rig.start();
	await until('the record taken over', () => JSON.parse(fs.readFileSync(recPath, 'utf8')).owner.pid === srv.child.pid, 30000);
	const woke = await answered();
	assert.match(bodyText(woke), new RegExp(`Aiterm: the answer of \\S+ \\(turn 1, delivery ${localId}\\):\\\\nThe far child says 42\\.`));
	const list = await rig.call('parent_deliveries', {});
	assert.match(list.text, new RegExp(`^${localId}\\tsubmitted\\tagent-\\S+ turn 1 on far\\tdone$`, 'm'), list.text);
});

test('REM-RELAY DLV-CLAUDE: a relayed child\'s answer wakes the Claude Code parent through its hook', T, async (t) => {
	/* One mock for both Claude sessions; each answer says which requests it is for. */
	const mock = await startClaudeMock({ defaultText: 'Default answer.' });
	/* Before setupParent: its wrapper carries AITERM_REMOTE_MCP and AITERM_SSH_CONFIG. */
	const lf = await localAndFar(t, mock.url, [mock]);
	if (!lf)
		return;
	const { rig, host } = lf;
	rig.env.ANTHROPIC_BASE_URL = mock.url;
	seedClaude(rig.dirs.home, rig.dirs.work, {});
	setupParent(rig, true);
	rig.show(t);
	await rig.server(mock.url);
	const has = (body, s) => JSON.stringify(body.messages || []).includes(s);
	mock.push(
		{ type: 'tool', name: 'mcp__aiterm__agent_launch', input: { remote: 'far', harness: 'claude-code', cwd: host.far.dirs.work, prompt: 'Far child question?' }, when: (b) => has(b, 'Ask the far child') && !has(b, 'tool_result') },
		{ type: 'text', text: 'The far child says 44.', holdMs: 1500, when: (b) => has(b, 'Far child question?') && !has(b, 'Ask the far child') },
		{ type: 'text', text: 'Launched the far child; I will wait.', when: (b) => has(b, 'Ask the far child') && has(b, 'tool_result') && !has(b, 'The far child says 44.') },
		{ type: 'text', text: 'Got the far child\'s answer.', when: (b) => has(b, 'Ask the far child') && has(b, 'The far child says 44.') },
	);
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Ask the far child' });
	assert.equal(l.isError, false, l.text);
	const receipt = await until('the parent\'s tool result', () => mock.main.find((r) => has(r.body, 'Ask the far child') && has(r.body, 'tool_result')), 120000);
	const rt = JSON.stringify(receipt.body.messages);
	assert.match(rt, /delivery: d[0-9a-f]{16} waiting; the answer comes back by itself/, rt.slice(-2000));
	assert.ok(!/its answer is printed by: ssh/.test(rt), 'no far waiter for a parent with hooks');
	const woke = await until('the parent woken with the answer', () => mock.main.find((r) => has(r.body, 'Ask the far child') && has(r.body, 'The far child says 44.')), 120000);
	const msgs = JSON.stringify(woke.body.messages);
	assert.match(msgs, /Aiterm: the answer of \S+ \(turn 1, delivery d[0-9a-f]{16}\):\\nThe far child says 44\.\\n\[turn 1 done/);
	const list = await rig.call('parent_deliveries', {});
	const rec = list.sc.deliveries.find((x) => x.parent === 'claude');
	assert.ok(rec, list.text);
	assert.equal(rec.remote.host, 'far', list.text);
	assert.equal(rec.state, 'submitted', list.text);
});
