'use strict';
/*
 * Helpers for the PTY tests (pty*.test.cjs): one temporary state root per
 * test (a "rig") on which any number of aiterm-mcp servers can be started
 * through the official SDK client, killed and restarted; tool-call
 * wrappers that fail with the whole result in the message; and a cleanup
 * that closes every session the test opened, stops its servers (failing
 * the test unless each exits with status 0 on stdin EOF and leaves no
 * sanitizer report on stderr: server.cjs serverProblems) and kills the
 * rig's private tmux server by its PID (never any other tmux server).
 */
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport } = require('@modelcontextprotocol/sdk/client/stdio.js');
const { makeEnv, serverBinary, delay, tmuxServerPid, alive, waitGone, STRUCTURED_CAPS, passThrough, stopPid,
	ServerWatch, assertServerClean, spawnServer } = require('./server.cjs');
const { parseText } = require('./textview.cjs');

/* The time one tool call may take unless a test says otherwise. */
const CALL_MS = 30000;

/* Text content of a tool result, joined. */
function textOf(result) {
	assert.ok(result && Array.isArray(result.content), `content is an array: ${JSON.stringify(result)}`);
	return result.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
}

/* The lines of a text, each without trailing blanks or CR. */
function linesOf(text) {
	return text.split('\n').map((l) => l.replace(/[\r\s]+$/, ''));
}

/* True when some line of text equals s exactly (after trimming the end). */
function hasLine(text, s) {
	return linesOf(text).includes(s);
}

/* How many lines of text equal s. */
function countLine(text, s) {
	return linesOf(text).filter((l) => l === s).length;
}

/*
 * The model reads only the text (ADR 0006): whatever the structured result
 * says that the model needs, the text must say too.  Checked on every
 * successful call of the suites that ask for structuredContent.
 */
function textCarries(name, text, sc, args) {
	const why = `${name}: the text carries what structuredContent says: ${JSON.stringify(sc).slice(0, 600)}\ntext: ${text.slice(-600)}`;
	/*
	 * pty_open's args say whether a command's result follows (issue 34);
	 * an until given, that a silent end may be its match (ADR 0040).
	 */
	const untilGiven = !!args && typeof args.until === 'string';
	const p = parseText(name, text, name === 'pty_open' || untilGiven ? args : undefined);
	if (sc.mode === 'output' && sc.via !== null && p.via === 'silent') {
		/* No status line, until given: exit 0 or until matched (ADR 0040). */
		assert.ok(sc.via === 'until' || (sc.via === 'sentinel' && sc.exit_code === 0), why);
		assert.equal(sc.complete, true, why);
	} else if (sc.mode === 'output' && sc.via !== null) {
		assert.equal(p.via, sc.via, why);
		assert.equal(p.complete, sc.complete, why);
		if (sc.via === 'sentinel' || sc.via === 'exit')
			assert.equal(p.exit_code, sc.exit_code, why);
	}
	/*
	 * A command reducer that left out a few lines says so by its own
	 * counts, without a line_range; omitted still gives the range (ADR
	 * 0010).
	 */
	const fewLeftOut = p.omitted === null && typeof sc.reducer === 'string';
	if ((sc.mode === 'output' || sc.mode === 'line_range' || sc.mode === 'full' || sc.mode === 'lines') && !fewLeftOut)
		assert.deepEqual(p.omitted, sc.omitted, why);
	if (typeof sc.attach === 'string')
		assert.equal(p.attach, sc.attach, why);
	if (name === 'pty_observe')
		assert.equal(p.cursor, sc.cursor, why);
	if (name === 'pty_list') {
		assert.deepEqual(p.sessions.map((x) => x.session_id), sc.sessions.map((x) => x.session_id), why);
		for (const [i, s] of sc.sessions.entries())
			assert.deepEqual(p.sessions[i].env, s.env || {}, why);
	}
}

/* A short JSON of a result for failure messages. */
function show(result) {
	const s = JSON.stringify(result);
	return s.length > 4000 ? s.slice(0, 2000) + ' ... ' + s.slice(-2000) : s;
}

/* One aiterm-mcp process with its SDK client. */
class Conn {
	constructor(rig, client, transport, stderr, watch) {
		this.rig = rig;
		this.client = client;
		this.transport = transport;
		this._stderr = stderr;
		this.watch = watch;
		this.pid = transport.pid;
		this.closed = false;
		this.killed = false;
	}

	stderr() {
		return this._stderr();
	}

	/* tools/call; resolves with the result whatever isError says. */
	call(name, args, ms = CALL_MS) {
		return this.client.callTool({ name, arguments: args || {} }, undefined, { timeout: ms });
	}

	/* tools/call that must succeed; returns { r, text, sc }. */
	async ok(name, args, ms = CALL_MS) {
		const r = await this.call(name, args, ms);
		assert.notEqual(r.isError, true,
			`${name} ${JSON.stringify(args).slice(0, 300)} failed: ${show(r)}\nserver stderr:\n${this.stderr().slice(-2000)}`);
		const text = textOf(r);
		if (r.structuredContent)
			textCarries(name, text, r.structuredContent, args);
		return { r, text, sc: r.structuredContent };
	}

