'use strict';
/*
 * REM-RELAY on an agent: agent_launch and pty_read{agent_transcript} with
 * remote, relayed over ssh (a real sshd on 127.0.0.1, key auth) to the
 * far side's aiterm-mcp, which launches the real Claude Code CLI there
 * against the mock Anthropic API (lib/claude-mock.cjs).  The far side is
 * an AgentRig of its own (state root, HOME, CLIs on PATH, the mock's URL)
 * whose server ssh starts through a wrapper; the local server is another
 * AgentRig's, with only AITERM_REMOTE_MCP and AITERM_SSH_CONFIG to reach
 * it.  The launch receipt, the answer and the session's place (there,
 * not here) are what the model reads; the receipt's waiter runs the far
 * aiterm-wait through ssh and prints the answer here.
 */
const path = require('node:path');
const { spawn } = require('node:child_process');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig } = require('./lib/agent-rig.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { sshdUnavailable } = require('../mcp/lib/sshd.cjs');
const { startFarHost } = require('./lib/far-host.cjs');
const { skip } = require('../mcp/lib/skip.cjs');

const T = { timeout: 180000 };

test('REM-RELAY AGT-LAUNCH AGT-TURN: agent_launch of Claude Code on another host; the answer read there from its transcript', T, async (t) => {
	const why = sshdUnavailable();
	if (why) {
		skip(t, 'no-sshd', why);
		return;
	}
	const mock = await startClaudeMock({ defaultText: 'Default answer.' });
	const local = new AgentRig(null);
	let host = null;
	t.after(async () => {
		/* The local server (and its ssh) first, then sshd, then the far side's tmux and agents by PID. */
		await local.cleanup().catch((e) => t.diagnostic(`local: ${e.message}`));
		if (host)
			await host.stop();
		await mock.close();
	});
	host = await startFarHost(local, { ANTHROPIC_BASE_URL: mock.url });
	const far = host.far;
	local.show(t);
	await local.start();

	mock.push({ type: 'text', text: 'The far answer is forty-two.', chunks: 3, delayMs: 200 });
	const l = await local.call('agent_launch', { remote: 'far', harness: 'claude-code', cwd: far.dirs.work, prompt: 'What is the far answer?' }, 120000);
	assert.equal(l.isError, false, l.text);
	assert.match(l.text, /^startup: ready$/m, l.text);
	assert.match(l.text, /^prompt: start_confirmed \((screen_running|transcript_prompt|transcript_turn_ended)\), turn 1, event_cursor 1:0$/m, l.text);
	/* The watch command: the far side's tmux, through ssh at a terminal (ADR 0026). */
	const watch = `tmux -S ${path.join(far.dirs.state, 'tmux.sock')} attach -t `;
	assert.match(l.text, new RegExp(`^watch: ssh -t -F \\S+ -- far '${watch.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}agent-[0-9a-f]+'$`, 'm'), l.text);
	assert.equal(l.sc.attach, l.text.match(/^watch: (.+)$/m)[1]);
	const id = l.text.match(/^launched claude-code \S+ in (\S+) \(launch /m)[1];
	assert.match(l.text, new RegExp(`^answer: pty_read remote=far session_id=${id} agent_transcript=true wait=true$`, 'm'), l.text);
	/* DLV-WAIT: the waiter runs aiterm-wait there, through ssh (ADR 0026). */
	const m = l.text.match(/^delivery: (d[0-9a-f]{16}) waiting; its answer is printed by: (ssh .+)$/m);
	assert.ok(m, `the receipt's waiter goes through ssh: ${l.text}`);
	const argv = l.sc.wait_process.argv;
	assert.deepEqual(argv.slice(0, 2), ['ssh', '-T'], JSON.stringify(argv));
	assert.deepEqual(argv.slice(-2, -1), ['far']);
	assert.equal(l.sc.wait_command, m[2]);
	assert.ok(argv[argv.length - 1].endsWith(` ${m[1]}`) && argv[argv.length - 1].includes(far.dirs.state), argv[argv.length - 1]);
	/* Here, the record of the answer owed there (ADR 0026). */
	const owed = await local.call('parent_deliveries', {});
	assert.equal(owed.text, `${m[1]}\tremote far\t${id}`, owed.text);
	assert.equal(owed.sc.remote_deliveries[0].delivery_id, m[1]);
	/* Run by the parent's own shell, here, as the model would. */
	/* Not spawnSync: the mock model answers from this process. */
	const w = await new Promise((resolve) => {
		const child = spawn('sh', ['-c', l.sc.wait_command], { env: { ...process.env, HOME: local.dirs.home }, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '', stderr = '';
		child.stdout.on('data', (b) => { stdout += b; });
		child.stderr.on('data', (b) => { stderr += b; });
		const timer = setTimeout(() => child.kill('SIGKILL'), 90000);
		child.on('close', (status) => { clearTimeout(timer); resolve({ status, stdout, stderr }); });
	});
	assert.equal(w.status, 0, `${w.stdout} ${w.stderr}`);
	assert.match(w.stdout, /^The far answer is forty-two\.\n\[turn 1 done( · [\d.]+s)?\]\n$/, w.stdout);
	const a = await local.call('pty_read', { remote: 'far', session_id: id, agent_transcript: true, wait: true, timeout: 60 }, 90000);
	assert.equal(a.isError, false, a.text);
	assert.match(a.text, /^The far answer is forty-two\.\n\[turn 1 done( · [\d.]+s)?\]$/, a.text);
	/* There, not here: here only the record that it was opened there. */
	const here = await local.call('pty_list', {});
	assert.ok(here.text.split('\n').every((line) => !line.startsWith(id) || line === `${id}\tremote far`), here.text);
	assert.match(here.text, new RegExp(`^${id}\\tremote far$`, 'm'), here.text);
	const there = await local.call('pty_list', { remote: 'far' });
	assert.ok(there.text.includes(id), there.text);
	assert.ok(mock.main.some((r) => JSON.stringify(r.body.messages).includes('What is the far answer?')), 'the mock got the prompt');
});
