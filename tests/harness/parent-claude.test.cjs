'use strict';
/*
 * DLV-CLAUDE, SET-HOOKS: a real Claude Code parent (interactive, in a
 * pane) whose Aiterm server and hooks aiterm-setup registered in its
 * private HOME launches a real Claude Code child through Aiterm, ends its
 * turn, and is woken by its PostToolUse hook (asyncRewake) with the
 * child's answer: the parent's next request to the mock model carries it.
 * Without the hooks, the call is refused before anything reaches a child.
 * Both Claude sessions talk to one mock Anthropic server; each queued
 * answer says which requests it is for.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig, seedClaude } = require('./lib/agent-rig.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { setupParent } = require('./lib/claude-parent.cjs');
const { until, sleep } = require('./lib/until.cjs');

const T = { timeout: 180000 };

const has = (body, s) => JSON.stringify(body.messages || []).includes(s);


/*
 * Every running aiterm-hook <verb>: its argv (from /proc) and its parent's
 * command name, polled every 50 ms until stop() (a PostToolUse hook lives
 * while it waits for the answer).
 */
function watchHooks(verb) {
	const seen = new Map();
	const timer = setInterval(() => {
		for (const pid of fs.readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
			try {
				const argv = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
				if (!argv[0] || !argv[0].endsWith('/aiterm-hook') || argv[1] !== verb || seen.has(pid))
					continue;
				const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
				const ppid = st.slice(st.lastIndexOf(')') + 2).split(' ')[1];
				const parent = fs.readFileSync(`/proc/${ppid}/comm`, 'utf8').trim();
				/*
				 * A task the hook itself made, with its argv (under
				 * AddressSanitizer, LeakSanitizer's tracer at exit):
				 * not a hook run.
				 */
				if (parent.startsWith('aiterm-hook'))
					continue;
				seen.set(pid, { argv, parent });
			} catch { /* gone */ }
		}
	}, 50);
	return { seen, stop: () => clearInterval(timer) };
}

async function rigWithMock(t, hooks) {
	const mock = await startClaudeMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const rig = new AgentRig(t);
	rig.env.ANTHROPIC_BASE_URL = mock.url;
	seedClaude(rig.dirs.home, rig.dirs.work, {});
	const s = setupParent(rig, hooks);
	rig.show(t);
	await rig.server(mock.url);
	return { rig, mock, setup: s };
}