	/* tools/call that must give isError; returns { r, text }. */
	async err(name, args, ms = CALL_MS) {
		const r = await this.call(name, args, ms);
		assert.equal(r.isError, true, `${name} ${JSON.stringify(args).slice(0, 300)} must be isError: ${show(r)}`);
		return { r, text: textOf(r) };
	}

	/* pty_open; the session is closed at cleanup. */
	async open(args = {}, ms = CALL_MS) {
		const res = await this.ok('pty_open', args, ms);
		/* Without structuredContent the text says both (model view). */
		const sc = res.sc || parseText('pty_open', res.text);
		assert.equal(typeof sc.session_id, 'string', show(res.r));
		this.rig.sessions.add(sc.session_id);
		const m = typeof sc.attach === 'string' && sc.attach.match(/-S\s+(\S+)/);
		if (m)
			this.rig.sockets.add(m[1]);
		this.rig.notePid();
		return res;
	}

	/*
	 * The whole log, page by page (a line read returns one page and the
	 * line_range of the rest: ADR 0006).  opts.raw as pty_read.  Returns
	 * { text (the pages joined, without the hint lines), pages, results }.
	 */
	async readLog(id, opts = {}, ms = CALL_MS) {
		const results = [];
		let args = { session_id: id, full: true, raw: opts.raw === true };
		let text = '';
		for (;;) {
			const res = await this.ok('pty_read', args, ms);
			results.push(res);
			const hint = /\n?\[lines \d+-\d+ shown; the rest: pty_read line_range=\[\d+,\d+\]\]$/;
			text += res.text.replace(hint, '\n');
			if (!res.sc.omitted)
				break;
			assert.ok(results.length < 10000, 'the pages end');
			args = { session_id: id, line_range: res.sc.omitted, raw: opts.raw === true };
		}
		return { text, pages: results.length, results };
	}

	/* pty_send with wait; returns { r, text, sc }. */
	run(id, text, opts = {}) {
		const timeout = opts.timeout || 15;
		return this.ok('pty_send', Object.assign({ session_id: id, text, wait: true, timeout }, opts),
			(timeout + 15) * 1000);
	}

	/* A command that must complete with exit code code (default 0). */
	async expectExit(id, text, code = 0, opts = {}) {
		const res = await this.run(id, text, opts);
		assert.equal(res.sc.complete, true, `"${text}" completes: ${show(res.r)}`);
		assert.equal(res.sc.exit_code, code, `"${text}" exit code: ${show(res.r)}`);
		return res;
	}

	/*
	 * Ends the server by closing its stdin (the SDK client's close) and
	 * fails unless it exited with status 0 on that EOF and left no
	 * sanitizer report (AddressSanitizer, LeakSanitizer, UBSan) on stderr.
	 * A server the test killed (kill()) only has its stderr checked.
	 */
	async close() {
		if (this.closed)
			return;
		this.closed = true;
		const before = this.watch.signals.length;
		await this.client.close().catch(() => {});
		const harness = this.watch.signals.slice(before);
		if (this.pid && alive(this.pid)) {
			harness.push('SIGKILL');
			try { process.kill(this.pid, 'SIGKILL'); } catch { /* gone */ }
			await waitGone(this.pid, 2000);
		}
		await this.watch.done(3000);
		assertServerClean(this.watch.exit, this.stderr(), {
			killed: this.killed, harnessSignals: harness, what: `aiterm-mcp pid ${this.pid}`,
		});
	}

	/* Kills the server process (SIGKILL by default) and waits until it is gone. */
	async kill(signal = 'SIGKILL') {
		this.killed = this.killed || signal === 'SIGKILL';
		process.kill(this.pid, signal);
		assert.ok(await waitGone(this.pid, 5000), `server ${this.pid} still alive after ${signal}`);
		this.closed = true;
		await this.client.close().catch(() => {});
		await this.watch.done(3000);
		assertServerClean(this.watch.exit, this.stderr(), {
			killed: this.killed, what: `aiterm-mcp pid ${this.pid} (${signal})`,
		});
	}
}

/* One state root with its servers; cleaned up after the test. */
class Rig {
	constructor(t, extra) {
		const { dirs, env } = makeEnv(null, Object.assign(passThrough(), extra || {}));
		this.dirs = dirs;
		this.env = env;
		this.conns = [];
		this.sessions = new Set();
		this.sockets = new Set([path.join(dirs.state, 'tmux.sock')]);
		this.tmuxPids = new Set();
		this.cleanups = [];
		if (t)
			t.after(() => this.cleanup());
	}

