'use strict';
/*
 * runCodex(): one non-interactive Codex CLI turn (`codex exec`) with a
 * private CODEX_HOME against the scripted Responses mock, the MCP server
 * registered in CODEX_HOME/config.toml as [mcp_servers.<name>].  Codex
 * does not hand its own environment to an MCP server, so every variable
 * the server needs goes into that table's env.
 *
 * `codex exec` never asks a human: without pre-approval every MCP call
 * fails with "MCP tool call requires approval, but approval policy is
 * never" (exec's defaults).  default_tools_approval_mode = "approve" in
 * the server's table lets them through (tested with and without
 * approval_policy/sandbox settings).  The function_call_output Codex sends
 * back is recorded raw (a string, or an array of input_text items, the
 * first being "Wall time: <s> seconds\nOutput:"); seen joins the items
 * with "\n".  The model is not told isError: results[i].isError comes from
 * the `codex exec --json` events (status "failed").
 */
const fs = require('node:fs');
const path = require('node:path');
const { startOpenAIMock } = require('./mock-openai.cjs');
const C = require('./common.cjs');

/* The npm launcher of @openai/codex (run with this node), or $CODEX_BIN. */
function codexCommand() {
	if (process.env.CODEX_BIN)
		return { cmd: process.env.CODEX_BIN, pre: [] };
	let dir;
	try {
		dir = path.dirname(require.resolve('@openai/codex/package.json'));
	} catch (err) {
		throw new Error(`@openai/codex is not installed (npm ci in tests/clients): ${err.message}`);
	}
	return { cmd: process.execPath, pre: [path.join(dir, 'bin', 'codex.js')] };
}

/* A TOML basic string (JSON's escapes are valid TOML). */
function q(s) {
	return JSON.stringify(String(s));
}

function inlineTable(obj) {
	return '{ ' + Object.entries(obj).map(([k, v]) => `${q(k)} = ${q(v)}`).join(', ') + ' }';
}

/*
 * config.toml for the run: the mock provider, a trusted work directory,
 * approval policy "never" (exec never asks a human), plugin sync and
 * connectors off (they reach for the network), and the MCP server with its
 * env and its tools pre-approved.
 */
function configToml({ baseUrl, cwd, serverName, server, serverArgs, env, tools, approve = true,
	approvalPolicy = 'never', sandbox = 'danger-full-access' }) {
	const lines = [
		'model = "mock-model"',
		'model_provider = "mock"',
	];
	if (approvalPolicy)
		lines.push(`approval_policy = ${q(approvalPolicy)}`);
	if (sandbox)
		lines.push(`sandbox_mode = ${q(sandbox)}`);
	lines.push(
		'check_for_update_on_startup = false',
		'',
		'[analytics]',
		'enabled = false',
		'',
		'[feedback]',
		'enabled = false',
		'',
		/* Plugin sync and connectors reach for the network at start-up. */
		'[features]',
		'plugins = false',
		'remote_plugin = false',
		'apps = false',
		'',
		'[model_providers.mock]',
		'name = "mock"',
		`base_url = ${q(baseUrl)}`,
		'env_key = "MOCK_API_KEY"',
		'wire_api = "responses"',
		'request_max_retries = 0',
		'stream_max_retries = 0',
		'',
		`[projects.${q(cwd)}]`,
		'trust_level = "trusted"',
		'',
	);
	/* server null: registered by someone else (aiterm-setup, `codex mcp add`). */
	if (server === null)
		return lines.join('\n') + '\n';
	lines.push(
		`[mcp_servers.${q(serverName)}]`,
		`command = ${q(server)}`,
		`args = [${serverArgs.map(q).join(', ')}]`,
		`env = ${inlineTable(env)}`,
		'startup_timeout_sec = 30',
		'tool_timeout_sec = 120',
	);
	if (approve)
		lines.push('default_tools_approval_mode = "approve"');
	for (const t of approve ? tools || [] : []) {
		lines.push('', `[mcp_servers.${q(serverName)}.tools.${q(t)}]`, 'approval_mode = "approve"');
	}
	return lines.join('\n') + '\n';
}

/* isError of each MCP call as `codex exec --json` reports it: Map call_id -> bool. */
function errorsFromEvents(stdout) {
	const map = new Map();
	for (const line of String(stdout).split('\n')) {
		let ev;
		try { ev = JSON.parse(line); } catch { continue; }
		const item = ev && ev.item;
		if (!item || item.type !== 'mcp_tool_call' || ev.type !== 'item.completed')
			continue;
		const isErr = item.status === 'failed' || !!item.error || !!(item.result && item.result.is_error) ||
			!!(item.result && item.result.isError);
		map.set(item.id, { isError: isErr, item });
	}
	return map;
}

