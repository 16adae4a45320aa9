'use strict';
/*
 * Driving one interactive CLI in a private tmux server: private tree
 * (HOME, XDG dirs, TMPDIR, work directory, tmux socket), start, keys,
 * screen captures (plain and with escapes), waiting for screen text, the
 * process tree of the pane, cleanup by PID.
 *
 * The tree is /tmp/a-XXXXXX with the work directory /tmp/a-XXXXXX/proj,
 * whose length (18) equals that of the path fixtures use in its place,
 * /home/user/project, so sanitized screens keep their box borders.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const CLAUDE_BIN = process.env.CLAUDE_BIN || path.resolve(__dirname, '../../../build/tests/clients/node_modules/@anthropic-ai/claude-code-linux-x64/claude');
const API_KEY = 'sk-ant-api03-mock-key-for-the-aiterm-harness-00000000000000AA';
/* Where recordings go: $CLAUDE_FIXTURES, else the 2.1.197 folder. */
const FIX = process.env.CLAUDE_FIXTURES || path.resolve(__dirname, '../fixtures/claude-code-2.1.197');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function makeRun() {
	const root = fs.realpathSync(fs.mkdtempSync('/tmp/a-'));
	const d = (n) => { const p = path.join(root, n); fs.mkdirSync(p, { recursive: true, mode: 0o700 }); return p; };
	const dirs = {
		root, work: d('proj'), home: d('home'), tmp: d('tmp'),
		xdgConfig: d('xdg/config'), xdgState: d('xdg/state'), xdgData: d('xdg/data'), xdgCache: d('xdg/cache'), xdgRuntime: d('xdg/runtime'),
		sock: path.join(root, 'sock'),
	};
	const env = {
		PATH: '/usr/local/bin:/usr/bin:/bin',
		HOME: dirs.home, USER: 'root', LOGNAME: 'root', SHELL: '/bin/bash',
		LANG: 'C.UTF-8', LC_ALL: 'C.UTF-8', TERM: 'xterm-256color',
		TMPDIR: dirs.tmp,
		XDG_CONFIG_HOME: dirs.xdgConfig, XDG_STATE_HOME: dirs.xdgState, XDG_DATA_HOME: dirs.xdgData,
		XDG_CACHE_HOME: dirs.xdgCache, XDG_RUNTIME_DIR: dirs.xdgRuntime,
		NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
	};
	return new Run(dirs, env);
}

/* The env of a usable offline Claude Code against the mock. */
function claudeEnv(mockUrl, extra) {
	return Object.assign({
		ANTHROPIC_BASE_URL: mockUrl,
		ANTHROPIC_API_KEY: API_KEY,
		DISABLE_AUTOUPDATER: '1',
		DISABLE_TELEMETRY: '1',
		DISABLE_ERROR_REPORTING: '1',
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
	}, extra || {});
}

class Run {
	constructor(dirs, env) {
		this.dirs = dirs;
		this.env = env;
		this.log = [];
		this.t0 = Date.now();
	}

	mark(what, extra) {
		const e = Object.assign({ t: Date.now() - this.t0, what }, extra || {});
		this.log.push(e);
		return e;
	}

	/* ~/.claude.json; parts: onboarded, theme, approveKey, trust (default all true). */
	writeClaudeJson(parts = {}) {
		const p = Object.assign({ onboarded: true, theme: true, approveKey: true, trust: true }, parts);
		const cfg = {};
		if (p.onboarded) cfg.hasCompletedOnboarding = true;
		if (p.theme) cfg.theme = 'dark';
		if (p.approveKey) cfg.customApiKeyResponses = { approved: [API_KEY.slice(-20)], rejected: [] };
		if (p.trust) cfg.projects = { [this.dirs.work]: { hasTrustDialogAccepted: true } };
		Object.assign(cfg, p.extra || {});
		fs.writeFileSync(path.join(this.dirs.home, '.claude.json'), JSON.stringify(cfg, null, 2));
		return cfg;
	}

	writeSettings(obj) {
		const d = path.join(this.dirs.home, '.claude');
		fs.mkdirSync(d, { recursive: true });
		fs.writeFileSync(path.join(d, 'settings.json'), typeof obj === 'string' ? obj : JSON.stringify(obj, null, 2));
	}

	tmux(...args) {
		return execFileSync('tmux', ['-S', this.dirs.sock, ...args], { env: this.env, encoding: 'utf8' });
	}

	/* Starts the server with one 120x40 session running argv (through env so the pane env is exact). */
	start(argv, extraEnv, opts = {}) {
		const conf = path.join(this.dirs.root, 'tmux.conf');
		fs.writeFileSync(conf, 'set -g remain-on-exit on\nset -g history-limit 10000\nset -g status off\n');
		this.paneEnv = Object.assign({}, this.env, extraEnv || {});
		const cmd = opts.raw ? argv : ['env', '-i', ...Object.entries(this.paneEnv).map(([k, v]) => `${k}=${v}`), ...argv];
		execFileSync('tmux', ['-S', this.dirs.sock, '-f', conf, 'new-session', '-d', '-x', String(opts.x || 120), '-y', String(opts.y || 40),
			'-s', 'c', '-c', this.dirs.work, ...cmd], { env: this.paneEnv });
		this.spawnT = Date.now();
		this.serverPid = Number(this.tmux('display', '-p', '-t', 'c', '#{pid}').trim());
		this.panePid = Number(this.tmux('display', '-p', '-t', 'c', '#{pane_pid}').trim());
		this.mark('spawn', { panePid: this.panePid });
	}

