'use strict';
/*
 * runClaude(): one non-interactive Claude Code session (`claude -p`) in a
 * private HOME against the scripted Anthropic mock, with the MCP server
 * registered the way a user would (`claude mcp add --scope user`).
 *
 * The npm package is installed with --ignore-scripts, so its bin/claude.exe
 * is only a stub (the postinstall would hard-link the native binary over
 * it); claudeBinary() runs the native binary of the platform package
 * directly, as the postinstall's own platform table names it.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startAnthropicMock } = require('./mock-anthropic.cjs');
const C = require('./common.cjs');

function platformKey() {
	const p = process.platform;
	const cpu = os.arch();
	if (p === 'linux') {
		const rep = process.report && process.report.getReport ? process.report.getReport() : null;
		const musl = rep != null && rep.header && rep.header.glibcVersionRuntime === undefined;
		return `linux-${cpu}${musl ? '-musl' : ''}`;
	}
	return `${p}-${cpu}`;
}

/* The native claude executable: $CLAUDE_BIN, else @anthropic-ai/claude-code-<platform>/claude. */
function claudeBinary() {
	if (process.env.CLAUDE_BIN)
		return process.env.CLAUDE_BIN;
	const pkg = `@anthropic-ai/claude-code-${platformKey()}`;
	let dir;
	try {
		dir = path.dirname(require.resolve(`${pkg}/package.json`));
	} catch (err) {
		throw new Error(`${pkg} is not installed (npm ci in tests/clients): ${err.message}`);
	}
	const bin = path.join(dir, process.platform === 'win32' ? 'claude.exe' : 'claude');
	fs.accessSync(bin, fs.constants.X_OK);
	return bin;
}

const API_KEY = 'sk-ant-api03-mock-key-for-the-aiterm-client-rig-0000000000AA';

