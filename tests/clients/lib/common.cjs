'use strict';
/*
 * What the Claude and Codex runners share: the private directories of one
 * run (tests/mcp/lib/server.cjs makeEnv, plus a work directory and the
 * client's own variables taken out of the inherited environment), the
 * variables the MCP server needs, running a CLI with a hard timeout, the
 * cleanup of the run's private tmux server (by PID) and o200k token
 * counts.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { makeEnv, passThrough, stopPid, tmuxServerPid, alive, waitGone, delay } = require('../../mcp/lib/server.cjs');

/*
 * Variables never handed to a client under test: the coding client's and
 * the model's own (keys, base URLs, a Claude Code or Codex parent), proxies
 * (the mock is on loopback) and the MCP/OTel settings of the person running
 * the suite.
 */
function foreign(name) {
	return /^(ANTHROPIC_|CLAUDE|OPENAI_|CODEX_|MCP_|OTEL_|AWS_BEARER|GOOGLE_|GEMINI_|XAI_|GROK_|AITERM_|XDG_|TMUX)/.test(name) ||
		/^(https?_proxy|all_proxy|no_proxy)$/i.test(name) ||
		['CLAUDECODE', 'DISABLE_AUTOUPDATER', 'IS_SANDBOX'].includes(name);
}

/* The server under test: $AITERM_MCP, else $top_builddir/aiterm-mcp. */
function aitermBinary() {
	if (process.env.AITERM_MCP)
		return process.env.AITERM_MCP;
	if (!process.env.top_builddir)
		throw new Error('neither AITERM_MCP nor top_builddir is set; run through tests/clients/run.sh');
	return path.join(process.env.top_builddir, 'aiterm-mcp');
}

/*
 * The private directories and environment of one run: makeEnv's tree
 * (state, home, tmux, tmp, xdg/*) plus work (the client's cwd) and
 * codex (CODEX_HOME).  extra is merged over the server's variables.
 */
function makeRunEnv(extra) {
	const { dirs, env } = makeEnv(null, Object.assign(passThrough(), extra || {}));
	for (const k of Object.keys(env))
		if (foreign(k) && !(extra && k in extra) && !/^(AITERM_|XDG_|TMUX_TMPDIR)/.test(k))
			delete env[k];
	dirs.work = path.join(dirs.root, 'work');
	fs.mkdirSync(dirs.work, { mode: 0o700 });
	dirs.codex = path.join(dirs.root, 'codex-home');
	fs.mkdirSync(dirs.codex, { mode: 0o700 });
	env.NO_PROXY = '127.0.0.1,localhost';
	env.no_proxy = '127.0.0.1,localhost';
	return { dirs, env };
}

/*
 * The variables the MCP server gets (for a client that does not pass its
 * own environment on, and for `claude mcp add -e`): everything aiterm
 * reads plus what a shell in its panes needs.
 */
function serverEnv(env) {
	const out = {};
	for (const [k, v] of Object.entries(env)) {
		if (/^(AITERM_|XDG_)/.test(k) || ['HOME', 'TMUX_TMPDIR', 'TMPDIR', 'LC_ALL', 'LANG', 'PATH', 'SHELL', 'TERM', 'USER', 'LOGNAME'].includes(k))
			out[k] = v;
	}
	return out;
}

/*
 * Runs a command with a hard timeout.  The child leads its own process
 * group (detached), so on timeout the group it started is killed by its
 * PID: SIGTERM, then SIGKILL after 3 s.  Resolves {exitCode, signal,
 * stdout, stderr, timedOut, ms}.
 */
function run(cmd, args, opts = {}) {
	const t0 = Date.now();
	return new Promise((resolve) => {
		const child = spawn(cmd, args, {
			cwd: opts.cwd, env: opts.env,
			stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
			detached: true,
		});
		let stdout = '', stderr = '', timedOut = false, done = false;
		child.stdout.setEncoding('utf8');
		child.stderr.setEncoding('utf8');
		child.stdout.on('data', (s) => { stdout += s; });
		child.stderr.on('data', (s) => { stderr += s; });
		if (opts.input !== undefined)
			child.stdin.end(opts.input);
		const killGroup = (sig) => {
			try { process.kill(-child.pid, sig); } catch { try { child.kill(sig); } catch { /* gone */ } }
		};
		const timer = setTimeout(() => {
			timedOut = true;
			killGroup('SIGTERM');
			setTimeout(() => { if (!done) killGroup('SIGKILL'); }, 3000).unref();
		}, opts.timeoutMs || 120000);
		const finish = (code, signal, err) => {
			if (done)
				return;
			done = true;
			clearTimeout(timer);
			/* Whatever the CLI left in its process group goes with it. */
			killGroup('SIGKILL');
			resolve({ exitCode: code, signal, stdout, stderr: err ? stderr + String(err) : stderr, timedOut, ms: Date.now() - t0, pid: child.pid });
		};
		child.on('error', (err) => finish(null, null, err));
		child.on('close', (code, signal) => finish(code, signal));
	});
}

/* The tmux sockets a run may have made: the state root's and any under TMUX_TMPDIR. */
function tmuxSockets(dirs) {
	const socks = [path.join(dirs.state, 'tmux.sock')];
	const walk = (d, depth) => {
		let ents = [];
		try { ents = fs.readdirSync(d, { withFileTypes: true }); } catch { return; }
		for (const e of ents) {
			const p = path.join(d, e.name);
			if (e.isSocket())
				socks.push(p);
			else if (e.isDirectory() && depth < 3)
				walk(p, depth + 1);
		}
	};
	walk(dirs.tmux, 0);
	walk(dirs.state, 0);
	return [...new Set(socks)];
}