	capture(esc) {
		const a = ['capture-pane', '-p', '-t', 'c'];
		if (esc) a.push('-e');
		return this.tmux(...a);
	}

	paneInfo() {
		return this.tmux('display', '-p', '-t', 'c', '#{pane_dead} #{pane_dead_status} #{pane_pid} #{cursor_x},#{cursor_y}').trim();
	}

	sanitize(s) {
		const { work, home, root } = this.dirs;
		const dash = (p) => p.replace(/[^a-zA-Z0-9]/g, '-');
		return s.split(work).join('/home/user/project')
			.split(dash(work)).join('-home-user-project')
			.split(home).join('/home/user')
			.split(dash(home)).join('-home-user')
			.split(root).join('/tmp/run')
			.split(this.env.ANTHROPIC_BASE_URL || '\u0000').join('http://127.0.0.1:PORT');
	}

	/* Saves screens/<name>.txt and .ansi; returns the plain text. */
	save(name) {
		const plain = this.capture(false);
		const ansi = this.capture(true);
		const dir = path.join(FIX, 'screens');
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, `${name}.txt`), this.sanitize(plain));
		fs.writeFileSync(path.join(dir, `${name}.ansi`), this.sanitize(ansi));
		this.mark('save', { name });
		return plain;
	}

	/* Polls the screen until test(text) is true; returns ms since start of wait, or throws. */
	async waitFor(test, timeoutMs = 15000, label = '') {
		const f = typeof test === 'function' ? test : (s) => (test instanceof RegExp ? test.test(s) : s.includes(test));
		const t = Date.now();
		let s = '';
		while (Date.now() - t < timeoutMs) {
			s = this.capture(false);
			if (f(s)) {
				this.mark('seen', { label: label || String(test), ms: Date.now() - t });
				return Date.now();
			}
			await sleep(50);
		}
		const err = new Error(`timeout waiting for ${label || test}; screen:\n${s}`);
		err.screen = s;
		throw err;
	}

	keys(...k) { this.tmux('send-keys', '-t', 'c', ...k); this.mark('keys', { k }); }
	literal(text) { this.tmux('send-keys', '-t', 'c', '-l', text); this.mark('literal', { text }); }
	paste(text) {
		this.tmux('set-buffer', '-b', 'p', text);
		this.tmux('paste-buffer', '-p', '-d', '-b', 'p', '-t', 'c');
		this.mark('paste', { text });
	}

	/* Descendants of the pane pid: [{pid, ppid, comm, args}]. */
	procTree() {
		const out = execFileSync('ps', ['-eo', 'pid=,ppid=,comm=,args='], { encoding: 'utf8' });
		const rows = out.split('\n').filter(Boolean).map((l) => {
			const m = l.trim().match(/^(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/);
			return m && { pid: +m[1], ppid: +m[2], comm: m[3], args: m[4] };
		}).filter(Boolean);
		const keep = new Set([this.panePid]);
		let grew = true;
		while (grew) {
			grew = false;
			for (const r of rows)
				if (!keep.has(r.pid) && keep.has(r.ppid)) { keep.add(r.pid); grew = true; }
		}
		return rows.filter((r) => keep.has(r.pid)).map((r) => Object.assign(r, { args: this.sanitize(r.args).slice(0, 200) }));
	}

	projectDir() {
		return path.join(this.dirs.home, '.claude', 'projects', this.dirs.work.replace(/[^a-zA-Z0-9]/g, '-'));
	}

	transcripts() {
		try {
			return fs.readdirSync(this.projectDir()).filter((f) => f.endsWith('.jsonl')).map((f) => path.join(this.projectDir(), f));
		} catch { return []; }
	}

	saveTranscript(name, file) {
		file = file || this.transcripts()[0];
		const dir = path.join(FIX, 'transcripts');
		fs.mkdirSync(dir, { recursive: true });
		fs.writeFileSync(path.join(dir, `${name}.jsonl`), this.sanitize(fs.readFileSync(file, 'utf8')));
		return file;
	}

	async cleanup(keep) {
		const pids = [];
		if (this.serverPid) pids.push(this.serverPid);
		for (const p of pids) {
			try { process.kill(p, 'SIGTERM'); } catch { /* gone */ }
		}
		await sleep(300);
		/* Anything left from the pane (claude and its children), by PID. */
		for (const r of this._lastTree || []) {
			try { process.kill(r.pid, 'SIGKILL'); } catch { /* gone */ }
		}
		for (const p of pids) {
			try { process.kill(p, 'SIGKILL'); } catch { /* gone */ }
		}
		if (!keep)
			fs.rmSync(this.dirs.root, { recursive: true, force: true });
	}

	rememberTree() { this._lastTree = this.procTree(); return this._lastTree; }
}

module.exports = { makeRun, claudeEnv, CLAUDE_BIN, API_KEY, FIX, sleep };

/* A Run for an existing tree (exploration: hold.cjs + h.sh). */
function attachRun(root, mockUrl) {
	const r = makeRunDirs(root);
	r.env.ANTHROPIC_BASE_URL = mockUrl;
	return r;
}
function makeRunDirs(root) {
	const j = (n) => path.join(root, n);
	const dirs = { root, work: j('proj'), home: j('home'), tmp: j('tmp'), sock: j('sock') };
	return new Run(dirs, { ANTHROPIC_BASE_URL: '' });
}
module.exports.attachRun = attachRun;
