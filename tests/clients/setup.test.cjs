'use strict';
/*
 * SET-RUN: aiterm-setup against the real Claude Code, Codex and Grok Build
 * CLIs of this folder's lock file, each in a private HOME / CODEX_HOME.
 * Setup registers the server, reads it back through the client, and the
 * client then started against the mock model shows Aiterm's tools.  Other
 * people's servers, keys and formatting survive setup and --uninstall;
 * faults (corrupt, read-only, full disk, a failing client CLI, a second
 * setup, no client, a broken server) are explicit failures that leave
 * every file as it was.  Cursor's CLI cannot be installed here: its
 * documented file (~/.cursor/mcp.json) is tested, read back from the file.
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { runClaude, claudeBinary } = require('./lib/claude.cjs');
const { runCodex, codexCommand, configToml } = require('./lib/codex.cjs');
const C = require('./lib/common.cjs');
const { delay } = require('../mcp/lib/server.cjs');

const T = { timeout: 300000 };
const SETUP = path.join(path.dirname(C.aitermBinary()), 'aiterm-setup');
const asRoot = typeof process.getuid === 'function' && process.getuid() === 0;

/*
 * The run's bin folder: the client CLIs asked for (claude is the native
 * binary, codex and grok their npm launchers run by this node) and an
 * aiterm-mcp that is the build tree's server with the variables it needs
 * here (what `make install` would have compiled in).
 */
function binDir(dirs, env, clients) {
	const bin = path.join(dirs.root, 'bin');
	fs.mkdirSync(bin, { recursive: true });
	const sh = (name, body) => fs.writeFileSync(path.join(bin, name), `#!/bin/sh\n${body}\n`, { mode: 0o755 });
	if (clients.includes('claude'))
		fs.symlinkSync(claudeBinary(), path.join(bin, 'claude'));
	if (clients.includes('codex')) {
		const { cmd, pre } = codexCommand();
		sh('codex', `exec ${JSON.stringify(cmd)} ${pre.map((a) => JSON.stringify(a)).join(' ')} "$@"`);
	}
	if (clients.includes('grok')) {
		const dir = path.dirname(require.resolve('@xai-official/grok/package.json'));
		const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
		const rel = typeof pkg.bin === 'string' ? pkg.bin : pkg.bin.grok;
		sh('grok', `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(dir, rel))} "$@"`);
	}
	const vars = C.serverEnv(env);
	sh('aiterm-mcp', Object.entries(vars).filter(([k]) => /^(AITERM_|XDG_|TMUX_TMPDIR$)/.test(k))
		.map(([k, v]) => `export ${k}=${JSON.stringify(v)}`).join('\n') + `\nexec ${JSON.stringify(C.aitermBinary())} "$@"`);
	return bin;
}

/* Runs aiterm-setup with the run's HOME, CODEX_HOME and a PATH of bin first. */
async function setup(dirs, env, bin, args, extra = {}) {
	const e = Object.assign({}, env, { CODEX_HOME: dirs.codex, PATH: `${bin}:/usr/bin:/bin` }, extra);
	const r = await C.run(SETUP, ['--json', '--server', path.join(bin, 'aiterm-mcp'), ...args], { env: e, timeoutMs: 180000 });
	let json = null;
	try { json = JSON.parse(r.stdout); } catch { /* not JSON */ }
	return Object.assign(r, { json, client: (id) => json && json.clients.find((c) => c.client === id) });
}

/* A private tree without a client run (for the fault and file tests). */
function plainRun(t, clients) {
	const { dirs, env } = C.makeRunEnv();
	t.after(async () => { await C.cleanupRun(dirs); });
	return { dirs, env, bin: binDir(dirs, env, clients) };
}

function show(r) {
	return `exit ${r.exitCode}\n${r.stdout}\n${r.stderr}`;
}

const CLAUDE_OTHER = { other: { type: 'http', url: 'http://127.0.0.1:9/mcp' } };
const CLAUDE_UNKNOWN = { zzUnknown: { a: [1, 2.5, 'x'], 'é': null } };