/* ~/.claude.json of a user who has onboarded and trusts the work directory. */
function writeClaudeJson(home, cwd) {
	const file = path.join(home, '.claude.json');
	let cfg = {};
	try { cfg = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { /* new */ }
	cfg.hasCompletedOnboarding = true;
	cfg.theme = 'dark';
	cfg.customApiKeyResponses = { approved: [API_KEY.slice(-20)], rejected: [] };
	cfg.projects = cfg.projects || {};
	cfg.projects[cwd] = Object.assign({}, cfg.projects[cwd], { hasTrustDialogAccepted: true });
	fs.writeFileSync(file, JSON.stringify(cfg, null, 2));
}

/*
 * Where the server's instructions are in a Messages request.  Claude Code
 * 2.1.197 does not put them into the top-level system blocks but into a
 * message of role "system" in messages (after the first user message):
 * "# MCP Server Instructions\n\nThe following MCP servers have provided
 * instructions for how to use their tools and resources:\n\n## <server>\n
 * <instructions>\n\n<what follows>".  Every system block and system
 * message is searched.  Returns {found, where ("system[i]" or
 * "messages[i]"), index, section (from the heading to the next "# "
 * heading or the end), text, exact}: text is the part under "## <server>"
 * up to the next "## " or "# " heading or the skills list that follows it;
 * with expected (the server's instructions) text is exactly that when it is
 * there verbatim (exact: true).
 */
function findInstructions(body, serverName, expected) {
	const out = { found: false };
	if (!body)
		return out;
	const places = [];
	const sys = typeof body.system === 'string' ? [{ type: 'text', text: body.system }] : (body.system || []);
	sys.forEach((b, i) => places.push([`system[${i}]`, b && typeof b.text === 'string' ? b.text : '']));
	(body.messages || []).forEach((m, i) => {
		if (m && m.role === 'system')
			places.push([`messages[${i}]`, C.systemText(m.content)]);
	});
	const head = `\n## ${serverName}\n`;
	for (const [where, t] of places) {
		const at = t.indexOf('# MCP Server Instructions');
		if (at < 0)
			continue;
		let end = t.indexOf('\n# ', at + 2);
		if (end < 0)
			end = t.length;
		const section = t.slice(at, end);
		const h = section.indexOf(head);
		let text = null, exact;
		if (h >= 0) {
			const start = h + head.length;
			if (expected !== undefined) {
				exact = section.startsWith(expected, start);
				if (exact)
					text = expected;
			}
			if (text === null) {
				const stops = ['\n## ', '\n# ', '\n\nThe following skills are available']
					.map((x) => section.indexOf(x, start)).filter((x) => x >= 0);
				text = section.slice(start, stops.length ? Math.min(...stops) : section.length).replace(/\n+$/, '');
			}
		}
		Object.assign(out, { found: text !== null, where, index: at, section, text, exact });
		break;
	}
	return out;
}

/*
 * Runs one scripted session.  opts:
 *   steps       the script (see script.cjs)
 *   server      the MCP server's command (default aitermBinary())
 *   serverArgs  its arguments
 *   serverName  its name in Claude (default "aiterm")
 *   env         extra variables for the run (and the server)
 *   prompt      the user prompt (default a fixed sentence)
 *   final       the model's last text
 *   timeoutMs   hard limit for the claude process (default 180 s)
 *   instructions the server instructions expected (for instructionsShown.exact)
 *   keep        keep the private tree (for debugging); its path is in .dirs
 *   mcpConfig   true: pass --mcp-config <file> --strict-mcp-config instead of `claude mcp add`
 *   register    async (dirs, env) => any: registers the server instead of `claude mcp add`
 *   extraArgs   more claude arguments
 *   prepare     async (dirs, env) => any, before the client starts (files in dirs.work)
 *   noServer    true: no MCP server at all (a script of the client's own tools)
 *   native      the client's own tools the script calls (["Bash"]): they
 *               mark the main loop and are allowed with --allowedTools
 * Resolves {results, toolsShown, instructionsShown, requests, main, side,
 * stdout, stderr, exitCode, json, ms, timedOut, tmuxKilled, dirs}.
 */
async function runClaude(opts = {}) {
	const serverName = opts.serverName || 'aiterm';
	const server = opts.server || C.aitermBinary();
	const serverArgs = opts.serverArgs || [];
	const { dirs, env } = C.makeRunEnv(opts.env);
	const mock = await startAnthropicMock({ steps: opts.steps, final: opts.final, server: serverName, native: opts.native });
	Object.assign(env, {
		ANTHROPIC_BASE_URL: mock.url,
		ANTHROPIC_API_KEY: API_KEY,
		DISABLE_AUTOUPDATER: '1',
		DISABLE_TELEMETRY: '1',
		DISABLE_ERROR_REPORTING: '1',
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
	});
	/* No CLAUDE_CONFIG_DIR: the default, ~/.claude, is inside the private HOME. */
	const bin = claudeBinary();
	const out = { dirs, mock };
	try {
		writeClaudeJson(dirs.home, dirs.work);
		if (opts.prepare)
			await opts.prepare(dirs, env);
		const args = [];
		if (opts.noServer) {
			/* No MCP server: the script uses the client's own tools. */
		} else if (opts.register) {
			/* opts.register(dirs, env): registers the server itself (aiterm-setup). */
			out.registered = await opts.register(dirs, env);
		} else if (opts.mcpConfig) {
			const file = path.join(dirs.root, 'mcp.json');
			fs.writeFileSync(file, JSON.stringify({
				mcpServers: { [serverName]: { type: 'stdio', command: server, args: serverArgs, env: C.serverEnv(env) } },
			}, null, 2));
			args.push('--mcp-config', file, '--strict-mcp-config');
		} else {
			const add = ['mcp', 'add', '--scope', 'user', serverName];
			for (const [k, v] of Object.entries(C.serverEnv(env)))
				add.push('-e', `${k}=${v}`);
			add.push('--', server, ...serverArgs);
			const r = await C.run(bin, add, { cwd: dirs.work, env, timeoutMs: 30000 });
			out.mcpAdd = r;
			if (r.exitCode !== 0)
				throw new Error(`claude mcp add failed (${r.exitCode}): ${r.stdout}${r.stderr}`);
		}
		const prompt = opts.prompt || 'Run the scripted terminal steps with the aiterm tools.';
		const allowed = [...(opts.noServer ? [] : [`mcp__${serverName}`]), ...(opts.native || [])].join(',');
		args.push('-p', prompt, '--allowedTools', allowed, '--output-format', 'json', ...(opts.extraArgs || []));
		const r = await C.run(bin, args, { cwd: dirs.work, env, timeoutMs: opts.timeoutMs || 180000 });
		Object.assign(out, r);
		try { out.json = JSON.parse(r.stdout); } catch { out.json = null; }
	} finally {
		await mock.close();
		out.tmuxKilled = await C.cleanupRun(dirs, opts.keep);
	}
	const lastMain = mock.main[mock.main.length - 1];
	const prefix = `mcp__${serverName}__`;
	/* ms: from the mock's answer with the call to the request carrying its result. */
	out.results = mock.script.results.map((r, k) => r && ({ tool: r.tool, args: r.args, seen: r.seen, isError: r.isError, raw: r.raw,
		ms: r.at - mock.script.issuedAt[k] })).filter(Boolean);
	out.scriptErrors = mock.script.errors;
	out.finished = mock.script.finished;
	/* With tool search the schemas come after ToolSearch, with defer_loading. */
	out.toolsShown = lastMain ? (lastMain.body.tools || []).filter((t) => t.name.startsWith(prefix))
		.map(({ defer_loading: _, ...t }) => t) : [];
	out.toolSearch = mock.main.some((r) => r.toolSearch);
	out.instructionsShown = lastMain ? findInstructions(lastMain.body, serverName, opts.instructions) : { found: false };
	out.requests = mock.requests;
	out.main = mock.main;
	out.side = mock.side;
	delete out.mock;
	return out;
}

module.exports = { runClaude, claudeBinary, findInstructions, API_KEY };
