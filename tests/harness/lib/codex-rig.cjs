'use strict';
/*
 * A rig for the interactive Codex CLI (TUI) in a private tmux server: one
 * temp tree per run (HOME, CODEX_HOME, work dir, tmux socket), config.toml
 * for the mock provider, send-keys / capture-pane helpers, the process
 * tree of the pane, and cleanup that kills only the processes this run
 * started (the tmux server by the PID it reports, Codex processes by the
 * CODEX_HOME in their environment, which includes the background
 * `codex app-server --managed-daemon`).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { shq } = require('../../mcp/lib/server.cjs');

const CLIENTS = path.resolve(__dirname, '../../../build/tests/clients/node_modules/@openai');
const SHIM = path.join(CLIENTS, 'codex/bin/codex.js');
const NATIVE = path.join(CLIENTS, 'codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex');

function delay(ms) {
	return new Promise((r) => setTimeout(r, ms));
}

function q(s) {
	return JSON.stringify(String(s));
}

function makeRun(name) {
	const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), `aiterm-codex-${name}-`)));
	const d = (n) => { const p = path.join(root, n); fs.mkdirSync(p, { recursive: true, mode: 0o700 }); return p; };
	const run = {
		name, root,
		home: d('home'), codexHome: d('codex-home'), work: d('project'), tmp: d('tmp'),
		sock: path.join(root, 'sock'),
		t0: Date.now(),
	};
	run.env = {
		PATH: `${path.dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
		HOME: run.home,
		CODEX_HOME: run.codexHome,
		TMPDIR: run.tmp,
		LANG: 'C.UTF-8',
		LC_ALL: 'C.UTF-8',
		SHELL: '/bin/bash',
		USER: os.userInfo().username,
		TERM: 'xterm-256color',
		MOCK_API_KEY: 'mock-key-for-aiterm-harness',
		NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
		RUST_LOG: 'error',
	};
	return run;
}

/*
 * config.toml.  opts: baseUrl (null: no provider at all), trusted (true),
 * approvalPolicy, sandbox, extra (raw lines), retries (0).
 */
function configToml(run, opts = {}) {
	const L = [];
	if (opts.baseUrl) {
		L.push('model = "mock-model"', 'model_provider = "mock"');
	}
	if (opts.approvalPolicy)
		L.push(`approval_policy = ${q(opts.approvalPolicy)}`);
	if (opts.sandbox)
		L.push(`sandbox_mode = ${q(opts.sandbox)}`);
	L.push('check_for_update_on_startup = false');
	for (const l of opts.top || [])
		L.push(l);
	L.push('', '[analytics]', 'enabled = false', '', '[feedback]', 'enabled = false', '',
		'[features]', 'plugins = false', 'remote_plugin = false', 'apps = false');
	if (opts.baseUrl) {
		L.push('', '[model_providers.mock]', 'name = "mock"', `base_url = ${q(opts.baseUrl)}`,
			'env_key = "MOCK_API_KEY"', 'wire_api = "responses"',
			`request_max_retries = ${opts.retries || 0}`, `stream_max_retries = ${opts.retries || 0}`);
	}
	if (opts.trusted !== false)
		L.push('', `[projects.${q(run.work)}]`, 'trust_level = "trusted"');
	for (const l of opts.extra || [])
		L.push(l);
	const text = L.join('\n') + '\n';
	fs.writeFileSync(path.join(run.codexHome, 'config.toml'), text);
	run.config = text;
	return text;
}

