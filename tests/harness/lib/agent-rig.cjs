'use strict';
/*
 * One aiterm-mcp on a private state root, HOME and tmux socket, with the
 * real agent CLIs on its PATH (the pinned npm packages of tests/clients)
 * and a mock model on 127.0.0.1 that their panes reach (the pane inherits
 * the server's environment).  The MCP client is the raw-wire one of
 * tests/mcp (built-ins only); calls give the text the model reads and
 * the structured result, asked for with the capability.  Cleanup closes
 * the sessions and ends the private tmux server by its PID.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { makeEnv, passThrough, serverBinary, RawServer, tmuxServerPid, stopPid, STRUCTURED_CAPS, RESULT_SCHEMA_RE } =
	require('../../mcp/lib/server.cjs');
const { claudeBinary } = require('../../clients/lib/claude.cjs');

const API_KEY = 'sk-ant-api03-mock-key-for-the-aiterm-harness-00000000000000AA';

/* The npm launcher of Codex (node starts the native binary). */
function codexLauncher() {
	return require.resolve('@openai/codex/bin/codex.js');
}

/* The environment's value of key in /proc/<pid>/environ, or null. */
function environOf(pid, key) {
	try {
		for (const kv of fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0'))
			if (kv.startsWith(key + '='))
				return kv.slice(key.length + 1);
	} catch { /* gone or not ours */ }
	return null;
}

/*
 * CODEX_HOME/config.toml of a user: the mock provider, no network at
 * start-up, the project trusted unless parts.trusted is false; more raw
 * lines in parts.top (before the tables).
 */
function seedCodex(codexHome, cwd, baseUrl, parts = {}) {
	const q = (x) => JSON.stringify(String(x));
	const L = ['model = "mock-model"', 'model_provider = "mock"', 'check_for_update_on_startup = false',
		...(parts.top || []),
		'', '[analytics]', 'enabled = false', '', '[feedback]', 'enabled = false', '',
		'[features]', 'plugins = false', 'remote_plugin = false', 'apps = false', '',
		'[model_providers.mock]', 'name = "mock"', `base_url = ${q(baseUrl)}`, 'env_key = "MOCK_API_KEY"',
		'wire_api = "responses"', 'request_max_retries = 0', 'stream_max_retries = 0'];
	if (parts.trusted !== false)
		L.push('', `[projects.${q(cwd)}]`, 'trust_level = "trusted"');
	fs.writeFileSync(path.join(codexHome, 'config.toml'), L.join('\n') + '\n');
}

/* ~/.claude.json of a user; parts default to a finished onboarding in a trusted project. */
function seedClaude(home, cwd, parts = {}) {
	const p = Object.assign({ onboarded: true, approveKey: true, trust: true }, parts);
	const cfg = { theme: 'dark' };
	if (p.onboarded)
		cfg.hasCompletedOnboarding = true;
	if (p.approveKey)
		cfg.customApiKeyResponses = { approved: [API_KEY.slice(-20)], rejected: [] };
	cfg.projects = { [cwd]: { hasTrustDialogAccepted: !!p.trust } };
	/* 2.1.332 offers auto mode once to a user in manual mode, at start. */
	if (!p.autoModeOffer)
		cfg.hasSeenAutoDefaultNudge = true;
	fs.writeFileSync(path.join(home, '.claude.json'), JSON.stringify(cfg, null, 2));
	/*
	 * permissionMode: the user's permissions.defaultMode (2.1.332 starts in
	 * "auto", which runs a plain Bash command without asking; "default"
	 * asks).  autoModeOffer: the user has not yet been offered auto mode.
	 */
	if (p.permissionMode) {
		fs.mkdirSync(path.join(home, '.claude'), { recursive: true });
		fs.writeFileSync(path.join(home, '.claude', 'settings.json'),
			JSON.stringify({ permissions: { defaultMode: p.permissionMode } }, null, 2));
	}
}

/* Every process below pid (by the parent PIDs of /proc). */
function descendants(pid) {
	const parent = new Map();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name))
			continue;
		try {
			const st = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			parent.set(Number(name), Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]));
		} catch { /* gone */ }
	}
	const out = [];
	const walk = (p) => {
		for (const [c, pp] of parent)
			if (pp === p) {
				out.push(c);
				walk(c);
			}
	};
	walk(pid);
	return out;
}

