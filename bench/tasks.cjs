#!/usr/bin/env node
'use strict';
/*
 * bench/tasks.cjs: whole tasks as a model does them (issue 34), through
 * the real Claude Code and Codex CLIs (the pinned packages tests/clients
 * installs into the build tree) against a scripted mock model
 * (tests/clients/lib): the model issues a fixed sequence of tool calls per
 * task (bench/tasks/<task>.cjs), and the mock records every tool result the
 * client handed it and the tool definitions the client sent.  Three ways
 * per task (bench/tasks/ways.cjs): aiterm (the MCP tools), shell (the
 * client's own tool: Bash, exec_command) and tmux (a plain tmux session
 * driven through that shell tool).  Claude Code's aiterm way runs twice:
 * with its tool search (MCP tools deferred, the default) and with
 * ENABLE_TOOL_SEARCH=false.  Prints figures; it is not a test.
 *
 *   node bench/tasks.cjs [--builddir=DIR] [--srcdir=DIR] [--json]
 *       [--only=TASK,...] [--clients=claude,codex] [--ways=aiterm,shell,tmux] [--show]
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const argv = process.argv.slice(2);
const opt = (k, d) => {
	const a = argv.find((x) => x.startsWith(`--${k}=`));
	return a ? a.slice(k.length + 3) : d;
};
const list = (k, d) => opt(k, d).split(',').filter(Boolean);
const JSON_OUT = argv.includes('--json');
const SHOW = argv.includes('--show');

const { paths } = require('./lib/mcp.cjs');
const p = paths(argv);
/* The CLIs and the tokenizer tests/clients installed (make check-clients). */
process.env.NODE_PATH = path.join(p.builddir, 'tests/clients/node_modules');
require('node:module').Module._initPaths();
Object.assign(process.env, {
	AITERM_MCP: p.server, AITERM_PLUGIN_PATH: p.pluginPath, AITERM_SHELL_DIR: p.shellDir, AITERM_SYSTEM_PLUGINDIR: '',
});

const { runTask, TASKS, WAYS } = require('./tasks/run.cjs');
const { goals } = require('./tasks/report.cjs');

const log = (s) => process.stderr.write(`${s}\n`);

async function main() {
	const only = list('only', Object.keys(TASKS).join(','));
	const clients = list('clients', 'claude,codex');
	const ways = list('ways', 'aiterm,shell,tmux');
	for (const n of only)
		if (!TASKS[n])
			throw new Error(`no task ${n} (tasks: ${Object.keys(TASKS).join(', ')})`);
	/* The bench's own tree: the sshd, its user's home, the ssh wrapper. */
	const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-tasks-')));
	const rows = [];
	const notes = [];
	const shared = {};
	try {
		for (const name of only) {
			const task = TASKS[name];
			const why = task.unavailable ? task.unavailable() : null;
			if (why) {
				notes.push(`${name}: not run: ${why}`);
				continue;
			}
			if (task.setup)
				shared[name] = await task.setup(path.join(root, name));
			for (const client of clients) {
				for (const way of WAYS[client].filter((w) => ways.includes(w.way))) {
					log(`tasks: ${name} ${client} ${way.label} ...`);
					const row = await runTask(task, client, way, shared[name]);
					log(`tasks: ${name} ${client} ${way.label}: ${row.calls} calls, ${row.tokens} tokens, ` +
						`facts ${row.kept}/${row.facts}, ${(row.task_ms / 1000).toFixed(1)} s${row.problems.length ? ` (${row.problems.join('; ')})` : ''}`);
					if (SHOW)
						for (const r of row.results)
							log(`  ${r.tool} ${JSON.stringify(r.args).slice(0, 200)} (${r.tokens} tok, ${r.ms} ms)\n    ${JSON.stringify(r.seen).slice(0, 1500)}`);
					rows.push(row);
				}
			}
		}
	} finally {
		for (const s of Object.values(shared))
			if (s && s.stop)
				await s.stop();
		fs.rmSync(root, { recursive: true, force: true });
	}
	const g = goals(rows);
	if (JSON_OUT) {
		const strip = rows.map(({ results, ...r }) => Object.assign(r, { results: results.map(({ raw: _, ...x }) => x) }));
		process.stdout.write(JSON.stringify({ encoding: 'o200k_base', rows: strip, goals: g, notes }, null, 2) + '\n');
		return;
	}
	require('./tasks/report.cjs').print(rows, g, notes);
}

main().catch((err) => {
	process.stderr.write(`bench/tasks: ${err.stack || err}\n`);
	process.exit(1);
});
