#!/usr/bin/env node
'use strict';
/*
 * bench/agent.cjs: agent turns through the real server on the real Claude
 * Code and Codex CLIs (the pinned packages tests/clients installs into the
 * build tree), against the mock models of tests/harness.  Prints figures;
 * it is not a test.
 *
 *   node bench/agent.cjs [--builddir=DIR] [--turns=N] [--json] [--only=claude|codex]
 *
 * Per CLI:
 *   - launch -> startup ready: agent_launch without a prompt, from the
 *     call to its reply (the CLI's own start-up included);
 *   - answer latency: a pty_read{agent_transcript, wait} waiting while the
 *     mock streams the answer; from the mock's last SSE event to the reply
 *     arriving (both clocks are this process's);
 *   - tokens the model reads (o200k; Claude's and Codex's views of each
 *     result, tests/mcp/lib/views.cjs) for launch + one turn + its answer,
 *     against reading the screen for the answer instead.
 * Run `make check-harness` (or check-clients) once first: it installs
 * the CLIs.
 */
const path = require('node:path');
const fs = require('node:fs');

const argv = process.argv.slice(2);
const opt = (k, d) => (argv.find((a) => a.startsWith(`--${k}=`)) || `=${d}`).split('=').slice(1).join('=');
const JSON_OUT = argv.includes('--json');
const TURNS = Number(opt('turns', 10));
const ONLY = opt('only', '');
const src = path.resolve(__dirname, '..');
const build = path.resolve(opt('builddir', path.join(src, 'build')));

process.env.NODE_PATH = path.join(build, 'tests/clients/node_modules');
require('node:module').Module._initPaths();
process.env.AITERM_MCP = process.env.AITERM_MCP || path.join(build, 'aiterm-mcp');
process.env.AITERM_SHELL_DIR = path.join(src, 'core/shell/integration');
process.env.AITERM_SYSTEM_PLUGINDIR = '';
process.env.AITERM_PLUGIN_PATH = ['mux-tmux', 'harness-claude', 'harness-codex']
	.map((p) => path.join(build, 'plugins', p)).join(':');

const { AgentRig, seedClaude, seedCodex } = require('../tests/harness/lib/agent-rig.cjs');
const { startClaudeMock } = require('../tests/harness/lib/claude-mock.cjs');
const { startCodexMock } = require('../tests/harness/lib/codex-mock.cjs');
const { claudeView, codexView } = require('../tests/mcp/lib/views.cjs');
const enc = require('gpt-tokenizer/encoding/o200k_base');

const tokens = (s) => enc.encode(String(s || ''), { disallowedSpecial: new Set() }).length;
const quant = (xs, q) => {
	const s = [...xs].sort((a, b) => a - b);
	return s.length ? s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] : NaN;
};
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/*
 * Both views of a result: what Claude Code and Codex hand the model.  The
 * rig asks for structuredContent (the bench reads the transcript path from
 * it); the AI clients do not, and get the same text without it (ADR
 * 0006), so it is left out here.
 */
function viewTokens(r, tool, ms) {
	const plain = Object.assign({}, r.result);
	delete plain.structuredContent;
	return { claude: tokens(claudeView(plain, tool)), codex: tokens(codexView(plain, ms / 1000)) };
}

async function timedCall(rig, name, args) {
	const t0 = Date.now();
	const r = await rig.call(name, args, 120000);
	r.ms = Date.now() - t0;
	r.at = Date.now();
	r.views = viewTokens(r, name, r.ms);
	return r;
}