test('SET-RUN Claude Code: registered, read back by `claude mcp get`, Claude lists the tools; --uninstall leaves the rest', T, async (t) => {
	let bin, before;
	const r = await runClaude({
		steps: [], final: 'Nothing to do.', timeoutMs: 120000,
		register: async (dirs, env) => {
			const file = path.join(dirs.home, '.claude.json');
			const cfg = JSON.parse(fs.readFileSync(file, 'utf8'));
			Object.assign(cfg, CLAUDE_UNKNOWN, { mcpServers: CLAUDE_OTHER });
			fs.writeFileSync(file, JSON.stringify(cfg, null, '\t'));
			before = fs.readFileSync(file, 'utf8');
			bin = binDir(dirs, env, ['claude']);
			const s = await setup(dirs, env, bin, ['--clients', 'claude-code']);
			t.diagnostic(s.stdout);
			const c = s.client('claude-code');
			/* The backup is the file as it was. */
			s.backupText = c && c.backup ? fs.readFileSync(c.backup, 'utf8') : null;
			return s;
		},
	});
	const s = r.registered;
	assert.equal(s.exitCode, 0, show(s));
	const c = s.client('claude-code');
	assert.equal(c.status, 'registered', show(s));
	assert.match(c.message, /claude mcp get: connected/);
	assert.equal(s.json.aiterm.terminal_test.probe, 'passed');
	assert.equal(s.backupText, before);
	/* Claude Code, started on the mock, offers Aiterm's tools to the model. */
	const names = r.toolsShown.map((x) => x.name);
	assert.ok(names.includes('mcp__aiterm__pty_open') && names.includes('mcp__aiterm__pty_send'), names.join(' '));
	t.diagnostic(`Claude shows ${names.length} aiterm tools`);
});

test('SET-RUN Claude Code: a second setup is already_registered; --uninstall removes only its entry', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, ['claude']);
	const file = path.join(dirs.home, '.claude.json');
	fs.writeFileSync(file, JSON.stringify(Object.assign({ hasCompletedOnboarding: true }, CLAUDE_UNKNOWN, { mcpServers: CLAUDE_OTHER }), null, 4));
	const first = await setup(dirs, env, bin, ['--clients', 'claude-code']);
	assert.equal(first.client('claude-code').status, 'registered', show(first));
	const again = await setup(dirs, env, bin, ['--clients', 'claude-code']);
	assert.equal(again.exitCode, 0, show(again));
	assert.equal(again.client('claude-code').status, 'already_registered', show(again));
	const un = await setup(dirs, env, bin, ['--clients', 'claude-code', '--uninstall']);
	assert.equal(un.exitCode, 0, show(un));
	assert.equal(un.client('claude-code').status, 'removed', show(un));
	const after = JSON.parse(fs.readFileSync(file, 'utf8'));
	/* Claude itself rewrites its file (its own keys); the user's are as they were. */
	assert.deepEqual(after.mcpServers, CLAUDE_OTHER);
	assert.deepEqual(after.zzUnknown, CLAUDE_UNKNOWN.zzUnknown);
	const list = await C.run(claudeBinary(), ['mcp', 'list'], { env: Object.assign({}, env, { PATH: `${bin}:/usr/bin:/bin` }), timeoutMs: 60000 });
	assert.doesNotMatch(list.stdout, /aiterm/, list.stdout);
	/* A second --uninstall has nothing of setup's to remove. */
	const un2 = await setup(dirs, env, bin, ['--clients', 'claude-code', '--uninstall']);
	assert.equal(un2.client('claude-code').status, 'not_registered_by_setup', show(un2));
});

test('SET-RUN Codex: `codex mcp add`, read back with `codex mcp get --json`, Codex lists the tools; --uninstall restores config.toml', T, async (t) => {
	let before, file;
	const r = await runCodex({
		steps: [], final: 'Nothing to do.', timeoutMs: 150000,
		register: async (dirs, env) => {
			file = path.join(dirs.codex, 'config.toml');
			fs.appendFileSync(file, '\n[mcp_servers.other]\ncommand = "/bin/false"\nenabled = false\n');
			before = fs.readFileSync(file, 'utf8');
			const bin = binDir(dirs, env, ['codex']);
			const s = await setup(dirs, env, bin, ['--clients', 'codex-cli']);
			t.diagnostic(s.stdout);
			const un = await setup(dirs, env, bin, ['--clients', 'codex-cli', '--uninstall']);
			s.uninstall = un;
			s.afterUninstall = fs.readFileSync(file, 'utf8');
			/* Registered again for the run that follows. */
			s.again = await setup(dirs, env, bin, ['--clients', 'codex-cli']);
			return s;
		},
	});
	const s = r.registered;
	assert.equal(s.exitCode, 0, show(s));
	assert.equal(s.client('codex-cli').status, 'registered', show(s));
	assert.match(s.client('codex-cli').message, /codex mcp get --json/);
	assert.equal(s.uninstall.client('codex-cli').status, 'removed', show(s.uninstall));
	assert.match(s.afterUninstall, /\[mcp_servers\.other\]\ncommand = "\/bin\/false"/);
	/* Codex's own `mcp add`/`remove` rewrite the file without comments (SET-RUN asks to keep comment-free formatting). */
	assert.doesNotMatch(s.afterUninstall, /mcp_servers\.aiterm/);
	t.diagnostic(s.afterUninstall === before ? 'config.toml byte-for-byte as before' : 'config.toml differs only in layout by codex');
	assert.equal(s.again.client('codex-cli').status, 'registered', show(s.again));
	const ns = r.toolsShown[0];
	assert.ok(ns && ns.tools.some((x) => x.name === 'pty_open'), JSON.stringify(r.toolsShown).slice(0, 400));
	t.diagnostic(`Codex shows ${ns.tools.length} aiterm tools`);
});