class AgentRig {
	constructor(t, opts = {}) {
		const { dirs, env } = makeEnv(null, passThrough());
		this.dirs = dirs;
		this.env = env;
		dirs.work = path.join(dirs.root, 'work');
		dirs.bin = path.join(dirs.root, 'bin');
		fs.mkdirSync(dirs.work, { mode: 0o700 });
		fs.mkdirSync(dirs.bin, { mode: 0o700 });
		fs.symlinkSync(claudeBinary(), path.join(dirs.bin, 'claude'));
		fs.symlinkSync(codexLauncher(), path.join(dirs.bin, 'codex'));
		dirs.codex = path.join(dirs.root, 'codex-home');
		fs.mkdirSync(dirs.codex, { mode: 0o700 });
		env.PATH = `${dirs.bin}:${env.PATH || '/usr/bin:/bin'}`;
		Object.assign(env, {
			ANTHROPIC_API_KEY: API_KEY,
			DISABLE_AUTOUPDATER: '1',
			DISABLE_TELEMETRY: '1',
			DISABLE_ERROR_REPORTING: '1',
			CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
			NO_PROXY: '127.0.0.1,localhost',
			TERM: 'xterm-256color',
			CODEX_HOME: dirs.codex,
			MOCK_API_KEY: 'mock-key-for-the-aiterm-harness',
			RUST_LOG: 'error',
		}, opts.env || {});
		this.servers = [];
		this.nextId = 1;
		/* opts.caps: the client's capabilities ({}: a client like Claude Code or Codex). */
		this.caps = opts.caps || STRUCTURED_CAPS;
		if (t)
			t.after(() => this.cleanup());
	}

	/* Starts (another) server on this state root and initializes it. */
	async server(mockUrl) {
		if (mockUrl)
			this.env.ANTHROPIC_BASE_URL = mockUrl;
		return this.start();
	}

	async start() {
		const child = spawn(serverBinary(), [], { env: this.env, cwd: this.dirs.home, stdio: ['pipe', 'pipe', 'pipe'] });
		const srv = new RawServer(child, this.dirs, this.env);
		this.servers.push(srv);
		/* this.clientInfo: the parent the server sees (default the wire test's). */
		await srv.initialize('2025-11-25', 'init', this.caps, this.clientInfo);
		this.srv = srv;
		return srv;
	}

	/* Every call's text into the test's diagnostics (what the model read). */
	show(t) {
		const call = this.call.bind(this);
		this.call = async (name, args, ms) => {
			const t0 = Date.now();
			const r = await call(name, args, ms);
			t.diagnostic(`${name} ${JSON.stringify(args).slice(0, 120)} -> ${Date.now() - t0} ms: ${JSON.stringify(r.text)}`);
			return r;
		};
	}

	/* tools/call on the current server: { text, sc, isError, result }. */
	async call(name, args, ms = 60000) {
		const res = await this.srv.request('tools/call', { name, arguments: args }, `c${this.nextId++}`, ms);
		const r = res.result || {};
		const text = (r.content || []).map((c) => c.text).join('\n');
		return { text, sc: r.structuredContent, isError: r.isError === true, result: r, error: res.error };
	}

	/*
	 * The processes of session id now: its pane's first process (meta.json
	 * records it), what descends from it, and whatever carries the pane's
	 * AITERM_SESSION_ID and AITERM_STATE_DIR (a daemon that left it).
	 */
	sessionPids(id) {
		const out = new Set();
		let pane = null;
		try {
			pane = JSON.parse(fs.readFileSync(path.join(this.dirs.state, 'sessions', id, 'meta.json'), 'utf8')).pane;
		} catch { /* closed */ }
		if (pane && fs.existsSync(`/proc/${pane.pid}`)) {
			out.add(pane.pid);
			for (const d of descendants(pane.pid))
				out.add(d);
		}
		for (const name of fs.readdirSync('/proc'))
			if (/^\d+$/.test(name) && environOf(Number(name), 'AITERM_SESSION_ID') === id &&
			    environOf(Number(name), 'AITERM_STATE_DIR') === this.dirs.state)
				out.add(Number(name));
		return [...out];
	}

