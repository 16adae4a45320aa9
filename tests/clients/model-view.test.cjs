'use strict';
/*
 * What the model receives (ADR 0006), through the real Claude Code and
 * Codex CLIs: a scripted mock model drives every tool (open, send with and
 * without wait, read incremental / screen / line_range, key, list,
 * observe, diagnostics, close, and error cases), and the tests assert on
 * the tool results the client passed to the model: the facts are there,
 * the token counts are printed.  The server runs behind tests/clients/
 * lib/tee.cjs, so every view is also compared with the reproduction the
 * benchmarks use (tests/mcp/lib/views.cjs) computed from the server's own
 * result.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { runClaude } = require('./lib/claude.cjs');
const { runCodex } = require('./lib/codex.cjs');
const { tokens, aitermBinary, alive, teeDiagnosis } = require('./lib/common.cjs');
const { claudeView, codexView, codexCutless, toolsClaude, toolsCodex } = require('../mcp/lib/views.cjs');
const { parseText } = require('../mcp/lib/textview.cjs');

const SID = 'mv';
/* Success that printed nothing; a loaded machine may take a second, then the time is shown (ADR 0029). */
const EXIT0 = /^exit 0( · \d+\.\ds)?$/;
const T = { timeout: 300000 };

/* The script, and what the model must read in each result (by step). */
const STEPS = [
	{ tool: 'pty_open', args: { name: SID }, want: [new RegExp(`^opened ${SID} \\(`), /^watch: tmux -S \S+ attach -t mv$/m] },
	{ tool: 'pty_send', args: { session_id: SID, text: 'echo hello-$((6*7)); false', wait: true }, want: [/hello-42\nexit 1$/] },
	{ tool: 'pty_send', args: { session_id: SID, text: 'true', wait: true }, want: [EXIT0], roundTrip: true },
	{ tool: 'pty_send', args: { session_id: SID, text: 'seq 1 5000 | sed s/^/row-/', wait: true },
		/* Success is silent (ADR 0009): no status line after the output. */
		want: [/^row-1$/m, /pty_read line_range=\[\d+,\d+\]/, /\nrow-5000$/] },
	/* A long range comes one page at a time, small enough that no client cuts it. */
	{ tool: 'pty_read', args: (prev) => ({ session_id: SID, line_range: lineRange(prev[3].seen) }),
		want: [/^row-10$/m, /^\[lines \d+-\d+ shown; the rest: pty_read line_range=\[\d+,\d+\]\]$/m] },
	{ tool: 'pty_send', args: { session_id: SID, text: 'sleep 0.5; echo later-$((1+2))' }, want: [/^sent$/m] },
	{ tool: 'pty_read', args: { session_id: SID }, want: [/\[(no new output; )?still running\]$/] },
	{ tool: 'pty_read', args: { session_id: SID, wait: true }, want: [/later-3$/] },
	{ tool: 'pty_read', args: { session_id: SID }, want: [/\[no new output\]$/] },
	{ tool: 'pty_send', args: { session_id: SID, text: 'printf "on-screen-%s\\n" 7', wait: true }, want: [/on-screen-7/] },
	{ tool: 'pty_read', args: { session_id: SID, screen: true }, want: [/^on-screen-7$/m] },
	{ tool: 'pty_key', args: { session_id: SID, key: 'ctrl-c' }, want: [/^sent C-c$/m] },
	{ tool: 'pty_list', args: { env_keys: ['AITERM_SESSION_ID'] }, want: [/^mv\talive\tbash AITERM_SESSION_ID=mv$/m] },
	{ tool: 'pty_observe', args: { session_id: SID }, want: [/^mv: pane alive; /, /^cursor: obs1;mv;\S+$/m] },
	{ tool: 'pty_observe', args: (prev) => ({ session_id: SID, cursor: parseText('pty_observe', body(prev[13].seen)).cursor }),
		want: [/^activity: \d+ ms CPU in \d+ ms/m] },
	{ tool: 'diagnostics', args: {}, want: [/^aiterm-mcp \d/m, /^multiplexer: \S*tmux \S+ \(mux-tmux\)$/m] },
	{ tool: 'pty_read', args: { session_id: 'no-such-session' }, want: [/unknown session 'no-such-session'/], error: true },
	{ tool: 'pty_key', args: { session_id: SID, key: 'no-such-key' }, want: [/no-such-key/], error: true },
	/* Codex Steer hand-overs (DLV-CODEX, seeded below): one emitted, one unconfirmed. */
	{ tool: 'parent_deliveries', args: {}, want: [/^d0{15}1\tsubmitted\tagent-child turn 1\tdone\tsteer emitted$/m,
		/^d0{15}2\tunknown\tagent-child turn 1\tdone\tsteer unknown CODEX_HOOK_DELIVERY_UNCONFIRMED$/m] },
	/* AGT-CONFIGURE (issue 33): its refusal on a plain shell; its receipt is counted in tests/harness. */
	{ tool: 'agent_configure', args: { session_id: SID, model: 'sonnet' }, want: [/^agent_configure: mv is not an agent session/], error: true },
	/*
	 * RED-HEADTAIL (issue 35): 400 log lines of about 340 bytes with one
	 * alert: the reduction is bounded in bytes, so Codex does not cut out
	 * its middle, where the alert is shown.
	 */
	{ tool: 'pty_send', args: { session_id: SID, wait: true,
		text: `awk 'BEGIN { p = sprintf("%300s", ""); gsub(/ /, "q", p); for (i = 1; i <= 400; i++) ` +
			`if (i == 250) print "[alert] worker " i " exited on signal 11"; else print "[warn] request " i " buffered " p }'` },
	want: [/^\d+: \[alert\] worker 250 exited on signal 11$/m, /^\[warn\] request 1 buffered/m, /^\[warn\] request 400 buffered/m] },
	/*
	 * A listing far beyond its budget and longer than Codex shows whole
	 * (ADR 0043, 0044): for both clients the reducer keeps the first and
	 * last names within 10 KiB, counts the rest and names the one alone
	 * of its kind.  Neither client cuts it.
	 */
	{ tool: 'pty_send', args: { session_id: SID, wait: true,
		text: 'mkdir -p big && cd big && seq -f data-file-%g.csv 1 1500 | xargs touch data-file-777.txt && ' +
			'head -c 900000 /dev/zero >data-file-5.csv && head -c 400000 /dev/zero >data-file-6.csv && cd ..' },
		want: [EXIT0] },
	/* Its two files with a size keep their rows from the size to the name (stop 48). */
	{ tool: 'pty_send', args: { session_id: SID, wait: true, text: 'ls -la big' },
		want: [/\bdata-file-1\.csv\b/, /\bdata-file-999\.csv$/m, /^… \d+ more: \d+ files$/m,
			/^… alone of its kind among them: data-file-777\.txt$/m,
			/^\(largest: 900000 \w{3} [ \d]\d +[\d:]+ data-file-5\.csv; 400000 \w{3} [ \d]\d +[\d:]+ data-file-6\.csv\)$/m,
			/^\[ls-long reducer; all of it: line_range=\[\d+,\d+\]\]$/m] },
	/*
	 * find far beyond its budget (ADR 0044, stop 48): a package's own
	 * package.json among 1,240 files of 40 dependencies stays whole,
	 * with up to 60 of the paths nearest the top of the tree.
	 */
	{ tool: 'pty_send', args: { session_id: SID, wait: true,
		text: 'mkdir -p t && cd t && seq -f mods/dep%g/lib 1 40 | xargs mkdir -p && ' +
			'for d in mods/*; do touch $d/package.json; seq -f $d/lib/f%g.js 1 30 | xargs touch; done && touch package.json && cd ..' },
		want: [EXIT0] },
	{ tool: 'pty_send', args: { session_id: SID, wait: true, text: 'find t -type f' },
		want: [/^t\/package\.json$/m, /^… \d+ of them nearest the top:$/m, /^t\/mods\/dep\d+\/package\.json$/m,
			/^\[find reducer; all of it: line_range=\[\d+,\d+\]\]$/m] },
	/* Issue 36: a secret prompt; the person types it, the model is told where and to wait. */
	{ tool: 'pty_send', args: { session_id: SID, text: 'read -r -s -p "Vault key: " v', wait: true },
		want: [/^\[waiting for a secret: Vault key: \(bash\)\]\n\[[^\n]*Do not ask them for it; wait for them: pty_read wait=true\]$/m] },
	{ tool: 'pty_close', args: { session_id: SID }, want: [/^closed mv$/m] },
	/* Issue 34: open and start a REPL in one call; each send ends at its next prompt. */
	{ tool: 'pty_open', args: { name: 'mv2', command: 'python3 -q' },
		want: [/^opened mv2 \(/, /\n>>>\n\[python3 waits for input(?: · [\d.]+s)?\]$/] },
	{ tool: 'pty_send', args: { session_id: 'mv2', text: 'import time; time.sleep(1); print(6*7)', wait: true },
		want: [/^42$/m, /\[python3 waits for input · [\d.]+s\]$/] },
	{ tool: 'pty_close', args: { session_id: 'mv2' }, want: [/^closed mv2$/m] },
];

/*
 * Run before the server (its state root empty): two Codex deliveries a
 * Steer hook took (deliver/codexhook.h), as the server and the hook
 * write them: d...1 printed (emitted), d...2 taken by a hook that died.
 */
const SEED = `
const fs = require('fs'), path = require('path');
const root = process.argv[1];
const dir = path.join(root, 'parent-deliveries'), hooks = path.join(root, 'codex-hooks');
for (const d of [root, dir, hooks])
	fs.mkdirSync(d, { recursive: true, mode: 0o700 });
const thread = '0190aaaa-bbbb-7ccc-8ddd-eeeeffff0000';
for (const [n, st, pid] of [[1, 'emitted', process.pid], [2, 'removing', 2147483000]]) {
	const id = 'd' + '0'.repeat(15) + n;
	fs.writeFileSync(path.join(dir, id + '.body'), 'The child says 4' + n + '.\\n');
	fs.writeFileSync(path.join(dir, id + '.claim'), 'codex-queue 1\\n');
	fs.writeFileSync(path.join(dir, id + '.json'), JSON.stringify({ format: 1, id, session_id: 'agent-child', state: 'submitted',
		parent: 'codex', turn: 1, event_cursor: '1:0', owner: { pid: 0, start: '' }, created_ms: Date.now() - n, updated_ms: Date.now(),
		outcome: 'done', conversation: thread, home: '/nonexistent/codex' }));
	fs.writeFileSync(path.join(hooks, id + '.0000000000000000.' + thread + '.0000000000000000'), JSON.stringify({
		thread, delivery_id: id, body_sha256: '00', state: st, pid, start: '1' }));
}
`;

/* The text after Codex's "Wall time" header (the whole text for Claude). */
function body(seen) {
	return String(seen).replace(/^Wall time: [0-9.]+ seconds\nOutput:\n?/, '');
}

function lineRange(seen) {
	const r = parseText('pty_read', body(seen)).omitted;
	if (!r)
		throw new Error(`no line_range in ${JSON.stringify(seen)}`);
	return r;
}

function script() {
	return STEPS.map(({ tool, args }) => ({ tool, args }));
}

/* The tee logs: every request in order, each with its reply. */
function serverCalls(log) {
	const read = (f) => (fs.existsSync(f) ? fs.readFileSync(f, 'utf8') : '').split('\n')
		.filter(Boolean).map((l) => JSON.parse(l));
	const results = new Map(read(`${log}.out`).filter((m) => m.id !== undefined).map((m) => [JSON.stringify(m.id), m]));
	return read(`${log}.in`).filter((m) => m.id !== undefined).map((m) => ({
		method: m.method, name: m.params && m.params.name, args: (m.params && m.params.arguments) || {},
		reply: results.get(JSON.stringify(m.id)),
	}));
}

/* The result of the first request of a method. */
function firstResult(calls, method) {
	const c = calls.find((x) => x.method === method && x.reply);
	return c ? c.reply.result : undefined;
}

/* The server result of each step, matched in order by tool and arguments. */
function matchCalls(results, all) {
	const calls = all.filter((c) => c.method === 'tools/call');
	let at = 0;
	return results.map((r) => {
		for (let i = at; i < calls.length; i++) {
			let same = false;
			try { assert.deepEqual(calls[i].args, r.args); same = calls[i].name === r.tool; } catch { /* differs */ }
			if (same) {
				at = i + 1;
				return calls[i].reply && calls[i].reply.result;
			}
		}
		return undefined;
	});
}

async function runBoth(client) {
	const run = client === 'claude' ? runClaude : runCodex;
	const dir = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'aiterm-tee-'));
	const log = path.join(dir, 'mcp');
	try {
		const r = await run({
			steps: script(),
			server: process.execPath,
			serverArgs: [path.join(__dirname, 'lib', 'tee.cjs'), log, '--', '/bin/sh', '-c',
				'"$0" -e "$1" "$AITERM_STATE_DIR" && exec "$2"', process.execPath, SEED, aitermBinary()],
		});
		/*
		 * The server's end, as tee.cjs saw it: the client may take a
		 * moment, and a client that quits without closing the server's
		 * stdin first leaves it to end on the EOF of tee's pipe.
		 */
		const waitFrom = Date.now();
		for (let i = 0; i < 200 && !fs.existsSync(`${log}.exit`); i++)
			await new Promise((res) => setTimeout(res, 100));
		r.serverExitWaitMs = Date.now() - waitFrom;
		r.serverExit = fs.existsSync(`${log}.exit`) ? JSON.parse(fs.readFileSync(`${log}.exit`, 'utf8')) : null;
		r.serverDiag = r.serverExit ? '' : teeDiagnosis(log);
		r.serverErr = fs.existsSync(`${log}.err`) ? fs.readFileSync(`${log}.err`, 'utf8') : '';
		const calls = serverCalls(log);
		r.serverResults = matchCalls(r.results, calls);
		r.toolsList = (firstResult(calls, 'tools/list') || {}).tools;
		r.instructions = (firstResult(calls, 'initialize') || {}).instructions;
		return r;
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

function ctx(r) {
	return `exit=${r.exitCode} signal=${r.signal} timedOut=${r.timedOut} scriptErrors=${JSON.stringify(r.scriptErrors)}\n` +
		`stderr: ${String(r.stderr).slice(-2000)}`;
}

function checkRun(t, client, r) {
	/* The server the client started ended cleanly (issue 20). */
	assert.ok(r.serverExit, `${client}: the server's end was not seen in ${r.serverExitWaitMs} ms: ${ctx(r)}\n${r.serverDiag}`);
	t.diagnostic(`${client}: the server's end seen ${r.serverExitWaitMs} ms after the client's`);
	assert.equal(r.serverExit.code, 0, `${client}: the server exited ${JSON.stringify(r.serverExit)}; stderr: ${r.serverErr.slice(-2000)}`);
	assert.doesNotMatch(r.serverErr, /AddressSanitizer|LeakSanitizer|runtime error:|UndefinedBehaviorSanitizer/, `${client}: sanitizer report: ${r.serverErr.slice(-3000)}`);
	assert.deepEqual(r.scriptErrors, [], ctx(r));
	assert.equal(r.timedOut, false, ctx(r));
	assert.equal(r.exitCode, 0, ctx(r));
	assert.equal(r.results.length, STEPS.length, `every step has a result: ${ctx(r)}`);
	for (const pid of r.tmuxKilled)
		assert.ok(!alive(pid), `tmux server ${pid} is gone`);
	let total = 0;
	for (const [k, step] of STEPS.entries()) {
		const x = r.results[k];
		const seen = body(x.seen);
		const n = tokens(x.seen);
		total += n;
		t.diagnostic(`${client} ${step.tool} ${JSON.stringify(x.args)}: ${n} tokens${x.isError ? ' (error)' : ''}: ${JSON.stringify(x.seen).slice(0, 300)}`);
		for (const re of step.want)
			assert.match(seen, re, `${client} step ${k} ${step.tool}: the model reads it: ${JSON.stringify(x.seen)}`);
		assert.doesNotMatch(x.seen, /"(cursor|bytes|structuredContent)"|null,/, `${client} step ${k}: no metadata JSON reaches the model`);
		assert.doesNotMatch(x.seen, /tokens truncated|truncated…/, `${client} step ${k}: the client did not cut the result`);
		if (step.roundTrip)
			assert.ok(n < 25, `${client}: a true round trip costs ${n} tokens (< 25): ${JSON.stringify(x.seen)}`);
		const res = r.serverResults[k];
		assert.ok(res, `${client} step ${k} ${step.tool}: the server answered the call`);
		assert.equal(res.structuredContent, undefined, `${client} step ${k}: no structuredContent: ${JSON.stringify(res)}`);
		assert.equal(res.isError === true, step.error === true, `${client} step ${k}: isError: ${JSON.stringify(res)}`);
		if (client === 'claude') {
			assert.equal(x.isError, step.error === true, `claude step ${k}: is_error reaches the model`);
			assert.equal(x.seen, claudeView(res, step.tool), `claude step ${k}: views.cjs reproduces what Claude sent`);
		} else {
			const wall = Number((String(x.seen).match(/^Wall time: ([0-9.]+) seconds\n/) || [])[1]);
			assert.ok(Number.isFinite(wall), `codex step ${k}: a Wall time header: ${JSON.stringify(x.seen)}`);
			assert.equal(codexCutless(x.seen), codexCutless(codexView(res, wall)), `codex step ${k}: views.cjs reproduces what Codex sent`);
		}
	}
	t.diagnostic(`${client}: ${STEPS.length} results, ${total} tokens in all; run ${r.ms} ms`);
	return total;
}

/* The first properties[name] in a shown tool definition, or null. */
function propertyOf(x, name) {
	if (!x || typeof x !== 'object')
		return null;
	if (x.properties && x.properties[name])
		return x.properties[name];
	for (const v of Object.values(x)) {
		const p = propertyOf(v, name);
		if (p)
			return p;
	}
	return null;
}

/* The tool definitions and instructions the client showed the model. */
function checkShown(t, client, r) {
	/* Claude: one tool each, mcp__aiterm__<name>; Codex: one namespace tool mcp__aiterm. */
	const ns = client === 'codex' ? r.toolsShown[0] || {} : null;
	const names = client === 'claude' ? r.toolsShown.map((x) => x.name.replace(/^mcp__aiterm__/, '')) :
		(ns.tools || []).map((x) => x.name);
	for (const name of ['pty_open', 'pty_send', 'pty_read', 'pty_key', 'pty_close', 'pty_list', 'pty_observe', 'diagnostics', 'agent_configure'])
		assert.ok(names.includes(name), `${client} shows ${name}: ${JSON.stringify(names)}`);
	const shown = JSON.stringify(r.toolsShown);
	/* Codex drops default/maximum: the description says them. */
	assert.match(shown, /Seconds, default 10, max 3600\./, `${client}: the timeout default and limit are in the description`);
	assert.match(shown, /Max 64 KiB/, `${client}: the text limit is in the description`);
	const instr = client === 'claude' ? (r.instructionsShown.text || '') : (ns.description || '');
	assert.match(instr, /persistent terminals/, `${client} shows the server instructions: ${JSON.stringify(r.instructionsShown)}`);
	t.diagnostic(`${client}: tool definitions as shown ${tokens(shown)} tokens, instructions ${tokens(instr)} tokens`);
	/* AGT-CONFIGURE (issue 33): what its definition costs on its own. */
	const conf = (client === 'claude' ? r.toolsShown : ns.tools).find((x) => /(^|__)agent_configure$/.test(x.name));
	t.diagnostic(`${client}: agent_configure's definition ${tokens(JSON.stringify(conf))} tokens`);
	/* AGT-IMAGE (issue 33): pty_send's image, as shown, and what it costs. */
	const send = client === 'claude' ? r.toolsShown.find((x) => x.name === 'mcp__aiterm__pty_send') :
		(ns.tools || []).find((x) => x.name === 'pty_send');
	const image = propertyOf(send, 'image');
	assert.ok(image && image.type === 'array', `${client} shows pty_send's image: ${JSON.stringify(send).slice(0, 400)}`);
	assert.match(JSON.stringify(image), /Absolute paths of PNG, JPEG, GIF or WebP files to attach\./);
	t.diagnostic(`${client}: pty_send definition ${tokens(JSON.stringify(send))} tokens, of which image ${tokens(JSON.stringify({ image }))}`);
	/* views.cjs reproduces the definitions (the benchmarks count those). */
	assert.ok(Array.isArray(r.toolsList), 'the server answered tools/list');
	const byName = (a) => [...a].sort((x, y) => x.name.localeCompare(y.name));
	if (client === 'claude') {
		assert.deepEqual(byName(r.toolsShown), byName(toolsClaude(r.toolsList)));
		assert.equal(instr, r.instructions, 'Claude shows the instructions verbatim');
	} else {
		const want = toolsCodex(r.toolsList, r.instructions);
		assert.deepEqual({ ...ns, tools: byName(ns.tools) }, { ...want, tools: byName(want.tools) });
	}
	t.diagnostic(`${client}: views.cjs tool definitions ${tokens(JSON.stringify(client === 'claude' ?
		toolsClaude(r.toolsList) : toolsCodex(r.toolsList, r.instructions)))} tokens`);
}

test('Claude Code: every tool result the model reads carries its facts; views.cjs reproduces them', T, async (t) => {
	const r = await runBoth('claude');
	checkRun(t, 'claude', r);
	checkShown(t, 'claude', r);
});

test('Codex CLI: every tool result the model reads carries its facts; views.cjs reproduces them', T, async (t) => {
	const r = await runBoth('codex');
	checkRun(t, 'codex', r);
	checkShown(t, 'codex', r);
});

/*
 * An agent result as Claude Code and Codex show it to the model (text
 * only: neither asks for structuredContent): each of want in both views,
 * their tokens pushed on views and printed.
 */
function countViews(t, views, tool, r, want) {
	assert.equal(r.result.structuredContent, undefined, 'a client that did not ask gets no structuredContent');
	for (const [name, seen] of [['claude', claudeView(r.result, tool)], ['codex', body(codexView(r.result))]]) {
		for (const re of want)
			assert.match(seen, re, `${name} ${tool}: the model reads it: ${JSON.stringify(seen)}`);
		views.push(tokens(seen));
		t.diagnostic(`${name} ${tool}: ${tokens(seen)} tokens: ${JSON.stringify(seen).slice(0, 400)}`);
	}
}

/* A rig with the Cursor stand-in (tests/harness/cursor-standin) and its mock model. */
async function cursorAgentRig(t, env) {
	const { AgentRig } = require('../harness/lib/agent-rig.cjs');
	const { startCursorMock, seedCursor, cursorBinary } = require('../harness/lib/cursor-mock.cjs');
	const mock = await startCursorMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const rig = new AgentRig(t, { caps: {}, env: { CURSOR_STANDIN_MODEL_URL: mock.url, CURSOR_API_KEY: 'mock-cursor-key', ...env } });
	fs.symlinkSync(cursorBinary(), path.join(rig.dirs.bin, 'cursor-agent'));
	return { rig, mock, seedCursor };
}

/*
 * Issue 33 (AGT-LIMIT; ADR 0011, 0017): the new agent results as Claude
 * Code and Codex show them to the model (text only: neither asks for
 * structuredContent), counted.  The agent is the Cursor stand-in
 * (tests/harness/cursor-standin, its screens assumed), whose limit screen
 * and hook refusal go through the same core as every harness's.
 */
test('AGT-LIMIT: a usage-limited turn, blocked/rate_limited, and a prompt the user\'s hook refused, as the model reads them', T, async (t) => {
	const { rig, mock, seedCursor } = await cursorAgentRig(t, {});
	seedCursor(rig.dirs.home, { hooks: { beforeSubmitPrompt: [{ command: `${process.execPath} -e 'process.stdout.write(JSON.stringify({continue:false,user_message:"Not during the freeze."}))'` }] } });
	await rig.start();
	const launch = async (prompt) => rig.call('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, trust_project: true, prompt });
	const views = [];
	const count = (tool, r, want) => countViews(t, views, tool, r, want);
	/* The hook refuses the launch's prompt: initial_prompt failed, the hook's words. */
	const l = await launch('Deploy now');
	count('agent_launch', l, [/^initial_prompt: failed$/m, /^prompt: USER_HOOK_BLOCKED: .*Not during the freeze\.$/m]);
	const id = l.text.match(/ in (\S+) \(launch /)[1];
	const s = await rig.call('pty_send', { session_id: id, text: 'Deploy anyway' });
	assert.equal(s.isError, true, s.text);
	count('pty_send', s, [/USER_HOOK_BLOCKED: .*Not during the freeze\./]);
	fs.rmSync(path.join(rig.dirs.home, '.cursor', 'hooks.json'));
	mock.push({ type: 'status', status: 429, body: { error: { type: 'usage_limit_exceeded', message: 'You\'ve hit your usage limit for mock-model.' } } });
	await rig.call('pty_send', { session_id: id, text: 'Now?' });
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	count('pty_read', a, [/^You've hit your usage limit for mock-model\.\n\[turn 1 ended with an error \(rate_limited\)/]);
	const o = await rig.call('pty_observe', { session_id: id });
	count('pty_observe', o, [/; screen blocked\/rate_limited;/]);
	for (const n of views)
		assert.ok(n < 160, `each new result stays small: ${views}`);
	t.diagnostic(`issue 33 results: ${views.length} views, ${views.reduce((x, y) => x + y, 0)} tokens in all`);
});

/*
 * Issues 37 and 39 (ADR 0042, 0039): two rare agent results as the model
 * reads them, counted: a launch whose prompt a dialog ate as it went in
 * (not_sent, no turn opened, the user must answer the dialog), and a wait
 * on a turn whose transcript was deleted outside Aiterm (Gemini CLI's
 * start-up clean-up can do that to another launch's chat).
 */
test('AGT-START AGT-TURN: a prompt a dialog ate, and a transcript deleted outside Aiterm, as the model reads them', T, async (t) => {
	const views = [];
	const count = (tool, r, want) => countViews(t, views, tool, r, want);
	{
		const { rig, mock, seedCursor } = await cursorAgentRig(t, { CURSOR_STANDIN_TRUSTED: '1', CURSOR_STANDIN_DIALOG_ON_INPUT: '1' });
		seedCursor(rig.dirs.home);
		await rig.start();
		const l = await rig.call('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, prompt: 'Eaten by the dialog' });
		count('agent_launch', l, [/^startup: needs_user; screen blocking_dialog\/workspace_trust$/m,
			/^prompt: not_sent \(a dialog opened over the agent's composer as the text went in/m, /no turn was opened/]);
		assert.equal(mock.requests.filter((q) => q.kind === 'main').length, 0, 'no model request');
	}
	{
		const { rig, mock, seedCursor } = await cursorAgentRig(t, { CURSOR_STANDIN_TRUSTED: '1' });
		seedCursor(rig.dirs.home);
		mock.push({ type: 'hold', text: 'Never read.' });
		t.after(() => mock.release && mock.release());
		await rig.start();
		const l = await rig.call('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, prompt: 'Held question' });
		assert.match(l.text, /^prompt: start_confirmed/m, l.text);
		const id = l.text.match(/ in (\S+) \(launch /)[1];
		const rec = () => JSON.parse(fs.readFileSync(path.join(rig.dirs.state, 'sessions', id, 'agent.json'), 'utf8'));
		for (let i = 0; i < 200 && !(rec().transcript && fs.existsSync(rec().transcript)); i++) {
			await rig.call('pty_read', { session_id: id, agent_transcript: true });
			await new Promise((res) => setTimeout(res, 100));
		}
		assert.ok(rec().transcript && fs.existsSync(rec().transcript), `the transcript bound: ${JSON.stringify(rec())}`);
		fs.rmSync(rec().transcript);
		const r = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 2 });
		count('pty_read', r, [/^\[turn 1: its transcript \S+ is gone, deleted outside Aiterm; the turn's answer cannot be read from it/]);
	}
	for (const n of views)
		assert.ok(n < 200, `each result stays small: ${views}`);
	t.diagnostic(`issues 37 and 39 results: ${views.length} views, ${views.reduce((x, y) => x + y, 0)} tokens in all`);
});