test('SET-RUN Grok: `grok mcp add --scope user`, read back with `grok mcp list --json`; --uninstall removes it', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, ['grok']);
	const e = Object.assign({}, env, { GROK_TELEMETRY_ENABLED: '0', GROK_DISABLE_AUTOUPDATER: '1' });
	const s = await setup(dirs, e, bin, ['--clients', 'grok-cli']);
	assert.equal(s.exitCode, 0, show(s));
	assert.equal(s.client('grok-cli').status, 'registered', show(s));
	const toml = fs.readFileSync(path.join(dirs.home, '.grok', 'config.toml'), 'utf8');
	assert.match(toml, /\[mcp_servers\.aiterm\]/);
	const un = await setup(dirs, e, bin, ['--clients', 'grok-cli', '--uninstall']);
	assert.equal(un.client('grok-cli').status, 'removed', show(un));
	assert.doesNotMatch(fs.readFileSync(path.join(dirs.home, '.grok', 'config.toml'), 'utf8'), /aiterm/);
});

test('SET-RUN Cursor (documented file only): one inserted line in the user\'s layout; --uninstall gives the file back byte for byte', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, []);
	const dir = path.join(dirs.home, '.cursor');
	fs.mkdirSync(dir);
	const file = path.join(dir, 'mcp.json');
	const orig = '{\n\t"mcpServers": {\n\t\t"x": {"command": "/bin/x", "args": ["a"]}\n\t},\n\t"zz": 1e3, "s": "\\u00e9"\n}';
	fs.writeFileSync(file, orig, { mode: 0o640 });
	const dry = await setup(dirs, env, bin, ['--clients', 'cursor', '--dry-run']);
	assert.equal(dry.exitCode, 0, show(dry));
	assert.equal(dry.client('cursor').status, 'planned');
	assert.match(dry.client('cursor').diff, /^\+\t\t"aiterm": /m);
	assert.equal(fs.readFileSync(file, 'utf8'), orig, 'a dry run writes nothing');
	const s = await setup(dirs, env, bin, ['--clients', 'cursor']);
	assert.equal(s.client('cursor').status, 'registered', show(s));
	const now = fs.readFileSync(file, 'utf8');
	assert.equal(fs.statSync(file).mode & 0o777, 0o640, 'mode kept');
	const added = now.split('\n').filter((l) => !orig.split('\n').includes(l));
	assert.deepEqual(added.map((l) => l.replace(/"command":"[^"]*"/, '"command":"X"')),
		['\t\t"x": {"command": "/bin/x", "args": ["a"]},', '\t\t"aiterm": {"command":"X","args":[],"env":{}}']);
	const un = await setup(dirs, env, bin, ['--clients', 'cursor', '--uninstall']);
	assert.equal(un.client('cursor').status, 'removed', show(un));
	assert.equal(fs.readFileSync(file, 'utf8'), orig);
});

test('SET-RUN faults: corrupt and read-only configs are failed with a code and left as they were', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, ['claude']);
	const file = path.join(dirs.home, '.claude.json');
	fs.writeFileSync(file, '{ "mcpServers": { "a": 1, }');
	const s = await setup(dirs, env, bin, ['--clients', 'claude-code']);
	assert.equal(s.exitCode, 1, show(s));
	assert.equal(s.json.ok, false);
	assert.equal(s.client('claude-code').code, 'CONFIG_CORRUPT', show(s));
	assert.match(s.client('claude-code').message, /line 1/);
	assert.equal(fs.readFileSync(file, 'utf8'), '{ "mcpServers": { "a": 1, }');
	fs.writeFileSync(file, '{"a": 1}\n');
	fs.chmodSync(file, 0o444);
	const ro = await setup(dirs, env, bin, ['--clients', 'claude-code']);
	assert.equal(ro.exitCode, 1, show(ro));
	assert.equal(ro.client('claude-code').code, 'CONFIG_READONLY', show(ro));
	assert.equal(fs.readFileSync(file, 'utf8'), '{"a": 1}\n');
});

