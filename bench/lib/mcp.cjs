'use strict';
/*
 * bench/lib/mcp.cjs: a raw JSON-RPC (newline-delimited, MCP stdio) client
 * for aiterm-mcp, with no SDK in the way, so that timings are the server's
 * and not a client library's.
 *
 * paths() finds the build and source trees; makeRig() makes the temporary
 * directories (state root, HOME, TMUX_TMPDIR, XDG_*) and the environment
 * the server needs; spawnServer() starts one server on a rig; rig.cleanup()
 * stops the servers it started, kills the rig's private tmux server by its
 * PID (read from that socket, never any other tmux server) and removes the
 * temporary tree.
 */
const { spawn } = require('node:child_process');
/* The isolated environment and process helpers the MCP tests use. */
const { makeEnv, tmuxServerPid, alive, waitGone, stopPid, STRUCTURED_CAPS } = require('../../tests/mcp/lib/server.cjs');
/* What the model reads: the facts in the text, and each real client's view. */
const { parseText } = require('../../tests/mcp/lib/textview.cjs');
const views = require('../../tests/mcp/lib/views.cjs');
const fs = require('node:fs');
const path = require('node:path');

const now = () => Number(process.hrtime.bigint()) / 1e6;	/* ms */
const delay = (ms) => new Promise((r) => setTimeout(r, ms));

/*
 * The build and source trees: --builddir=DIR / --srcdir=DIR on the command
 * line, else $AITERM_BUILDDIR / $AITERM_SRCDIR (or automake's top_builddir /
 * top_srcdir), else the source tree is the script's ../ and the build tree
 * is the first of ./build, <srcdir>/build, . and <srcdir> that holds an
 * aiterm-mcp (the current directory's ./build when none does).  The server is $AITERM_MCP if set, else <builddir>/aiterm-mcp.
 */

/* Every build folder under dir that holds a plugin manifest (plugins/*, plugins/reducers/*). */
function pluginDirs(dir) {
	const found = [];
	const walk = (d) => {
		let entries;
		try { entries = fs.readdirSync(d, { withFileTypes: true }); } catch { return; }
		if (entries.some((e) => e.isFile() && e.name.endsWith('.yaml')))
			found.push(d);
		for (const e of entries)
			if (e.isDirectory() && !e.name.startsWith('.'))
				walk(path.join(d, e.name));
	};
	walk(dir);
	return found.sort();
}

function paths(argv) {
	const opt = (name) => {
		for (let i = 0; i < argv.length; i++) {
			if (argv[i].startsWith(`--${name}=`))
				return argv[i].slice(name.length + 3);
			if (argv[i] === `--${name}` && i + 1 < argv.length)
				return argv[i + 1];
		}
		return undefined;
	};
	const srcdir = path.resolve(opt('srcdir') || process.env.AITERM_SRCDIR ||
		process.env.top_srcdir || path.join(__dirname, '..', '..'));
	let builddir = opt('builddir') || process.env.AITERM_BUILDDIR || process.env.top_builddir;
	if (!builddir) {
		const has = (d) => fs.existsSync(path.join(d, 'aiterm-mcp'));
		builddir = [path.resolve('build'), path.join(srcdir, 'build'), process.cwd(), srcdir]
			.find(has) || path.resolve('build');
	}
	builddir = path.resolve(builddir);
	const server = process.env.AITERM_MCP || path.join(builddir, 'aiterm-mcp');
	if (!fs.existsSync(server))
		throw new Error(`${server} does not exist: build it, or give --builddir=DIR`);
	const shellDir = path.join(srcdir, 'core/shell/integration');
	if (!fs.existsSync(shellDir))
		throw new Error(`${shellDir} does not exist: give --srcdir=DIR`);
	return { srcdir, builddir, server, pluginPath: pluginDirs(path.join(builddir, 'plugins')).join(':'), shellDir };
}

/* Arguments that are not --option[=value] (options taking a value listed). */
function positional(argv, withValue = ['builddir', 'srcdir']) {
	const out = [];
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a.startsWith('--')) {
			if (!a.includes('=') && withValue.includes(a.slice(2)))
				i++;
			continue;
		}
		out.push(a);
	}
	return out;
}

/* VmRSS of a process in kB, or null. */
function rssKb(pid) {
	try {
		const m = fs.readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+)\s+kB/m);
		return m ? Number(m[1]) : null;
	} catch {
		return null;
	}
}