	/*
	 * Starts one more server on this state root.  opts.structured false:
	 * connect as the real AI clients do, without asking for
	 * structuredContent (the model's view); opts.args: server arguments;
	 * opts.command: another aiterm-mcp than the one under test;
	 * opts.clientName: the clientInfo name (the parent the server sees);
	 * opts.env: variables this server has on top of the rig's (undefined:
	 * removed); opts.capabilities: more client capabilities (elicitation);
	 * opts.setup(client): called before connecting (request handlers).
	 */
	async server(opts = {}) {
		const env = Object.assign({}, this.env, opts.env || {});
		for (const k of Object.keys(env))
			if (env[k] === undefined)
				delete env[k];
		const transport = new StdioClientTransport({
			command: opts.command || serverBinary(),
			args: opts.args || [],
			env,
			cwd: this.dirs.home,
			stderr: 'pipe',
		});
		let stderr = '';
		transport.stderr.setEncoding('utf8');
		transport.stderr.on('data', (s) => { stderr += s; });
		const client = new Client({ name: opts.clientName || 'aiterm-pty-test', version: '0.0.0' }, {
			capabilities: Object.assign({}, opts.structured === false ? {} : STRUCTURED_CAPS, opts.capabilities || {}),
		});
		/* Handlers of requests and notifications from the server (elicitation). */
		if (opts.setup)
			opts.setup(client);
		try {
			await client.connect(transport);
		} catch (err) {
			err.message += `\nserver stderr:\n${stderr}`;
			throw err;
		}
		/* The SDK keeps the child in _process (pinned SDK version, tests/mcp/package-lock.json). */
		assert.ok(transport._process, 'the SDK transport exposes its child process');
		const watch = new ServerWatch(transport._process, transport.stderr);
		const conn = new Conn(this, client, transport, () => stderr, watch);
		this.conns.push(conn);
		/* Lets the SDK validate structuredContent against each outputSchema. */
		await client.listTools();
		return conn;
	}

	/* Remembers the PID of the private tmux server while it is reachable. */
	notePid() {
		for (const s of this.sockets) {
			const pid = tmuxServerPid(s);
			if (pid)
				this.tmuxPids.add(pid);
		}
	}

	/* The PID of this rig's tmux server now (null when none answers). */
	tmuxPid() {
		for (const s of this.sockets) {
			const pid = tmuxServerPid(s);
			if (pid)
				return pid;
		}
		return null;
	}

	async cleanup() {
		const live = this.conns.filter((c) => !c.closed);
		if (live.length > 0) {
			for (const id of this.sessions)
				await live[0].call('pty_close', { session_id: id }, 5000).catch(() => {});
		}
		/* Every server is ended and checked; the first failure is thrown once the rest is cleaned up. */
		const failures = [];
		for (const c of this.conns)
			await c.close().catch((err) => failures.push(err));
		for (const f of this.cleanups.splice(0))
			await f();
		/* The tmux server: the PID it reports now, or one seen earlier if it still serves our socket. */
		const pids = new Set();
		const now = this.tmuxPid();
		if (now)
			pids.add(now);
		for (const pid of this.tmuxPids) {
			let cmd = '';
			try { cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'); } catch { /* gone */ }
			if ([...this.sockets].some((s) => cmd.includes(s)) || (cmd.includes('tmux') && cmd.includes(this.dirs.root)))
				pids.add(pid);
		}
		for (const pid of pids) {
			await stopPid(pid);
		}
		fs.rmSync(this.dirs.root, { recursive: true, force: true });
		if (failures.length > 0)
			throw failures[0];
	}
}

/* The first integer in a string matching re's first group. */
function num(re, s) {
	const m = s.match(re);
	return m ? Number(m[1]) : null;
}

/* Polls f (async, returns a truthy value when done) until ms have passed. */
async function until(f, ms, what) {
	const deadline = Date.now() + ms;
	let last;
	for (;;) {
		last = await f();
		if (last)
			return last;
		if (Date.now() > deadline)
			throw new Error(`timed out after ${ms} ms waiting for ${what}`);
		await delay(100);
	}
}

/*
 * A raw-wire server (server.cjs spawnServer) that may open sessions: its
 * private tmux server is ended, by PID, after the test.  For tests that
 * must write bytes the SDK would not (80.0, invalid UTF-8).
 */
function spawnWithTmux(t, opts = {}) {
	let state = null;
	/* Registered first so that it runs before the state root is removed. */
	t.after(async () => {
		const pid = state && tmuxServerPid(path.join(state, 'tmux.sock'));
		if (pid) {
			process.kill(pid, 'SIGTERM');
			await waitGone(pid, 3000);
		}
	});
	const srv = spawnServer(t, Object.assign({}, opts, { env: Object.assign(passThrough(), opts.env || {}) }));
	state = srv.dirs.state;
	return srv;
}

module.exports = {
	CALL_MS, Rig, Conn, textOf, linesOf, hasLine, countLine, show, num, until,
	tmuxServerPid, alive, waitGone, delay, passThrough, spawnWithTmux,
};
