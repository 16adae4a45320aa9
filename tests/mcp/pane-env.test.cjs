'use strict';
/*
 * PTY-OPEN AGT-LAUNCH OPS-BOUNDARY, issue 32: a pane gets the environment
 * of the server that opens it.  The private tmux server of a state root
 * keeps the environment of the aiterm-mcp that started it; two servers
 * with different HOME, PATH and variables of their own share one state
 * root, and each opens its sessions after the other has started tmux.
 * Each pane (a pty_open shell, and an agent_launch pane running the
 * "codex" found on its server's PATH) has its own server's environment,
 * none of the other's, and env_vars still override it.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { Rig, until } = require('./lib/pty.cjs');

const T = { timeout: 180000 };

/* Variables the pane has of tmux, Aiterm or the shell, not of the server. */
const OWN = /^(TERM|TERM_PROGRAM|TERM_PROGRAM_VERSION|COLORTERM|TMUX|TMUX_PANE|PWD|OLDPWD|SHELL|SHLVL|_|ENV|AITERM_.*)$/;

function parseEnv(text) {
	const env = {};
	for (const line of text.split('\0'))
		if (line.includes('='))
			env[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
	return env;
}

/* An environment but OWN: what a server gives its panes. */
function seen(env) {
	return Object.fromEntries(Object.entries(env).filter(([k]) => !OWN.test(k)));
}

/* The environment the server process conn was started with. */
function serverEnv(conn) {
	return parseEnv(fs.readFileSync(`/proc/${conn.pid}/environ`, 'utf8'));
}

/* One server's own HOME, PATH folder (with a stand-in codex) and variables. */
function side(rig, name) {
	const home = path.join(rig.dirs.root, `home-${name}`);
	const bin = path.join(rig.dirs.root, `bin-${name}`);
	fs.mkdirSync(home, { mode: 0o700 });
	fs.mkdirSync(bin, { mode: 0o700 });
	/* The agent pane's program: writes its environment where its server says, then waits. */
	const out = path.join(rig.dirs.root, `agent-${name}.env`);
	fs.writeFileSync(path.join(bin, 'codex'), '#!/bin/sh\n' +
		'if [ "$1" = --version ]; then echo "codex-cli 0.999.0"; exit 0; fi\n' +
		`env -0 > '${out}.tmp' && mv '${out}.tmp' '${out}'\nexec sleep 600\n`, { mode: 0o700 });
	const env = {
		HOME: home,
		PATH: `${bin}:${rig.env.PATH}`,
		PANE_ENV_MARK: `mark-${name}`,
		[`PANE_ENV_ONLY_${name.toUpperCase()}`]: `only ${name} 'quoted' $x`,
	};
	return { name, home, bin, out, env };
}

/* The environment of a pty_open pane of conn, with args added to the open. */
async function shellEnv(rig, conn, id, args = {}) {
	rig.sessions.add(id);
	await conn.ok('pty_open', Object.assign({ name: id, shell: 'sh', cwd: rig.dirs.root }, args));
	const file = path.join(rig.dirs.root, `${id}.env`);
	await conn.ok('pty_send', { session_id: id, text: `env -0 > '${file}'`, wait: true, timeout: 30 }, 60000);
	return parseEnv(fs.readFileSync(file, 'utf8'));
}

/* The environment of the pane agent_launch starts for conn's side s. */
async function agentEnv(rig, conn, s, id) {
	rig.sessions.add(id);
	await conn.call('agent_launch', { harness: 'codex-cli', cwd: rig.dirs.root, name: id, timeout: 2 }, 60000);
	await until(() => fs.existsSync(s.out), 20000, `${s.out} written by the agent pane`);
	return parseEnv(fs.readFileSync(s.out, 'utf8'));
}

/*
 * first starts the tmux server with its pty_open; then second opens a
 * shell and launches an agent; then first does too.
 */
async function round(t, order) {
	const rig = new Rig(t);
	const sides = {};
	for (const name of order)
		sides[name] = side(rig, name);
	const [a, b] = order.map((n) => sides[n]);
	const ca = await rig.server({ env: a.env });
	const cb = await rig.server({ env: b.env });
	a.full = serverEnv(ca);
	b.full = serverEnv(cb);
	assert.equal(a.full.HOME, a.home);

	const firstShell = await shellEnv(rig, ca, `${a.name}-shell`);
	assert.ok(rig.tmuxPid(), 'the first open started the tmux server');
	const secondShell = await shellEnv(rig, cb, `${b.name}-shell`);
	const secondAgent = await agentEnv(rig, cb, b, `${b.name}-agent`);
	const firstAgent = await agentEnv(rig, ca, a, `${a.name}-agent`);

	for (const [s, shell, agent] of [[a, firstShell, firstAgent], [b, secondShell, secondAgent]]) {
		const other = s === a ? b : a;
		assert.equal(shell.HOME, s.home, `${s.name}'s shell: its server's HOME`);
		assert.equal(shell.PANE_ENV_MARK, `mark-${s.name}`);
		assert.equal(shell.PATH, s.env.PATH, `${s.name}'s shell: its server's PATH`);
		assert.equal(shell[`PANE_ENV_ONLY_${other.name.toUpperCase()}`], undefined,
			`${s.name}'s shell has nothing of ${other.name}'s server`);
		assert.deepEqual(seen(shell), seen(s.full), `${s.name}'s shell: exactly its server's environment`);
		assert.deepEqual(seen(agent), seen(s.full), `${s.name}'s agent pane: exactly its server's environment`);
		assert.equal(agent.AITERM_SESSION_ID, `${s.name}-agent`);
		assert.equal(shell.AITERM_SESSION_ID, `${s.name}-shell`);
	}

	/* env_vars still win over the server's environment. */
	const over = await shellEnv(rig, cb, `${b.name}-over`, {
		env_vars: { PANE_ENV_MARK: 'from env_vars', HOME: a.home },
	});
	assert.equal(over.PANE_ENV_MARK, 'from env_vars');
	assert.equal(over.HOME, a.home);
	assert.equal(over[`PANE_ENV_ONLY_${b.name.toUpperCase()}`], b.env[`PANE_ENV_ONLY_${b.name.toUpperCase()}`]);
	await rig.cleanup();
}

test('PTY-OPEN AGT-LAUNCH issue 32: a pane has the environment of the server that opens it, whichever server started tmux',
	T, async (t) => {
		await round(t, ['a', 'b']);
		await round(t, ['b', 'a']);
	});