class Server {
	constructor(child) {
		this.child = child;
		this.pid = child.pid;
		this.stderr = '';
		this.pending = new Map();	/* id -> { resolve, reject, timer } */
		this.nextId = 1;
		this.exited = null;
		this._buf = [];
		child.stdout.on('data', (b) => this._onData(b));
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (s) => {
			this.stderr += s;
			if (this.stderr.length > 200000)
				this.stderr = this.stderr.slice(-100000);
		});
		child.stdin.on('error', () => {});
		child.on('exit', (code, signal) => {
			this.exited = { code, signal };
			for (const [, p] of this.pending) {
				clearTimeout(p.timer);
				p.reject(new Error(`server exited (${code}/${signal}); stderr: ${this.stderr.slice(-2000)}`));
			}
			this.pending.clear();
		});
	}

	_onData(buf) {
		let start = 0;
		for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, start)) {
			this._buf.push(buf.subarray(start, i));
			const line = Buffer.concat(this._buf).toString('utf8');
			this._buf = [];
			start = i + 1;
			this._onLine(line, now());
		}
		if (start < buf.length)
			this._buf.push(buf.subarray(start));
	}

	_onLine(line, t) {
		if (!line.trim())
			return;
		let msg;
		try {
			msg = JSON.parse(line);
		} catch {
			this.stderr += `[bench] unparsable stdout line: ${line.slice(0, 200)}\n`;
			return;
		}
		if (msg.id === undefined || msg.id === null || !this.pending.has(msg.id))
			return;	/* a notification or a request from the server */
		const p = this.pending.get(msg.id);
		this.pending.delete(msg.id);
		clearTimeout(p.timer);
		p.resolve({ msg, line, t });
	}

	/* Sends a request; resolves with { msg, line, t (ms, on arrival), ms (round trip) }. */
	request(method, params, timeoutMs = 60000) {
		const id = this.nextId++;
		const text = JSON.stringify({ jsonrpc: '2.0', id, method, params: params || {} }) + '\n';
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => {
				this.pending.delete(id);
				reject(new Error(`${method} timed out after ${timeoutMs} ms; stderr: ${this.stderr.slice(-2000)}`));
			}, timeoutMs);
			const t0 = now();
			this.pending.set(id, {
				resolve: (r) => { r.ms = r.t - t0; resolve(r); },
				reject, timer,
			});
			this.child.stdin.write(text);
		});
	}

	notify(method, params) {
		this.child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method, params: params || {} }) + '\n');
	}

	/*
	 * structured: ask for structuredContent (ADR 0006), to measure what the
	 * clients would show then; by default the bench sees what they get.
	 * clientName: the clientInfo name: the server bounds a read's results
	 * to what a client it knows shows whole (ADR 0043; bench/tokens.cjs
	 * names Claude Code or Codex).
	 */
	async initialize({ structured = false, clientName = 'aiterm-bench' } = {}) {
		const r = await this.request('initialize', {
			protocolVersion: '2025-06-18',
			capabilities: structured ? STRUCTURED_CAPS : {},
			clientInfo: { name: clientName, version: '0' },
		});
		if (r.msg.error)
			throw new Error(`initialize: ${JSON.stringify(r.msg.error)}`);
		this.notify('notifications/initialized');
		return r;
	}

	/*
	 * tools/call.  Resolves with { result, text (content text joined), sc
	 * (structuredContent, else the facts the text states: textview.cjs),
	 * views ({claude, codex}: what each real client hands the model),
	 * line (the raw JSON-RPC line), ms }.  Throws on a JSON-RPC error, and
	 * on isError unless allowError.
	 */
	async call(name, args, { timeoutMs = 60000, allowError = false } = {}) {
		const r = await this.request('tools/call', { name, arguments: args || {} }, timeoutMs);
		if (r.msg.error)
			throw new Error(`${name}: JSON-RPC error ${JSON.stringify(r.msg.error)}`);
		const result = r.msg.result || {};
		const text = (result.content || []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
		if (result.isError && !allowError)
			throw new Error(`${name} ${JSON.stringify(args).slice(0, 300)} failed: ${text.slice(0, 2000)}`);
		return {
			result, text, sc: result.structuredContent || parseText(name, text, args),
			views: { claude: views.claudeView(result, name), codex: views.codexView(result, r.ms / 1000) },
			line: r.line, ms: r.ms,
		};
	}

	async stop() {
		if (this.exited)
			return;
		try { this.child.stdin.end(); } catch { /* closed */ }
		const pid = this.pid;
		if (!(await waitGone(pid, 1500))) {
			try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
			await waitGone(pid, 2000);
		}
	}
}

/*
 * A temporary tree and the server environment.  extraEnv is merged last
 * (e.g. a PATH with the bench's own bin directory first).
 */
function makeRig(p, extraEnv) {
	const { dirs, env } = makeEnv(null, Object.assign({
		AITERM_PLUGIN_PATH: p.pluginPath,
		AITERM_SHELL_DIR: p.shellDir,
	}, extraEnv || {}));
	const root = dirs.root;
	const servers = [];
	const sockets = new Set([path.join(dirs.state, 'tmux.sock')]);
	const after = [];
	const rig = {
		dirs, env, servers, sockets,

		/* f() runs at cleanup, once the servers are gone (e.g. an sshd's stop). */
		onCleanup(f) {
			after.push(f);
		},

		/* Starts a server; resolves once spawned (not initialized). */
		spawn() {
			const child = spawn(p.server, [], { env, stdio: ['pipe', 'pipe', 'pipe'] });
			const s = new Server(child);
			servers.push(s);
			return s;
		},

		/* Remembers the tmux socket named by a pty_open result. */
		noteAttach(sc) {
			const m = sc && typeof sc.attach === 'string' && sc.attach.match(/-S\s+(\S+)/);
			if (m)
				sockets.add(m[1].replace(/^['"]|['"]$/g, ''));
		},

		/* PIDs of this rig's private tmux servers (read from its sockets). */
		tmuxPids() {
			const pids = new Set();
			for (const sock of sockets)
				if (fs.existsSync(sock)) {
					const pid = tmuxServerPid(sock);
					if (pid)
						pids.add(pid);
				}
			return [...pids];
		},

		async cleanup() {
			/* Read the tmux PIDs before the servers go (the socket stays). */
			const tmux = rig.tmuxPids();
			for (const s of servers)
				await s.stop();
			for (const pid of [...tmux, ...rig.tmuxPids()])
				await stopPid(pid, 3000);
			for (const f of after.splice(0))
				await f();
			fs.rmSync(root, { recursive: true, force: true });
		},
	};
	return rig;
}

/* Quantile (0..1) of numbers, nearest-rank. */
function quantile(xs, q) {
	if (xs.length === 0)
		return NaN;
	const s = [...xs].sort((a, b) => a - b);
	const i = Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1));
	return s[i];
}

module.exports = { paths, positional, makeRig, rssKb, quantile, now, delay, tmuxServerPid, alive, waitGone, views };
