'use strict';
/*
 * AGT-JOB (issue 32): many agents launched at once in ONE folder, each
 * bound to its own run.  Real Codex, Claude Code and Grok Build CLIs in a
 * private tmux server, against mock models whose every answer names the
 * prompt it answers ("ANSWER to ASK-codex1-turn2.").  Two turns each, each
 * prompt distinct: every answer read is checked to be its own turn's and
 * no other's, every turn's delivery (the generic parent's aiterm-wait) to
 * print that same answer, and every launch to be bound to a transcript of
 * its own with the evidence in its record (Codex: the file its own
 * process holds open; Claude Code and Grok: the session id it was given).
 *
 * AITERM_FANOUT="codex=2,claude=2,grok=1" sets how many of each (default
 * 4, 4 and 2, as issue 32 asks: about 10 s on two cores).
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { AgentRig, seedClaude, seedCodex } = require('./lib/agent-rig.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');
const { startCodexMock } = require('./lib/codex-mock.cjs');
const { startGrokMock, seedGrok, grokBinary } = require('./lib/grok-mock.cjs');
const { run } = require('../mcp/lib/run.cjs');

const T = { timeout: 900000 };
const HARNESS = { codex: 'codex-cli', claude: 'claude-code', grok: 'grok-cli' };

function counts() {
	const n = { codex: 4, claude: 4, grok: 2 };
	for (const kv of (process.env.AITERM_FANOUT || '').split(',').filter(Boolean)) {
		const [k, v] = kv.split('=');
		assert.ok(k in n && /^\d+$/.test(v), `AITERM_FANOUT: ${kv}`);
		n[k] = Number(v);
	}
	return n;
}

const prompt = (name, turn) => `Answer the question ASK-${name}-turn${turn} in one line.`;
const TOKEN = /ASK-[a-z]+\d+-turn\d/g;
const answerOf = (name, turn) => `ANSWER to ASK-${name}-turn${turn}.`;

/* The mock's answer: to the last question token of the request. */
function reply(body) {
	const all = JSON.stringify(body || {}).match(TOKEN);
	return `ANSWER to ${all ? all[all.length - 1] : 'nothing'}.`;
}

function delivery(r) {
	const m = r.text.match(/^delivery: (d[0-9a-f]{16}) waiting; its answer is printed by: /m);
	assert.ok(m && r.sc && r.sc.wait_process, `the receipt names the delivery: ${r.text}`);
	return { id: m[1], argv: r.sc.wait_process.argv };
}

/* Every question token in text, and whether the one wanted is the only one. */
function ownOnly(text, name, turn) {
	const all = [...new Set(text.match(TOKEN) || [])];
	return all.length === 1 && all[0] === `ASK-${name}-turn${turn}`;
}