/*
 * Runs one scripted turn.  opts as runClaude (steps, server, serverArgs,
 * serverName, env, prompt, final, timeoutMs, instructions, keep,
 * extraArgs) plus tools (names also pre-approved one by one; the server's
 * default_tools_approval_mode = "approve" already covers every tool),
 * approve (false: no pre-approval; `codex exec` then refuses every MCP call
 * with "MCP tool call requires approval, but approval policy is never"),
 * approvalPolicy, sandbox (null: leave exec's default), serverEnv (more
 * variables for the server's env table).  Resolves {results, toolsShown, instructionsShown,
 * requests, main, side, events, stdout, stderr, exitCode, ms, timedOut,
 * tmuxKilled, config, dirs}.
 */
async function runCodex(opts = {}) {
	const serverName = opts.serverName || 'aiterm';
	/* noServer: no MCP server at all (a script of Codex's own tools, opts.native). */
	const server = opts.register || opts.noServer ? null : (opts.server || C.aitermBinary());
	const serverArgs = opts.serverArgs || [];
	const { dirs, env } = C.makeRunEnv(opts.env);
	const mock = await startOpenAIMock({ steps: opts.steps, final: opts.final, server: serverName, native: opts.native });
	Object.assign(env, {
		CODEX_HOME: dirs.codex,
		MOCK_API_KEY: 'mock-key-for-the-aiterm-client-rig',
		RUST_LOG: process.env.CODEX_RUST_LOG || 'error',
	});
	const tools = opts.tools || [];
	const out = { dirs };
	const { cmd, pre } = codexCommand();
	try {
		out.config = configToml({
			baseUrl: mock.url, cwd: dirs.work, serverName, server, serverArgs,
			env: Object.assign(C.serverEnv(env), opts.serverEnv || {}), tools, approve: opts.approve !== false,
			approvalPolicy: opts.approvalPolicy === undefined ? 'never' : opts.approvalPolicy,
			sandbox: opts.sandbox === undefined ? 'danger-full-access' : opts.sandbox,
		});
		fs.writeFileSync(path.join(dirs.codex, 'config.toml'), out.config);
		/* opts.prepare(dirs, env): files in dirs.work before Codex starts. */
		if (opts.prepare)
			await opts.prepare(dirs, env);
		/* opts.register(dirs, env): registers the server itself (aiterm-setup). */
		if (opts.register)
			out.registered = await opts.register(dirs, env);
		const prompt = opts.prompt || 'Run the scripted terminal steps with the aiterm tools.';
		const args = [...pre, 'exec', '--json', '--skip-git-repo-check', '--color', 'never',
			...(opts.sandbox === null ? [] : ['-s', opts.sandbox || 'danger-full-access']), '-C', dirs.work, ...(opts.extraArgs || []), prompt];
		const r = await C.run(cmd, args, { cwd: dirs.work, env, timeoutMs: opts.timeoutMs || 180000 });
		Object.assign(out, r);
	} finally {
		await mock.close();
		out.tmuxKilled = await C.cleanupRun(dirs, opts.keep);
	}
	const errs = errorsFromEvents(out.stdout || '');
	out.events = String(out.stdout || '').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return l; } });
	const calls = [...errs.values()];
	out.results = mock.script.results.map((r, k) => r && Object.assign(r, { ms: r.at - mock.script.issuedAt[k] }))
		.filter(Boolean).map((r, i) => ({
		tool: r.tool, args: r.args, seen: r.seen, ms: r.ms,
		/* The model is not told isError; take it from the exec events, in call order. */
		isError: calls[i] ? calls[i].isError : null,
		raw: r.raw,
	}));
	out.scriptErrors = mock.script.errors;
	out.finished = mock.script.finished;
	const lastMain = mock.main[mock.main.length - 1];
	const ns = `mcp__${serverName}`;
	out.toolsShown = lastMain ? (lastMain.body.tools || []).filter((t) => t && t.type === 'namespace' && t.name === ns) : [];
	out.instructionsShown = lastMain ? findInstructionsCodex(lastMain.body, opts.instructions) : { found: false };
	out.requests = mock.requests;
	out.main = mock.main;
	out.side = mock.side;
	return out;
}

/*
 * Where the server's instructions appear in a Responses request: the
 * top-level instructions, or a developer/system/user message of input.
 * Needs the expected text (opts.instructions) to look for.
 */
function findInstructionsCodex(body, expected) {
	if (!expected)
		return { found: null, note: 'pass opts.instructions to look for them' };
	const places = [];
	if (typeof body.instructions === 'string' && body.instructions.includes(expected))
		places.push({ where: 'instructions', text: body.instructions });
	(body.input || []).forEach((it, i) => {
		const t = it && Array.isArray(it.content) ? it.content.map((c) => c.text || '').join('\n') : (it && typeof it.content === 'string' ? it.content : '');
		if (t.includes(expected))
			places.push({ where: `input[${i}] ${it.type || ''}/${it.role || ''}`, text: t });
	});
	(body.tools || []).forEach((tool, i) => {
		const s = JSON.stringify(tool);
		if (s.includes(JSON.stringify(expected).slice(1, -1)))
			places.push({ where: `tools[${i}] ${tool.type}/${tool.name}`, text: tool.description || '' });
	});
	return { found: places.length > 0, places };
}

module.exports = { runCodex, codexCommand, configToml, errorsFromEvents };