	/*
	 * PTY-CLOSE on an agent session (issue 37): the close ends every process
	 * of it, whatever ignores the hangup; polled for 3 s.  Returns the
	 * close's result and the pids that were running before it.
	 */
	async closeEndsAll(assert, id) {
		const before = this.sessionPids(id);
		assert.ok(before.length > 0, `session ${id} has processes before the close`);
		const cl = await this.call('pty_close', { session_id: id });
		assert.equal(cl.isError, false, cl.text);
		const deadline = Date.now() + 3000;
		let left = before.filter((p) => fs.existsSync(`/proc/${p}`));
		while ((left.length > 0 || this.sessionPids(id).length > 0) && Date.now() < deadline) {
			await new Promise((r) => setTimeout(r, 50));
			left = before.filter((p) => fs.existsSync(`/proc/${p}`));
		}
		const info = (p) => { try { return fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' '); } catch { return '(gone)'; } };
		assert.deepEqual(left.map((p) => `${p} ${info(p)}`), [], `nothing of ${id} is left: ${cl.text}`);
		assert.deepEqual(this.sessionPids(id), [], `nothing carries ${id}'s marks: ${cl.text}`);
		return { cl, before };
	}

	/*
	 * PTY-CLOSE after one turn (issue 37): launch(prompt) starts the agent
	 * and gives its session id; the turn is read to its answer, then the
	 * close must end every process of the session (closeEndsAll).
	 */
	async closeAfterTurn(t, assert, mock, launch) {
		mock.push({ type: 'text', text: 'Answer before the close.' });
		const id = await launch('Question');
		const a = await this.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
		assert.match(a.text, /^Answer before the close\./, a.text);
		const { cl } = await this.closeEndsAll(assert, id);
		assert.match(cl.text, new RegExp(`^closed ${id}`), cl.text);
		t.diagnostic(`close: ${cl.text}`);
	}

	async cleanup() {
		const sock = path.join(this.dirs.state, 'tmux.sock');
		const pid = tmuxServerPid(sock);
		const agents = pid ? descendants(pid) : [];
		for (const s of this.servers)
			await s.dispose().catch(() => {});
		if (pid)
			await stopPid(pid);
		/* A server that did not exit cleanly (a sanitizer report, a crash) fails the test. */
		const bad = this.servers.filter((s) => s.exit && s.exit.code !== 0 && !s.killedByTest);
		/* The agent CLIs got SIGHUP with their panes; they still write on exit. */
		for (const a of agents)
			await stopPid(a, 3000);
		/* Codex's app-server daemons leave the pane (reparented to init). */
		for (const name of fs.readdirSync('/proc'))
			if (/^\d+$/.test(name) && environOf(Number(name), 'CODEX_HOME') === this.dirs.codex)
				await stopPid(Number(name), 3000);
		fs.rmSync(this.dirs.root, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
		if (bad.length > 0)
			throw new Error(`aiterm-mcp exited with ${JSON.stringify(bad.map((s) => s.exit))}: ` +
				bad.map((s) => s.stderr.slice(-4000)).join('\n---\n'));
		/* Every structured result matched its tool's outputSchema (issue 32; the server says when not). */
		const mismatch = this.servers.map((s) => RESULT_SCHEMA_RE.exec(s.stderr)).find(Boolean);
		if (mismatch)
			throw new Error(`a result that does not match its outputSchema: ${mismatch[0].slice(0, 4000)}`);
	}
}

module.exports = { AgentRig, seedClaude, seedCodex, claudeBinary, API_KEY };