/* PIDs of tmux servers whose command line names this run's private tree. */
function tmuxPidsUnder(root) {
	const pids = [];
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name))
			continue;
		let cmd = '';
		try { cmd = fs.readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' '); } catch { continue; }
		if (/(^|\/)tmux\b/.test(cmd) && cmd.includes(root))
			pids.push(Number(name));
	}
	return pids;
}

/*
 * Kills the run's private tmux server(s) by PID (the PID the server
 * reports on our sockets, and any tmux whose command line names our
 * private tree), then removes the tree unless keep is set.
 */
async function cleanupRun(dirs, keep) {
	const pids = new Set();
	for (const s of tmuxSockets(dirs)) {
		const pid = tmuxServerPid(s);
		if (pid)
			pids.add(pid);
	}
	for (const pid of tmuxPidsUnder(dirs.root))
		pids.add(pid);
	for (const pid of pids) {
		await stopPid(pid);
	}
	if (!keep)
		fs.rmSync(dirs.root, { recursive: true, force: true });
	return [...pids];
}

let enc = null;
/* The o200k_base token count of s (gpt-tokenizer, as bench/lib/tokens.cjs). */
function tokens(s) {
	if (!enc)
		enc = require('gpt-tokenizer/encoding/o200k_base');
	if (!s)
		return 0;
	return enc.encode(String(s), { disallowedSpecial: new Set() }).length;
}

/* The text of a system prompt (string, or an array of text blocks). */
function systemText(system) {
	if (!system)
		return '';
	if (typeof system === 'string')
		return system;
	if (Array.isArray(system))
		return system.map((b) => (b && typeof b.text === 'string' ? b.text : '')).join('\n');
	return String(system);
}

/*
 * When a server behind tee.cjs (LOG) did not end: what it is doing, for
 * the failure message (each process under the keeper shell, or left by
 * it, found by LOG in its environment: its state,
 * every thread's wait channel and kernel stack, its descriptors; the
 * last requests and answers; its stderr), then the processes are killed
 * (they are this test's).  '' when no keeper was recorded.
 */
function teeDiagnosis(log) {
	const read = (f) => { try { return fs.readFileSync(f, 'utf8'); } catch { return ''; } };
	const keeperFile = read(`${log}.keeper`).trim().split('\n');
	const keeper = Number(keeperFile[0]);
	if (!keeper)
		return '';
	const under = (pid) => read(`/proc/${pid}/task/${pid}/children`).trim().split(/\s+/).filter(Boolean).map(Number);
	const pids = [];
	for (let todo = under(keeper); todo.length > 0;) {
		const p = todo.shift();
		pids.push(p);
		todo.push(...under(p));
	}
	/* Its processes anywhere (orphaned when the keeper is gone): by the log in their environment. */
	for (const name of fs.readdirSync('/proc')) {
		if (/^\d+$/.test(name) && !pids.includes(Number(name)) && Number(name) !== keeper &&
		    read(`/proc/${name}/environ`).split('\0').includes(`AITERM_TEE_LOG=${log}`))
			pids.push(Number(name));
	}
	const out = [`keeper ${keeper} (${read(`/proc/${keeper}/status`).match(/^State:.*$/m) || 'gone'}); ` +
		`${log}.keeper says ${JSON.stringify(keeperFile.slice(1))}; .exit.tmp ${fs.existsSync(`${log}.exit.tmp`) ? 'exists' : 'absent'}`];
	for (const p of pids) {
		out.push(`pid ${p}: ${read(`/proc/${p}/cmdline`).split('\0').join(' ').slice(0, 200)} ` +
			`(ppid ${(read(`/proc/${p}/status`).match(/^PPid:\s*(\d+)/m) || [])[1]})`);
		out.push(`  ${(read(`/proc/${p}/status`).match(/^State:.*$/m) || ['gone'])[0]}`);
		let tasks = [];
		try { tasks = fs.readdirSync(`/proc/${p}/task`); } catch { /* gone */ }
		for (const t of tasks)
			out.push(`  task ${t} wchan ${read(`/proc/${p}/task/${t}/wchan`)}: ${read(`/proc/${p}/task/${t}/stack`).trim().split('\n').slice(0, 6).join(' | ')}`);
		let fds = [];
		try { fds = fs.readdirSync(`/proc/${p}/fd`); } catch { /* gone */ }
		out.push('  fds ' + fds.map((f) => { try { return `${f}->${fs.readlinkSync(`/proc/${p}/fd/${f}`)}`; } catch { return f; } }).join(' '));
	}
	const tail = (f, n) => read(f).trimEnd().split('\n').slice(-n).map((l) => l.slice(0, 300)).join('\n');
	out.push(`last requests:\n${tail(`${log}.in`, 3)}`, `last answers:\n${tail(`${log}.out`, 3)}`,
		`stderr:\n${tail(`${log}.err`, 20)}`);
	for (const p of pids.reverse()) {
		try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
	}
	return out.join('\n');
}

module.exports = {
	teeDiagnosis,
	foreign, passThrough, aitermBinary, makeRunEnv, serverEnv, run, cleanupRun,
	tmuxSockets, tmuxPidsUnder, tokens, systemText, alive, waitGone, delay,
};