function tmux(run, ...args) {
	return execFileSync('tmux', ['-S', run.sock, ...args], { env: run.env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/* Starts codex (args) in a 120x40 pane; the pane stays after exit. */
function start(run, args = [], opts = {}) {
	const bin = opts.native ? shq(NATIVE) : `${shq(process.execPath)} ${shq(SHIM)}`;
	const cmd = opts.command || `${bin} ${args.map(shq).join(' ')}`;
	/* remain-on-exit from the start: a CLI that exits at once stays readable. */
	const conf = path.join(run.root, 'tmux.conf');
	fs.writeFileSync(conf, 'set -g remain-on-exit on\nset -g history-limit 5000\n');
	tmux(run, '-f', conf, 'new-session', '-d', '-s', 'main', '-x', '120', '-y', '40', '-c', run.work, cmd);
	run.spawnAt = Date.now();
	run.panePid = Number(tmux(run, 'display-message', '-p', '-t', 'main', '#{pane_pid}').trim());
	run.serverPid = Number(tmux(run, 'display-message', '-p', '#{pid}').trim());
	return run;
}

function capture(run, escapes = false) {
	return tmux(run, 'capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', 'main');
}

function paneInfo(run) {
	const s = tmux(run, 'display-message', '-p', '-t', 'main', '#{pane_dead} #{pane_dead_status} #{pane_pid} #{cursor_x} #{cursor_y}').trim().split(' ');
	return { dead: s[0] === '1', status: s[1] === '' ? null : Number(s[1]), pid: Number(s[2]), cursorX: Number(s[3]), cursorY: Number(s[4]) };
}

function keys(run, ...k) {
	tmux(run, 'send-keys', '-t', 'main', ...k);
}

function literal(run, text) {
	tmux(run, 'send-keys', '-t', 'main', '-l', text);
}

/* Bracketed paste of text (tmux paste-buffer -p). */
function paste(run, text) {
	const f = path.join(run.tmp, 'paste.txt');
	fs.writeFileSync(f, text);
	tmux(run, 'load-buffer', '-b', 'p', f);
	tmux(run, 'paste-buffer', '-p', '-d', '-b', 'p', '-t', 'main');
}

/* Polls the pane until pred(text) holds; returns {ok, text, ms}. */
async function waitScreen(run, pred, timeoutMs = 30000, stepMs = 50) {
	const t0 = Date.now();
	let text = '';
	while (Date.now() - t0 < timeoutMs) {
		try { text = capture(run); } catch { text = ''; }
		if (typeof pred === 'string' ? text.includes(pred) : pred(text))
			return { ok: true, text, ms: Date.now() - t0, at: Date.now() };
		await delay(stepMs);
	}
	return { ok: false, text, ms: Date.now() - t0, at: Date.now() };
}

async function waitFor(fn, timeoutMs = 30000, stepMs = 50) {
	const t0 = Date.now();
	while (Date.now() - t0 < timeoutMs) {
		const v = fn();
		if (v)
			return v;
		await delay(stepMs);
	}
	return null;
}

/* Saves <dir>/screens/<name>.txt and .ansi. */
function saveScreen(run, dir, name) {
	fs.mkdirSync(path.join(dir, 'screens'), { recursive: true });
	const plain = capture(run);
	const ansi = capture(run, true);
	fs.writeFileSync(path.join(dir, 'screens', `${name}.txt`), scrub(run, plain));
	fs.writeFileSync(path.join(dir, 'screens', `${name}.ansi`), scrub(run, ansi));
	return plain;
}

/* Replaces the run's temp paths by stable ones. */
function scrub(run, s) {
	return String(s)
		.split(run.work).join('/home/user/project')
		.split(run.codexHome).join('/home/user/.codex')
		.split(run.home).join('/home/user')
		.split(run.tmp).join('/tmp')
		.split(run.root).join('/tmp/run')
		.replace(/127\.0\.0\.1:\d{2,5}/g, '127.0.0.1:PORT');
}

function readProc(pid, what) {
	try { return fs.readFileSync(`/proc/${pid}/${what}`, 'utf8'); } catch { return null; }
}

function procInfo(pid) {
	const stat = readProc(pid, 'stat');
	if (!stat)
		return null;
	const after = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	const cmd = (readProc(pid, 'cmdline') || '').split('\0').filter(Boolean);
	let exe = null;
	try { exe = fs.readlinkSync(`/proc/${pid}/exe`); } catch { /* gone */ }
	return { pid: Number(pid), ppid: Number(after[1]), pgid: Number(after[2]), sid: Number(after[3]), cmd, exe };
}

function allProcs() {
	return fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).map(procInfo).filter(Boolean);
}

function environ(pid) {
	const e = readProc(pid, 'environ');
	if (!e)
		return null;
	const out = {};
	for (const kv of e.split('\0').filter(Boolean)) {
		const i = kv.indexOf('=');
		out[kv.slice(0, i)] = kv.slice(i + 1);
	}
	return out;
}

/* Processes whose environment names this run's CODEX_HOME. */
function codexProcs(run) {
	return allProcs().filter((p) => {
		const e = environ(p.pid);
		return e && e.CODEX_HOME === run.codexHome;
	});
}

/* The pane's process tree plus the run's other Codex processes. */
function processTree(run) {
	const procs = allProcs();
	const kids = new Map();
	for (const p of procs) {
		if (!kids.has(p.ppid))
			kids.set(p.ppid, []);
		kids.get(p.ppid).push(p);
	}
	const tree = [];
	const walk = (pid, depth) => {
		for (const c of kids.get(pid) || []) {
			tree.push(Object.assign({ depth }, c));
			walk(c.pid, depth + 1);
		}
	};
	const pane = procs.find((p) => p.pid === run.panePid);
	if (pane) {
		tree.push(Object.assign({ depth: 0 }, pane));
		walk(pane.pid, 1);
	}
	/* Codex processes outside the pane's tree (e.g. the daemon after the
	 * TUI quit, reparented to init); the tmux server itself is left out. */
	const inTree = new Set(tree.map((p) => p.pid));
	for (const o of codexProcs(run)) {
		if (inTree.has(o.pid) || o.pid === run.serverPid)
			continue;
		tree.push(Object.assign({ depth: 0, outsidePane: true }, o));
		inTree.add(o.pid);
	}
	return tree.map((p) => {
		const e = environ(p.pid) || {};
		const keep = {};
		for (const k of Object.keys(e).sort())
			if (/^(CODEX|MOCK|HOME$|TERM|TMUX|COLORTERM|RUST_LOG|PATH$)/.test(k))
				keep[k] = e[k];
		return Object.assign({}, p, { env: keep });
	});
}

function alive(pid) {
	try { process.kill(pid, 0); return true; } catch { return false; }
}

async function killPid(pid) {
	if (!alive(pid))
		return;
	try { process.kill(pid, 'SIGTERM'); } catch { return; }
	for (let i = 0; i < 40 && alive(pid); i++)
		await delay(50);
	if (alive(pid)) {
		try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
	}
}

/* Kills what this run started, by PID; removes the tree unless keep. */
async function cleanup(run, keep) {
	const killed = [];
	if (run.serverPid) {
		killed.push(run.serverPid);
		await killPid(run.serverPid);
	}
	for (let i = 0; i < 3; i++) {
		const left = codexProcs(run);
		if (!left.length)
			break;
		for (const p of left) {
			killed.push(p.pid);
			await killPid(p.pid);
		}
		await delay(200);
	}
	if (!keep)
		fs.rmSync(run.root, { recursive: true, force: true });
	return killed;
}

/* The rollout files under CODEX_HOME/sessions. */
function rollouts(run) {
	const out = [];
	const walk = (d) => {
		let ents = [];
		try { ents = fs.readdirSync(d, { withFileTypes: true }); } catch { return; }
		for (const e of ents) {
			const p = path.join(d, e.name);
			if (e.isDirectory())
				walk(p);
			else if (/^rollout-.*\.jsonl$/.test(e.name))
				out.push(p);
		}
	};
	walk(path.join(run.codexHome, 'sessions'));
	return out.sort();
}

function readJsonl(file) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return { unparsed: l }; } });
	} catch { return []; }
}

function listTree(dir, base = dir) {
	const out = [];
	let ents = [];
	try { ents = fs.readdirSync(dir, { withFileTypes: true }); } catch { return out; }
	for (const e of ents) {
		const p = path.join(dir, e.name);
		const rel = path.relative(base, p);
		if (e.isDirectory()) {
			out.push(rel + '/');
			out.push(...listTree(p, base));
		} else {
			let size = 0;
			try { size = fs.statSync(p).size; } catch { /* gone */ }
			out.push(`${rel} ${e.isSocket() ? '(socket)' : size}`);
		}
	}
	return out;
}

module.exports = {
	SHIM, NATIVE, delay, makeRun, configToml, tmux, start, capture, paneInfo, keys, literal, paste,
	waitScreen, waitFor, saveScreen, scrub, processTree, codexProcs, cleanup, rollouts, readJsonl,
	environ, listTree, alive, killPid,
};
