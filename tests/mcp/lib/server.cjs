'use strict';
/*
 * Test helpers for the aiterm-mcp black-box suite.
 *
 * makeEnv() gives each test its own temporary state root, HOME, TMUX_TMPDIR
 * and XDG_* directories, so a test never reads or writes the user's real
 * ones.  spawnServer() starts the server with that environment and wraps it
 * in a raw line-level client: bytes go to stdin as given, stdout is read
 * line by line, stderr is collected separately, and every wait has its own
 * timeout so a test fails instead of hanging.
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

/* The default time one response may take. */
const WAIT_MS = 5000;

/*
 * The client capability that asks for structuredContent (ADR 0006).  The
 * suites that check the structured fields ask for it; a client that does
 * not (every real AI client) gets the text alone: model-view.test.cjs.
 */
const STRUCTURED_CAPS = { experimental: { 'aiterm/structuredContent': {} } };

/* The server under test: $AITERM_MCP, else $top_builddir/aiterm-mcp. */
function serverBinary() {
	if (process.env.AITERM_MCP)
		return process.env.AITERM_MCP;
	if (!process.env.top_builddir)
		throw new Error('top_builddir is not set; run the suite through tests/mcp/run.sh');
	return path.join(process.env.top_builddir, 'aiterm-mcp');
}

/* s single-quoted for sh: nothing in it ($, `, \, ") is expanded. */
function shq(s) {
	return `'${String(s).replace(/'/g, "'\\''")}'`;
}

/*
 * A #!/bin/sh script that exports vars (an object; undefined values left
 * out) and runs argv with the script's arguments after them; opts.cwd:
 * where it runs, opts.tail: shell words after "$@" (a redirection).  For
 * the wrappers a client runs as its MCP server, with the test's
 * environment in the command.
 */
function wrapperScript(vars, argv, opts = {}) {
	return '#!/bin/sh\n' + Object.entries(vars).filter(([, v]) => v !== undefined)
		.map(([k, v]) => `export ${k}=${shq(v)}\n`).join('') +
		(opts.cwd ? `cd ${shq(opts.cwd)}\n` : '') +
		`exec ${argv.map(shq).join(' ')} "$@"${opts.tail ? ` ${opts.tail}` : ''}\n`;
}

/*
 * Variables a test never inherits from the person running it.  make's
 * own (MAKEFLAGS, MAKEOVERRIDES, MFLAGS, MAKELEVEL, ...: `make check
 * X=y` puts X=y in them) are for make's children that are make (issue 32).
 */
function inherited(name) {
	if (/^(AITERM_|XDG_|TMUX|NODE_|NPM_|npm_|MAKE|GNUMAKEFLAGS$|MFLAGS$)/.test(name))
		return false;
	return !['HOME', 'TMPDIR', 'PSMUX', 'CODEX_HOME', 'CLAUDE_CONFIG_DIR'].includes(name);
}

/*
 * Create the per-test directories.  The root is real-path'ed so that paths
 * the server reports compare equal to the ones we passed (macOS /tmp is a
 * symbolic link).  The state root itself is left for the server to create.
 * When t (a node:test context) is given the tree is removed after the test.
 */
function makeEnv(t, extra) {
	const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-mcp-')));
	const dir = (name) => {
		const p = path.join(root, name);
		fs.mkdirSync(p, { mode: 0o700, recursive: true });
		return p;
	};
	const dirs = {
		root,
		state: path.join(root, 'state'),
		home: dir('home'),
		tmux: dir('tmux'),
		tmp: dir('tmp'),
		xdgState: dir('xdg/state'),
		xdgConfig: dir('xdg/config'),
		xdgData: dir('xdg/data'),
		xdgCache: dir('xdg/cache'),
		xdgRuntime: dir('xdg/runtime'),
	};
	const env = {};
	for (const [k, v] of Object.entries(process.env))
		if (inherited(k))
			env[k] = v;
	Object.assign(env, {
		AITERM_STATE_DIR: dirs.state,
		AITERM_PLUGIN_PATH: process.env.AITERM_PLUGIN_PATH || '',
		AITERM_SYSTEM_PLUGINDIR: '',
		HOME: dirs.home,
		TMUX_TMPDIR: dirs.tmux,
		TMPDIR: dirs.tmp,
		XDG_STATE_HOME: dirs.xdgState,
		XDG_CONFIG_HOME: dirs.xdgConfig,
		XDG_DATA_HOME: dirs.xdgData,
		XDG_CACHE_HOME: dirs.xdgCache,
		XDG_RUNTIME_DIR: dirs.xdgRuntime,
		LC_ALL: 'C.UTF-8',
	}, extra || {});
	if (t)
		t.after(() => fs.rmSync(root, { recursive: true, force: true }));
	return { dirs, env };
}