test('DLV-CLAUDE: the child\'s answer wakes the Claude Code parent through its asyncRewake hook', T, async (t) => {
	const { rig, mock, setup } = await rigWithMock(t, true);
	assert.match(setup.clients[0].message, /parent hooks installed in/);
	const settings = JSON.parse(fs.readFileSync(path.join(rig.dirs.home, '.claude', 'settings.json'), 'utf8'));
	assert.equal(settings.hooks.PostToolUse[0].matcher, 'Bash', 'the user\'s hook stays first');
	/* Ours are argv arrays: the program and its arguments, no shell line. */
	for (const [event, verb] of [['PreToolUse', 'claude-pre'], ['PostToolUse', 'claude-post'], ['SessionEnd', 'claude-end']]) {
		const ours = settings.hooks[event].flatMap((g) => g.hooks).filter((h) => String(h.command).endsWith('/aiterm-hook'));
		assert.equal(ours.length, 1, JSON.stringify(settings.hooks[event]));
		assert.ok(path.isAbsolute(ours[0].command), ours[0].command);
		assert.deepEqual(ours[0].args, [verb, '--state-dir', rig.dirs.state]);
	}
	const post = watchHooks('claude-post');
	t.after(() => post.stop());
	const parentFirst = (b) => has(b, 'Ask the child') && !has(b, 'tool_result');
	mock.push(
		{ type: 'tool', name: 'mcp__aiterm__agent_launch', input: { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Child question?' }, when: parentFirst },
		{ type: 'text', text: 'The child says 42.', holdMs: 1500, when: (b) => has(b, 'Child question?') && !has(b, 'Ask the child') },
		{ type: 'text', text: 'Launched the child; I will wait.', when: (b) => has(b, 'Ask the child') && has(b, 'tool_result') && !has(b, 'The child says 42.') },
		{ type: 'text', text: 'Got the child\'s answer.', when: (b) => has(b, 'Ask the child') && has(b, 'The child says 42.') },
	);
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Ask the child' });
	assert.equal(l.isError, false, l.text);
	/* The parent's turn ends before the child's answer exists. */
	await until('the parent\'s first turn', () => mock.main.find((r) => r.action && r.action.text === 'Launched the child; I will wait.'));
	const woke = await until('the parent woken with the answer', () => mock.main.find((r) => has(r.body, 'Ask the child') && has(r.body, 'The child says 42.')), 90000);
	const msgs = JSON.stringify(woke.body.messages);
	t.diagnostic(`the parent read: ${msgs.slice(msgs.indexOf('Aiterm: the answer') - 200, msgs.indexOf('Aiterm: the answer') + 200)}`);
	assert.match(msgs, /Aiterm: the answer of \S+ \(turn 1, delivery d[0-9a-f]{16}\):\\nThe child says 42\.\\n\[turn 1 done/);
	/* Claude Code spawned the waiting hook itself, with those arguments: no shell between. */
	post.stop();
	const runs = [...post.seen.values()];
	assert.ok(runs.length >= 1, 'the PostToolUse hook was seen running');
	for (const r of runs) {
		assert.equal(r.parent, 'claude', JSON.stringify(r));
		assert.deepEqual(r.argv.slice(1), ['claude-post', '--state-dir', rig.dirs.state]);
	}
	const list = await rig.call('parent_deliveries', {});
	assert.match(list.text, /^d[0-9a-f]{16}\tsubmitted\t\S+ turn 1\tdone$/m, list.text);
	assert.equal(list.sc.deliveries[0].parent, 'claude');
});

test('DLV-CLAUDE: without Aiterm\'s hooks the call is refused and no child starts', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, false);
	mock.push(
		{ type: 'tool', name: 'mcp__aiterm__agent_launch', input: { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Child question?' }, when: (b) => has(b, 'Ask the child') && !has(b, 'tool_result') },
		{ type: 'text', text: 'It refused.', when: (b) => has(b, 'tool_result') },
	);
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Ask the child' });
	assert.equal(l.isError, false, l.text);
	const r = await until('the tool result', () => mock.main.find((x) => has(x.body, 'tool_result')));
	assert.match(JSON.stringify(r.body.messages), /CLAUDE_PARENT_HOOK_UNAVAILABLE/);
	await sleep(1000);
	assert.equal(mock.main.filter((x) => has(x.body, 'Child question?') && !has(x.body, 'Ask the child')).length, 0, 'no child ran');
	const list = await rig.call('pty_list', {});
	assert.equal(list.text.trim().split('\n').filter((x) => x.includes('claude')).length, 1, list.text);
});

test('DLV-CLAUDE: after /clear the old answer is not put into the new conversation; it stays stored', T, async (t) => {
	const { rig, mock } = await rigWithMock(t, true);
	const parentFirst = (b) => has(b, 'Ask the child') && !has(b, 'tool_result');
	mock.push(
		{ type: 'tool', name: 'mcp__aiterm__agent_launch', input: { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Child question?' }, when: parentFirst },
		{ type: 'text', text: 'Too late for the old conversation.', holdMs: 8000, when: (b) => has(b, 'Child question?') && !has(b, 'Ask the child') },
		{ type: 'text', text: 'Launched; waiting.', when: (b) => has(b, 'Ask the child') && has(b, 'tool_result') },
	);
	const l = await rig.call('agent_launch', { harness: 'claude-code', cwd: rig.dirs.work, prompt: 'Ask the child' });
	const parent = l.text.match(/^launched claude-code \S+ in (\S+) \(launch /m)[1];
	await until('the parent\'s first turn', () => mock.main.find((r) => r.action && r.action.text === 'Launched; waiting.'));
	await sleep(500);
	/* The person clears the conversation: SessionEnd for the old one. */
	await rig.call('pty_send', { session_id: parent, text: '/clear' }).catch(() => {});
	const ended = path.join(rig.dirs.state, 'claude-parent-hooks');
	await until('SessionEnd', () => fs.existsSync(ended) && fs.readdirSync(ended).some((f) => f.startsWith('ended-')), 30000);
	/* The child's answer comes after; nobody is woken with it. */
	const stored = await until('the answer stored', async () => {
		const list = await rig.call('parent_deliveries', {});
		return list.sc.deliveries.find((d) => d.parent === 'claude' && d.state === 'ready');
	}, 60000);
	assert.ok(stored);
	await sleep(3000);
	assert.equal(mock.main.filter((r) => has(r.body, 'Too late for the old conversation.') && !has(r.body, 'Child question?')).length, 0,
		'the answer did not reach the parent');
	const again = await rig.call('parent_deliveries', {});
	assert.ok(again.sc.deliveries.find((d) => d.parent === 'claude' && d.state === 'ready'), again.text);
});
