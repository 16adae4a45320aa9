'use strict';
/*
 * SUP-RUN on the real CLIs: aiterm run --backend claude (claude -p
 * --output-format json) and --backend codex (codex exec --json), each
 * against a mock model on 127.0.0.1 (ADR 0023).  A normal run gives the
 * answer and the session id; a resumed Claude run continues the same
 * conversation; a mock that stops sending trips the no-output timeout and
 * one that keeps streaming past the limit the overall timeout, and then no process of
 * the run's tree is left (found by a marker in their environment).
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig, seedClaude, seedCodex } = require('./lib/agent-rig.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { startCodexMock } = require('./lib/codex-mock.cjs');
const { runAiterm } = require('../mcp/lib/cli.cjs');

const T = { timeout: 180000 };

/* Processes whose environment holds AITERM_RUN_MARK=mark. */
function marked(mark) {
	const out = [];
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name))
			continue;
		try {
			const st = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			if (/^\d+ \(.*\) Z /.test(st))
				continue;
			if (fs.readFileSync(`/proc/${name}/environ`, 'utf8').split('\0').includes(`AITERM_RUN_MARK=${mark}`))
				out.push(`${name} ${st.slice(st.indexOf('('), st.indexOf(')') + 1)}`);
		} catch { /* gone or not ours */ }
	}
	return out;
}

function setup(t, mockUrl) {
	const rig = new AgentRig(t);
	const mark = `m${process.pid}-${Date.now()}`;
	rig.env.AITERM_RUN_MARK = mark;
	rig.env.ANTHROPIC_BASE_URL = mockUrl;
	t.after(() => {
		for (const p of marked(mark))
			try { process.kill(Number(p.split(' ')[0]), 'SIGKILL'); } catch { /* gone */ }
	});
	return { rig, mark };
}

async function aiterm(rig, args, ms = 120000) {
	const r = await runAiterm(['run', ...args], rig.env, rig.dirs.work, { ms });
	return r;
}

function json(r) {
	try {
		return JSON.parse(r.stdout);
	} catch (err) {
		throw new Error(`not JSON (${err.message}): ${JSON.stringify(r)}`);
	}
}

test('SUP-RUN claude: a run, a resumed run, and a mock that stops sending (no-output timeout, nothing left)', T, async (t) => {
	const mock = await startClaudeMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const { rig, mark } = setup(t, mock.url);
	seedClaude(rig.dirs.home, rig.dirs.work);

	mock.push({ type: 'text', text: 'First answer from the mock.' });
	let r = await aiterm(rig, ['--backend', 'claude', '--json', '--timeout', '100', '--', 'Say the first thing.']);
	assert.equal(r.code, 0, JSON.stringify(r));
	let j = json(r);
	assert.equal(j.result.text, 'First answer from the mock.', JSON.stringify(j));
	assert.match(j.session_id, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/, 'a new session id, a UUID');
	assert.equal(j.result.session_id, j.session_id, 'Claude Code took the session id it was given');
	assert.equal(j.scope, `cli:claude:${j.session_id}`);
	assert.deepEqual(j.argv.slice(1, 6), ['-p', '--output-format', 'json', '--max-turns', '25']);
	assert.ok(j.result.usage && typeof j.result.usage === 'object', JSON.stringify(j.result));
	const session = j.session_id;

	/* Human output: the answer's text. */
	mock.push({ type: 'text', text: 'Second answer, resumed.' });
	r = await aiterm(rig, ['--backend', 'claude', '--resume', '--session-id', session, '--timeout', '100', '--', 'And again.']);
	assert.equal(r.code, 0, JSON.stringify(r));
	assert.equal(r.stdout, 'Second answer, resumed.\n');
	const last = mock.main[mock.main.length - 1];
	assert.ok(JSON.stringify(last.body.messages).includes('First answer from the mock.'),
		'the resumed run sent the earlier conversation');
	const runs = fs.readdirSync(path.join(rig.dirs.state, 'runs'))
		.map((id) => JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'runs', id, 'record.json'), 'utf8')));
	const resumed = runs.find((x) => x.argv.includes('--resume'));
	assert.equal(resumed.session_id, session);
	assert.equal(resumed.no_output_timeout_ms, 60000, 'the resume watchdog');

	/* The mock takes the request and sends nothing for 15 s (its timer keeps node up that long). */
	mock.push({ type: 'text', text: 'never sent', holdMs: 15000 });
	r = await aiterm(rig, ['--backend', 'claude', '--json', '--timeout', '60', '--no-output-timeout', '3', '--grace', '1', '--', 'Hang.']);
	assert.equal(r.code, 124, JSON.stringify(r));
	j = json(r);
	assert.equal(j.termination_reason, 'no-output-timeout', JSON.stringify(j));
	assert.ok(j.duration_ms < 15000, JSON.stringify(j));
	assert.deepEqual(marked(mark), [], 'no process of the run is left');
});

test('SUP-RUN codex: a run with its thread id, and a mock that keeps streaming past the limit (overall timeout, nothing left)', T, async (t) => {
	const mock = await startCodexMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const { rig, mark } = setup(t, '');
	seedCodex(rig.dirs.codex, rig.dirs.work, `${mock.url}/v1`.replace(/\/v1\/v1$/, '/v1'));

	mock.push({ type: 'text', text: 'Codex answered.', chunks: 2, delayMs: 50 });
	let r = await aiterm(rig, ['--backend', 'codex', '--json', '--timeout', '100', '--', 'Answer please.']);
	assert.equal(r.code, 0, JSON.stringify(r));
	let j = json(r);
	assert.equal(j.result.text, 'Codex answered.', JSON.stringify(j));
	assert.match(j.result.session_id || '', /^[0-9a-f-]{36}$/, `the thread id: ${JSON.stringify(j.result)}`);
	assert.equal(j.session_id, j.result.session_id, 'the record keeps the thread id');
	assert.equal(j.scope, null, 'no session id was known before: no scope');

	/* Deltas every 100 ms for 12 s, three times what the run may take. */
	mock.push({ type: 'text', text: 'x'.repeat(120), chunks: 120, delayMs: 100 });
	r = await aiterm(rig, ['--backend', 'codex', '--json', '--timeout', '4', '--no-output-timeout', '60', '--grace', '1', '--', 'Stream.']);
	assert.equal(r.code, 124, JSON.stringify(r));
	j = json(r);
	assert.equal(j.termination_reason, 'overall-timeout', JSON.stringify(j));
	assert.deepEqual(marked(mark), [], 'no process of the run is left');

	r = await aiterm(rig, ['--backend', 'codex', '--session-id', 'abc', '--', 'x']);
	assert.equal(r.code, 2, 'codex takes no session id (session_mode none)');
	assert.match(r.stderr, /session_mode none takes no session id/);
});