/*
 * The variables the server needs to find its plugins and shell scripts,
 * taken from the test's environment (tests/local.mk sets them).
 */
function passThrough() {
	const env = {};
	for (const k of ['AITERM_PLUGIN_PATH', 'AITERM_SYSTEM_PLUGINDIR', 'AITERM_SHELL_DIR'])
		if (process.env[k] !== undefined)
			env[k] = process.env[k];
	if (!env.AITERM_SHELL_DIR && process.env.top_srcdir)
		env.AITERM_SHELL_DIR = path.join(process.env.top_srcdir, 'core/shell/integration');
	if (env.AITERM_SYSTEM_PLUGINDIR === undefined)
		env.AITERM_SYSTEM_PLUGINDIR = '';
	return env;
}

function delay(ms) {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/* The PID of the tmux server listening on sock, or null. */
function tmuxServerPid(sock) {
	try {
		const out = execFileSync('tmux', ['-S', sock, 'display', '-p', '#{pid}'], {
			encoding: 'utf8', timeout: 5000, stdio: ['ignore', 'pipe', 'ignore'],
			env: { PATH: process.env.PATH, TMUX: '' },
		}).trim();
		const pid = Number(out);
		return Number.isInteger(pid) && pid > 1 ? pid : null;
	} catch {
		return null;
	}
}

/* True while the process exists (and is not a zombie). */
function alive(pid) {
	try {
		const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return !/^\d+ \(.*\) Z /.test(st);
	} catch {
		try {
			process.kill(pid, 0);
			return true;
		} catch {
			return false;
		}
	}
}

async function waitGone(pid, ms = 5000) {
	const deadline = Date.now() + ms;
	while (alive(pid)) {
		if (Date.now() > deadline)
			return false;
		await delay(20);
	}
	return true;
}

/* Ends a process this test started, by its PID: SIGTERM, then SIGKILL. */
async function stopPid(pid, ms = 2000) {
	try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
	if (!(await waitGone(pid, ms))) {
		try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
		await waitGone(pid, 2000);
	}
}

/*
 * What a sanitizer build (./quickstart check's build-asan) prints when it
 * finds a bug: AddressSanitizer, LeakSanitizer (at exit) and UBSan.
 */
const SANITIZER_RE = /ERROR: (?:AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer)|WARNING: ThreadSanitizer|runtime error:/;

/*
 * What the server prints when a structuredContent it sends does not match
 * its tool's outputSchema (core/mcp/calls.c check_result; issue 32): a
 * bug, whichever test met it.
 */
const RESULT_SCHEMA_RE = /^aiterm-mcp: internal error: .* does not match its outputSchema: .*$/m;

/*
 * Watches one server process: records how it ended (exit), the signals
 * the harness sent it (signals) and, through done(ms), waits until it has
 * ended and its stderr is read to the end.
 */
class ServerWatch {
	constructor(proc, stderrStream) {
		this.exit = null;
		this.signals = [];
		let exited, ended;
		this._exited = new Promise((resolve) => { exited = resolve; });
		this._ended = new Promise((resolve) => { ended = resolve; });
		if (proc.exitCode !== null || proc.signalCode !== null) {
			this.exit = { code: proc.exitCode, signal: proc.signalCode };
			exited();
		}
		proc.once('exit', (code, signal) => {
			this.exit = { code, signal };
			exited();
		});
		proc.once('error', () => exited());
		if (stderrStream && !stderrStream.readableEnded) {
			stderrStream.once('end', ended);
			stderrStream.once('close', ended);
		} else {
			ended();
		}
		const kill = proc.kill.bind(proc);
		proc.kill = (sig = 'SIGTERM') => {
			this.signals.push(sig);
			return kill(sig);
		};
	}

	/* Resolves once the process exited and stderr ended, or after ms. */
	async done(ms = 5000) {
		let timer;
		const limit = new Promise((resolve) => { timer = setTimeout(resolve, ms); });
		await Promise.race([Promise.all([this._exited, this._ended]), limit]);
		clearTimeout(timer);
	}
}

/*
 * What is wrong with how a server ended, as a list of sentences (empty:
 * nothing).  Every server a test starts must exit with status 0 (on stdin
 * EOF, or on a SIGTERM the test sent) and print no sanitizer report.
 * opts: killed (the test killed it with SIGKILL on purpose: only stderr
 * is checked), harnessSignals (the signals the harness itself had to send
 * after closing stdin: any means the server did not exit on EOF), what
 * (names the server in the message).
 */
function serverProblems(exit, stderr, opts = {}) {
	const what = opts.what || 'aiterm-mcp';
	const out = [];
	const m = SANITIZER_RE.exec(stderr);
	if (m) {
		const from = Math.max(0, stderr.lastIndexOf('\n', Math.max(0, m.index - 200)));
		out.push(`${what}: a sanitizer report on stderr:\n${stderr.slice(from, from + 4000)}`);
	}
	const bad = RESULT_SCHEMA_RE.exec(stderr);
	if (bad)
		out.push(`${what}: a result that does not match its outputSchema:\n${bad[0].slice(0, 4000)}`);
	if (opts.killed)
		return out;
	if (exit === null)
		out.push(`${what}: still running`);
	else if (exit.code !== 0 || exit.signal !== null)
		out.push(`${what}: exit ${JSON.stringify(exit)}, not status 0`);
	if (opts.harnessSignals && opts.harnessSignals.length > 0)
		out.push(`${what}: did not exit on stdin EOF within 2 s (the harness sent ${opts.harnessSignals.join(', ')})`);
	return out;
}

/* Throws an AssertionError listing serverProblems(), if any. */
function assertServerClean(exit, stderr, opts = {}) {
	const problems = serverProblems(exit, stderr, opts);
	if (problems.length > 0) {
		const assert = require('node:assert/strict');
		throw new assert.AssertionError({ message: problems.join('\n') });
	}
}

/* Lists the files below dir, relative to it (directories excluded). */
function listFiles(dir) {
	const out = [];
	const walk = (d, rel) => {
		for (const e of fs.readdirSync(d, { withFileTypes: true })) {
			const r = rel ? path.join(rel, e.name) : e.name;
			if (e.isDirectory())
				walk(path.join(d, e.name), r);
			else
				out.push(r);
		}
	};
	walk(dir, '');
	return out.sort();
}

class RawServer {
	constructor(child, dirs, env) {
		this.child = child;
		this.dirs = dirs;
		this.env = env;
		this.lines = [];	/* every stdout line, in order, as text */
		this.queue = [];	/* lines not consumed yet */
		this.messages = [];	/* every message parsed by nextMessage() */
		this.stderr = '';
		this.ended = false;	/* stdout reached EOF */
		this.exit = null;	/* { code, signal } once exited */
		this.nextId = 1000;
		this._chunks = [];
		this._waiter = null;
		this._exitWaiters = [];
		this.killedByTest = false;
		this._stderrEnd = new Promise((resolve) => {
			child.stderr.once('end', resolve);
			child.stderr.once('close', resolve);
		});
		child.stdout.on('data', (buf) => this._onData(buf));
		child.stdout.on('end', () => {
			this.ended = true;
			if (this._chunks.length > 0) {
				/* A last line without its newline still counts as output. */
				const rest = Buffer.concat(this._chunks).toString('utf8');
				this._chunks = [];
				this.lines.push(rest);
				this.partial = rest;
			}
			this._wake();
		});
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (s) => { this.stderr += s; });
		child.stdin.on('error', () => { /* EPIPE after exit: reported by the exit checks */ });
		child.on('exit', (code, signal) => {
			this.exit = { code, signal };
			for (const w of this._exitWaiters.splice(0))
				w();
			this._wake();
		});
		child.on('error', (err) => {
			this.spawnError = err;
			this.exit = this.exit || { code: null, signal: null, error: err };
			for (const w of this._exitWaiters.splice(0))
				w();
			this._wake();
		});
	}

	_onData(buf) {
		let start = 0;
		for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, start)) {
			this._chunks.push(buf.subarray(start, i));
			const line = Buffer.concat(this._chunks).toString('utf8');
			this._chunks = [];
			this.lines.push(line);
			this.queue.push(line);
			start = i + 1;
		}
		if (start < buf.length)
			this._chunks.push(buf.subarray(start));
		this._wake();
	}

	_wake() {
		const w = this._waiter;
		this._waiter = null;
		if (w)
			w();
	}

	/* Describes the server's state for failure messages. */
	context() {
		const tail = this.stderr.length > 2000 ? '...' + this.stderr.slice(-2000) : this.stderr;
		return `exit=${JSON.stringify(this.exit)} stdout-lines=${this.lines.length} stderr:\n${tail}`;
	}

	/* Writes raw bytes (string or Buffer) to stdin; resolves when flushed. */
	write(data) {
		return new Promise((resolve, reject) => {
			this.child.stdin.write(data, (err) => {
				if (err)
					reject(new Error(`writing to the server's stdin: ${err.message}; ${this.context()}`));
				else
					resolve();
			});
		});
	}

	/* Writes one message as a JSON line. */
	send(obj) {
		return this.write(JSON.stringify(obj) + '\n');
	}

	/* The next stdout line (without its newline), or a rejection after ms. */
	async nextLine(ms = WAIT_MS) {
		const deadline = Date.now() + ms;
		for (;;) {
			if (this.queue.length > 0)
				return this.queue.shift();
			if (this.ended)
				throw new Error(`stdout closed while waiting for a line; ${this.context()}`);
			const left = deadline - Date.now();
			if (left <= 0)
				throw new Error(`no stdout line within ${ms} ms; ${this.context()}`);
			await new Promise((resolve) => {
				const timer = setTimeout(resolve, left);
				this._waiter = () => { clearTimeout(timer); resolve(); };
			});
		}
	}

	/* The next stdout line parsed as JSON; a line that is not JSON fails. */
	async nextMessage(ms = WAIT_MS) {
		const line = await this.nextLine(ms);
		let msg;
		try {
			msg = JSON.parse(line);
		} catch (err) {
			throw new Error(`stdout line is not JSON (${err.message}): ${line.slice(0, 300)}`);
		}
		this.messages.push(msg);
		return msg;
	}

	/*
	 * The next response (a message with no method), skipping and keeping
	 * notifications the server sends in between.
	 */
	async nextResponse(ms = WAIT_MS) {
		const deadline = Date.now() + ms;
		for (;;) {
			const msg = await this.nextMessage(Math.max(1, deadline - Date.now()));
			if (msg === null || typeof msg !== 'object' || !('method' in msg))
				return msg;
		}
	}

	/* Fails if a stdout line arrives within ms. */
	async expectSilence(ms) {
		const deadline = Date.now() + ms;
		while (Date.now() < deadline && this.queue.length === 0 && !this.ended) {
			await new Promise((resolve) => {
				const timer = setTimeout(resolve, deadline - Date.now());
				this._waiter = () => { clearTimeout(timer); resolve(); };
			});
		}
		if (this.queue.length > 0)
			throw new Error(`unexpected stdout line: ${this.queue[0].slice(0, 300)}`);
	}

	/* Sends a request and returns its response. */
	async request(method, params, id, ms = WAIT_MS) {
		if (id === undefined)
			id = this.nextId++;
		const msg = { jsonrpc: '2.0', id, method };
		if (params !== undefined)
			msg.params = params;
		await this.send(msg);
		return this.nextResponse(ms);
	}

	/* Sends a notification (no id). */
	notify(method, params) {
		const msg = { jsonrpc: '2.0', method };
		if (params !== undefined)
			msg.params = params;
		return this.send(msg);
	}

	/*
	 * The initialize handshake: initialize, then notifications/initialized.
	 * Returns the initialize response.
	 */
	async initialize(protocolVersion = '2025-11-25', id = 'init', capabilities = STRUCTURED_CAPS,
		clientInfo = { name: 'aiterm-wire-test', version: '0.0.0' }) {
		const res = await this.request('initialize', {
			protocolVersion,
			capabilities,
			clientInfo,
		}, id);
		if (!res || !res.result)
			throw new Error(`initialize failed: ${JSON.stringify(res)}; ${this.context()}`);
		await this.notify('notifications/initialized');
		return res;
	}

	/* Closes stdin (EOF for the server). */
	closeStdin() {
		this.child.stdin.end();
	}

	/* Resolves with { code, signal } once the process exited, or rejects after ms. */
	waitExit(ms = WAIT_MS) {
		if (this.exit)
			return Promise.resolve(this.exit);
		return new Promise((resolve, reject) => {
			const timer = setTimeout(() => reject(new Error(`server still running after ${ms} ms; ${this.context()}`)), ms);
			this._exitWaiters.push(() => { clearTimeout(timer); resolve(this.exit); });
		});
	}

	kill(signal = 'SIGTERM') {
		if (!this.exit) {
			if (signal === 'SIGKILL' || signal === 9)
				this.killedByTest = true;
			this.child.kill(signal);
		}
	}

	/*
	 * Stops the server whatever its state: EOF, then SIGTERM, then SIGKILL;
	 * then fails (throws) if it did not exit with status 0 on EOF, or left
	 * a sanitizer report on stderr (serverProblems).  A server the test
	 * killed with SIGKILL only has its stderr checked.
	 */
	async dispose() {
		if (this._disposed)
			return;
		this._disposed = true;
		const harness = [];
		if (!this.exit) {
			this.closeStdin();
			try {
				await this.waitExit(2000);
			} catch {
				harness.push('SIGTERM');
				this.child.kill('SIGTERM');
				try {
					await this.waitExit(2000);
				} catch {
					harness.push('SIGKILL');
					this.child.kill('SIGKILL');
					await this.waitExit(2000).catch(() => {});
				}
			}
		}
		await Promise.race([this._stderrEnd, delay(2000)]);
		const killed = this.killedByTest || (this.exit && this.exit.signal === 'SIGKILL' && !harness.includes('SIGKILL'));
		assertServerClean(this.exit, this.stderr, { killed, harnessSignals: harness, what: `aiterm-mcp pid ${this.child.pid}` });
	}
}