test('SET-RUN faults: the disk full during the write leaves the original intact', Object.assign({}, T, asRoot ? {} : { skip: 'not-root: mounting a tmpfs needs root' }), async (t) => {
	/* ~/.cursor is a link to a 64 KiB tmpfs outside the run's tree. */
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-setup-fs-'));
	execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k,mode=0700', 'aiterm-test', dir]);
	t.after(() => {
		try { execFileSync('umount', [dir]); } catch { execFileSync('umount', ['-l', dir]); }
		fs.rmSync(dir, { recursive: true, force: true });
	});
	const { dirs, env, bin } = plainRun(t, []);
	fs.symlinkSync(dir, path.join(dirs.home, '.cursor'));
	const file = path.join(dir, 'mcp.json');
	const orig = JSON.stringify({ mcpServers: { x: { command: '/bin/x' } }, pad: 'p'.repeat(2000) }, null, 2);
	fs.writeFileSync(file, orig);
	const fd = fs.openSync(path.join(dir, 'filler'), 'w');
	try { for (;;) fs.writeSync(fd, Buffer.alloc(4096, 0x61)); } catch (err) { assert.equal(err.code, 'ENOSPC'); }
	try { for (;;) fs.writeSync(fd, Buffer.alloc(1, 0x61)); } catch { /* full */ }
	fs.closeSync(fd);
	const s = await setup(dirs, env, bin, ['--clients', 'cursor']);
	assert.equal(s.exitCode, 1, show(s));
	assert.match(s.client('cursor').code, /^(BACKUP_FAILED|WRITE_FAILED)$/, show(s));
	assert.equal(fs.readFileSync(file, 'utf8'), orig);
	assert.deepEqual(fs.readdirSync(dir).sort(), ['filler', 'mcp.json'], 'no temporary left behind');
});

test('SET-RUN faults: a client CLI that fails is failed with its status and stderr; nothing else changes', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, ['codex']);
	const file = path.join(dirs.codex, 'config.toml');
	fs.writeFileSync(file, 'model = "x"\n[broken\n');
	const s = await setup(dirs, env, bin, ['--clients', 'codex-cli']);
	assert.equal(s.exitCode, 1, show(s));
	const c = s.client('codex-cli');
	assert.equal(c.code, 'CLI_FAILED', show(s));
	assert.match(c.message, /exited with status [1-9]/);
	assert.equal(fs.readFileSync(file, 'utf8'), 'model = "x"\n[broken\n');
});

test('SET-RUN faults: a second setup waits for the lock, then refuses clearly', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, []);
	fs.mkdirSync(path.join(dirs.home, '.cursor'));
	const lockDir = path.join(env.AITERM_STATE_DIR, 'setup');
	fs.mkdirSync(lockDir, { recursive: true, mode: 0o700 });
	/* flock and its sleep lead their own group: both end by the group's PID. */
	const holder = require('node:child_process').spawn('flock', [path.join(lockDir, 'lock'), 'sleep', '30'], { stdio: 'ignore', detached: true });
	const release = () => { try { process.kill(-holder.pid, 'SIGKILL'); } catch { /* gone */ } };
	t.after(release);
	await delay(300);
	const s = await setup(dirs, env, bin, ['--clients', 'cursor', '--lock-wait', '1']);
	assert.equal(s.exitCode, 1, show(s));
	assert.equal(s.json.error.code, 'SETUP_BUSY', show(s));
	assert.ok(s.ms < 10000, `${s.ms} ms`);
	assert.equal(fs.existsSync(path.join(dirs.home, '.cursor', 'mcp.json')), false);
	/* Released while the second one waits: it goes on. */
	setTimeout(release, 500);
	const w = await setup(dirs, env, bin, ['--clients', 'cursor', '--lock-wait', '20']);
	assert.equal(w.exitCode, 0, show(w));
	assert.equal(w.client('cursor').status, 'registered');
});