test('AGT-JOB: Codex, Claude Code and Grok agents launched at once in one folder each read and deliver only their own answers', T, async (t) => {
	const n = counts();
	const mocks = {
		codex: await startCodexMock({ reply }),
		claude: await startClaudeMock({ reply }),
		grok: await startGrokMock({ reply, suggestion: 'Mock suggestion' }),
	};
	for (const m of Object.values(mocks))
		t.after(() => m.close());
	const rig = new AgentRig(t, { env: {
		GROK_MODELS_BASE_URL: mocks.grok.url,
		GROK_TELEMETRY_ENABLED: '0',
		GROK_DISABLE_AUTOUPDATER: '1',
		XAI_API_KEY: 'mock-xai-key-for-the-aiterm-harness',
	} });
	fs.symlinkSync(grokBinary(), path.join(rig.dirs.bin, 'grok'));
	seedGrok(rig.dirs.home, mocks.grok.url);
	seedClaude(rig.dirs.home, rig.dirs.work, {});
	seedCodex(rig.dirs.codex, rig.dirs.work, mocks.codex.url);
	rig.env.ANTHROPIC_BASE_URL = mocks.claude.url;

	/* Where each request's question tokens were (what the mock answered). */
	t.after(() => {
		for (const [kind, m] of Object.entries(mocks))
			for (const r of m.requests.filter((q) => q.kind === 'main'))
				t.diagnostic(`${kind} mock: ${JSON.stringify(JSON.stringify(r.body || {}).match(TOKEN))}`);
	});
	/*
	 * Each agent's own parent: a connection of its own (the wire client
	 * matches no response to its request, so one call at a time each).
	 */
	const agents = [];
	for (const kind of ['codex', 'claude', 'grok'])
		for (let i = 1; i <= n[kind]; i++)
			agents.push({ kind, name: `${kind}${i}`, deliveries: [], srv: await rig.start(), seq: 0 });
	const call = async (a, name, args, ms) => {
		const t1 = Date.now();
		const res = await a.srv.request('tools/call', { name, arguments: args }, `${a.name}-${++a.seq}`, ms);
		const r = res.result || {};
		const text = (r.content || []).map((c) => c.text).join('\n');
		t.diagnostic(`${a.name} ${name} -> ${Date.now() - t1} ms: ${JSON.stringify(text).slice(0, 300)}`);
		return { text, sc: r.structuredContent, isError: r.isError === true };
	};
	const t0 = Date.now();
	const times = {};
	/* All at once, in one folder. */
	await Promise.all(agents.map(async (a) => {
		const l = await call(a, 'agent_launch', { harness: HARNESS[a.kind], cwd: rig.dirs.work, prompt: prompt(a.name, 1) }, 300000);
		assert.equal(l.isError, false, l.text);
		assert.match(l.text, /^startup: ready/m, `${a.name}: ${l.text}`);
		a.id = l.text.match(/^launched \S+ \S+ in (\S+) \(launch /m)[1];
		a.deliveries.push(delivery(l));
	}));
	times.launched = Date.now() - t0;
	for (const turn of [1, 2]) {
		if (turn === 2)
			await Promise.all(agents.map(async (a) => {
				const s = await call(a, 'pty_send', { session_id: a.id, text: prompt(a.name, 2) }, 120000);
				assert.equal(s.isError, false, `${a.name}: ${s.text}`);
				a.deliveries.push(delivery(s));
			}));
		await Promise.all(agents.map(async (a) => {
			const r = await call(a, 'pty_read', { session_id: a.id, agent_transcript: true, wait: true, timeout: 240 }, 300000);
			assert.equal(r.isError, false, `${a.name}: ${r.text}`);
			assert.match(r.text, new RegExp(`^${answerOf(a.name, turn).replace(/\./g, '\\.')}\\n\\[turn ${turn} done`),
				`${a.name} turn ${turn} reads its own answer: ${r.text}`);
			assert.ok(ownOnly(r.text, a.name, turn), `${a.name} turn ${turn}: no other answer: ${r.text}`);
			/* Its delivery prints the same answer, and no other. */
			const d = a.deliveries[turn - 1];
			const w = await run(d.argv, rig.env, 120000);
			assert.equal(w.code, 0, `${a.name} turn ${turn} waiter: ${w.stderr}`);
			assert.match(w.stdout, new RegExp(`^${answerOf(a.name, turn).replace(/\./g, '\\.')}\\n\\[turn ${turn} done`),
				`${a.name} turn ${turn} delivery: ${w.stdout}`);
			assert.ok(ownOnly(w.stdout, a.name, turn), `${a.name} turn ${turn} delivery: ${w.stdout}`);
		}));
		times[`turn${turn}`] = Date.now() - t0;
	}
	/* Turn 1 stays its own when read again. */
	await Promise.all(agents.map(async (a) => {
		const old = await call(a, 'pty_read', { session_id: a.id, agent_transcript: true, turn: 1 }, 60000);
		assert.ok(old.text.startsWith(answerOf(a.name, 1)) && ownOnly(old.text, a.name, 1), `${a.name}: ${old.text}`);
	}));
	/* Each bound to a transcript of its own, with the evidence. */
	const seen = new Set();
	for (const a of agents) {
		const rec = JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', a.id, 'agent.json'), 'utf8'));
		assert.ok(rec.transcript && !seen.has(rec.transcript), `${a.name}: ${rec.transcript}`);
		seen.add(rec.transcript);
		assert.match(rec.bound_by, a.kind === 'codex' ? /^process_fd pid \d+ \(codex\)$/ : /^session_id$/, `${a.name}: ${rec.bound_by}`);
	}
	t.diagnostic(`fan-out ${JSON.stringify(n)}: ${JSON.stringify(times)} ms`);
});