async function bench(cli) {
	const claude = cli === 'claude';
	const mock = claude ? await startClaudeMock({ defaultText: 'OK.' }) : await startCodexMock({ defaultText: 'OK.' });
	const rig = new AgentRig(null);
	if (claude)
		seedClaude(rig.dirs.home, rig.dirs.work, {});
	else
		seedCodex(rig.dirs.codex, rig.dirs.work, mock.url, {});
	if (claude)
		await rig.server(mock.url);
	else
		await rig.start();
	const harness = claude ? 'claude-code' : 'codex-cli';
	const out = { cli, harness, turns: TURNS };
	try {
		const l = await timedCall(rig, 'agent_launch', { harness, cwd: rig.dirs.work });
		const id = l.text.match(/ in (\S+) \(launch /)[1];
		out.launch_to_ready_ms = l.ms;
		out.startup = (l.text.match(/^startup: (.*)$/m) || [])[1];
		const lat = [], own = [];
		let first = null;
		for (let i = 0; i < TURNS; i++) {
			const answer = `Answer number ${i + 1} of the benchmark, streamed in parts.`;
			mock.push({ type: 'text', text: answer, chunks: 4, delayMs: 150 });
			const send = await timedCall(rig, 'pty_send', { session_id: id, text: `Question ${i + 1}?` });
			const read = await timedCall(rig, 'pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
			if (!read.text.startsWith(answer))
				throw new Error(`turn ${i + 1}: unexpected answer ${JSON.stringify(read.text)}`);
			const main = mock.requests.filter((r) => r.kind === 'main' || (r.url || '').includes('/responses'));
			const last = main[main.length - 1];
			const lastEvent = last.lastEvent || (last.events && last.events.length ? last.events[last.events.length - 1].time : null);
			if (lastEvent)
				lat.push(read.at - lastEvent);
			/* Our part: from the transcript's last write to the reply. */
			if (read.sc && read.sc.transcript)
				own.push(read.at - fs.statSync(read.sc.transcript).mtimeMs);
			if (i === 0) {
				const screen = await timedCall(rig, 'pty_read', { session_id: id, screen: true });
				first = { launch: l, send, read, screen };
				if (process.env.BENCH_SHOW)
					for (const [k, v] of Object.entries(first))
						process.stderr.write(`${k}: ${JSON.stringify(v.text)}\n`);
			}
		}
		out.answer_latency_ms = { n: lat.length, p50: quant(lat, 0.5), p90: quant(lat, 0.9), max: Math.max(...lat) };
		out.transcript_to_reply_ms = { n: own.length, p50: quant(own, 0.5), p90: quant(own, 0.9), max: Math.max(...own) };
		const sum = (k) => first.launch.views[k] + first.send.views[k] + first.read.views[k];
		out.tokens = {
			claude_view: sum('claude'),
			codex_view: sum('codex'),
			parts: { launch: first.launch.views, send: first.send.views, answer: first.read.views },
			screen_instead: first.screen.views,
		};
	} finally {
		await rig.cleanup().catch((e) => process.stderr.write(`cleanup: ${e.message}\n`));
		await mock.close();
	}
	return out;
}

async function main() {
	if (!fs.existsSync(process.env.NODE_PATH))
		throw new Error(`${process.env.NODE_PATH} is missing: run make check-harness once (it installs the CLIs)`);
	const res = [];
	for (const cli of ['claude', 'codex'])
		if (!ONLY || ONLY === cli)
			res.push(await bench(cli));
	if (JSON_OUT) {
		console.log(JSON.stringify(res, null, 2));
		return;
	}
	for (const r of res) {
		console.log(`${r.harness}: startup ${r.startup}, launch -> ready ${r.launch_to_ready_ms} ms`);
		console.log(`  answer latency (last SSE event -> pty_read reply), ${r.answer_latency_ms.n} turns: p50 ${r.answer_latency_ms.p50} ms, p90 ${r.answer_latency_ms.p90} ms, max ${r.answer_latency_ms.max} ms`);
		console.log(`  of which ours (the transcript's last write -> the reply): p50 ${Math.round(r.transcript_to_reply_ms.p50)} ms, p90 ${Math.round(r.transcript_to_reply_ms.p90)} ms`);
		console.log(`  tokens the model reads for launch + send + answer: Claude Code ${r.tokens.claude_view}, Codex ${r.tokens.codex_view}` +
			` (launch ${r.tokens.parts.launch.claude}/${r.tokens.parts.launch.codex}, send ${r.tokens.parts.send.claude}/${r.tokens.parts.send.codex}, answer ${r.tokens.parts.answer.claude}/${r.tokens.parts.answer.codex})`);
		console.log(`  reading the screen for the answer instead: Claude Code ${r.tokens.screen_instead.claude}, Codex ${r.tokens.screen_instead.codex} tokens`);
	}
}

main().catch((e) => {
	console.error(`bench/agent: ${e.stack || e.message}`);
	process.exit(1);
});