test('SET-RUN: no AI client, a server that fails the terminal test, bad usage, unknown plugins: never success', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, ['claude']);
	const none = await setup(dirs, env, path.join(dirs.root, 'empty-bin'), []);
	assert.equal(none.exitCode, 1, show(none));
	assert.equal(none.json.error.code, 'SERVER_MISSING', show(none));
	fs.mkdirSync(path.join(dirs.root, 'only-server'));
	fs.copyFileSync(path.join(bin, 'aiterm-mcp'), path.join(dirs.root, 'only-server', 'aiterm-mcp'));
	fs.chmodSync(path.join(dirs.root, 'only-server', 'aiterm-mcp'), 0o755);
	const noClient = await setup(dirs, env, path.join(dirs.root, 'only-server'), []);
	assert.equal(noClient.exitCode, 1, show(noClient));
	assert.equal(noClient.json.error.code, 'NO_CLIENT_FOUND', show(noClient));
	/* A server that answers nothing: no client config is touched. */
	const broken = path.join(dirs.root, 'broken-mcp');
	fs.writeFileSync(broken, '#!/bin/sh\ncase "$1" in --list-plugins) exec ' + JSON.stringify(path.join(bin, 'aiterm-mcp')) + ' "$@";; esac\nexit 0\n', { mode: 0o755 });
	const r = await C.run(SETUP, ['--json', '--server', broken, '--clients', 'claude-code'],
		{ env: Object.assign({}, env, { PATH: `${bin}:/usr/bin:/bin` }), timeoutMs: 120000 });
	const j = JSON.parse(r.stdout);
	assert.equal(r.exitCode, 1, show(r));
	assert.equal(j.error.code, 'TERMINAL_TEST_FAILED', show(r));
	assert.equal(fs.existsSync(path.join(dirs.home, '.claude.json')), false, 'no config touched');
	const bad = await C.run(SETUP, ['--clients', 'bogus'], { env, timeoutMs: 10000 });
	assert.equal(bad.exitCode, 2);
	assert.match(bad.stderr, /unknown client 'bogus'/);
	const wait = await C.run(SETUP, ['--lock-wait', 'soon'], { env, timeoutMs: 10000 });
	assert.equal(wait.exitCode, 2);
	assert.match(wait.stderr, /--lock-wait wants 0\.\.3600 seconds/);
	const plug = await setup(dirs, env, bin, ['--clients', 'claude-code', '--plugins', 'harness-nope']);
	assert.equal(plug.json.error.code, 'PLUGIN_NOT_FOUND', show(plug));
	assert.equal(fs.existsSync(path.join(dirs.home, '.claude.json')), false, 'no config touched');
});

test('SET-RUN --plugins: the registered server loads only the harnesses and reducers named (AITERM_PLUGINS)', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, ['claude']);
	const s = await setup(dirs, env, bin, ['--clients', 'claude-code', '--plugins', 'harness-claude,reducers-git']);
	assert.equal(s.exitCode, 0, show(s));
	const entry = JSON.parse(fs.readFileSync(path.join(dirs.home, '.claude.json'), 'utf8')).mcpServers.aiterm;
	assert.deepEqual(entry.env, { AITERM_PLUGINS: 'harness-claude,reducers-git' });
	const list = JSON.parse(execFileSync(path.join(bin, 'aiterm-mcp'), ['--list-plugins'], { env: Object.assign({}, env, entry.env) }).toString());
	const loaded = list.plugins.filter((p) => p.loaded).map((p) => p.name).sort();
	assert.deepEqual(loaded, ['harness-claude', 'mux-tmux', 'reducers-git']);
	const harness = s.json.aiterm.plugins.find((p) => p.name === 'harness-grok');
	assert.equal(harness.cli, 'not installed', 'a harness without its CLI is reported, not an error');
});