/*
 * Starts the server with its own directories.  opts: args (argv after the
 * binary), env (extra variables), testTools (sets AITERM_TEST_TOOLS=1),
 * before(dirs, env) (called before the spawn, e.g. to write files or
 * change env).
 * With a node:test context t the server is stopped and its directories
 * removed after the test.
 */
function spawnServer(t, opts = {}) {
	const extra = Object.assign({}, opts.env || {});
	if (opts.testTools)
		extra.AITERM_TEST_TOOLS = '1';
	const { dirs, env } = makeEnv(null, extra);
	if (opts.before)
		opts.before(dirs, env);
	const child = spawn(serverBinary(), opts.args || [], {
		env,
		cwd: dirs.home,
		stdio: ['pipe', 'pipe', 'pipe'],
	});
	const srv = new RawServer(child, dirs, env);
	if (t) {
		t.after(async () => {
			try {
				await srv.dispose();
			} finally {
				fs.rmSync(dirs.root, { recursive: true, force: true });
			}
		});
	}
	return srv;
}

/*
 * The server runs with AddressSanitizer (its runtime is mapped): freed
 * memory sits in its quarantine and RSS does not come back by design.
 */
function sanitized(pid) {
	try {
		return /libasan|libclang_rt\.asan/.test(fs.readFileSync(`/proc/${pid}/maps`, 'utf8'));
	} catch {
		return false;
	}
}

module.exports = {
	sanitized, STRUCTURED_CAPS, passThrough, stopPid, SANITIZER_RE, RESULT_SCHEMA_RE, ServerWatch, serverProblems, assertServerClean,
	WAIT_MS, serverBinary, makeEnv, spawnServer, RawServer, delay, listFiles,
	tmuxServerPid, alive, waitGone, shq, wrapperScript,
};