test('SET-HOOKS --codex-steer on Linux: our two hooks added and approved through codex app-server, restart_required while an older Codex runs, disable puts every byte back', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, ['codex']);
	fs.mkdirSync(dirs.codex, { recursive: true });
	const hooksFile = path.join(dirs.codex, 'hooks.json');
	const cfgFile = path.join(dirs.codex, 'config.toml');
	/* Someone else's hook and approval, written the way a person would. */
	const hooksBefore = '{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/bin/true"}]}]}}\n';
	const cfgBefore = '# mine\nmodel = "x"\n\n[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"\n';
	fs.writeFileSync(hooksFile, hooksBefore);
	fs.writeFileSync(cfgFile, cfgBefore);
	const st0 = await setup(dirs, env, bin, ['--codex-steer', 'status']);
	assert.equal(st0.exitCode, 0, show(st0));
	assert.equal(st0.json.aiterm.codex_steer, 'disabled');
	assert.equal(fs.readFileSync(hooksFile, 'utf8'), hooksBefore, 'status writes nothing');

	/* A Codex of this home that predates the change: restart_required. */
	const { cmd, pre } = codexCommand();
	const { spawn } = require('node:child_process');
	const older = spawn(cmd, [...pre, 'app-server'], { env: Object.assign({}, env, { CODEX_HOME: dirs.codex }), stdio: ['pipe', 'ignore', 'ignore'] });
	t.after(() => { try { older.kill(); } catch { /* gone */ } });
	await delay(1500);
	const en = await setup(dirs, env, bin, ['--codex-steer', 'enable']);
	assert.equal(en.exitCode, 3, show(en));
	assert.equal(en.json.aiterm.codex_steer, 'restart_required');
	assert.ok(en.json.aiterm.codex_restart.length >= 1 && en.json.aiterm.codex_restart.every((p) => p.pid > 0 && p.start), show(en));
	const hooks = en.json.aiterm.codex_steer_hooks;
	assert.deepEqual(hooks.map((h) => [h.event, h.enabled, h.trust]), [['postToolUse', true, 'trusted'], ['stop', true, 'trusted']], show(en));
	assert.deepEqual(hooks.map((h) => h.key), [`${hooksFile}:post_tool_use:0:0`, `${hooksFile}:stop:1:0`], 'ours come after the user\'s hook, whose key stays');
	const written = JSON.parse(fs.readFileSync(hooksFile, 'utf8'));
	assert.equal(written.hooks.Stop[0].hooks[0].command, '/bin/true', 'the user\'s hook stays first');
	assert.match(written.hooks.PostToolUse[0].hooks[0].command, /aiterm-hook' codex-post --state-dir '/);
	const cfg = fs.readFileSync(cfgFile, 'utf8');
	assert.ok(cfg.includes('[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"'), cfg);
	for (const h of hooks)
		assert.ok(cfg.includes(`[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = ${JSON.stringify(h.hash)}`), cfg);
	assert.doesNotMatch(cfg, /dangerously|bypass|skip/i, 'no approval-skipping flag');
	older.stdin.end();
	older.kill();
	await new Promise((r) => older.once('exit', r));
	await delay(1000);
	const st1 = await setup(dirs, env, bin, ['--codex-steer', 'status']);
	assert.equal(st1.exitCode, 0, show(st1));
	assert.equal(st1.json.aiterm.codex_steer, 'ready', 'the older Codex ended');

	/* Again, with a Codex started after enable running: nothing moves, nobody to restart. */
	const newer = spawn(cmd, [...pre, 'app-server'], { env: Object.assign({}, env, { CODEX_HOME: dirs.codex }), stdio: ['pipe', 'ignore', 'ignore'] });
	t.after(() => { try { newer.kill(); } catch { /* gone */ } });
	await delay(1500);
	const hooksNow = fs.readFileSync(hooksFile, 'utf8');
	const again = await setup(dirs, env, bin, ['--codex-steer', 'enable']);
	newer.stdin.end();
	newer.kill();
	assert.equal(again.exitCode, 0, show(again));
	assert.equal(again.json.aiterm.codex_steer, 'ready');
	assert.equal(fs.readFileSync(hooksFile, 'utf8'), hooksNow);

	const dis = await setup(dirs, env, bin, ['--codex-steer', 'disable']);
	assert.equal(dis.exitCode, 0, show(dis));
	assert.equal(dis.json.aiterm.codex_steer, 'disabled');
	assert.equal(fs.readFileSync(hooksFile, 'utf8'), hooksBefore, 'hooks.json byte for byte');
	assert.equal(fs.readFileSync(cfgFile, 'utf8'), cfgBefore, 'config.toml (approvals) byte for byte');
	const bad = await C.run(SETUP, ['--codex-steer', 'sideways'], { env, timeoutMs: 10000 });
	assert.equal(bad.exitCode, 2);
	assert.match(bad.stderr, /--codex-steer wants enable, disable or status/);
});

test('SET-HOOKS --codex-steer without a Codex CLI: an explicit error, nothing written', T, async (t) => {
	const { dirs, env, bin } = plainRun(t, []);
	const en = await setup(dirs, env, bin, ['--codex-steer', 'enable']);
	assert.equal(en.exitCode, 1, show(en));
	assert.equal(en.json.error.code, 'CODEX_NOT_FOUND');
	assert.equal(fs.existsSync(path.join(dirs.codex, 'hooks.json')), false);
});
