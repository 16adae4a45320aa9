'use strict';
/*
 * CTL-CLI: the aiterm command, run as a real program against a real tmux
 * (ADR 0022).  Each test has its own state root, tmux socket and HOME (a
 * Rig).  The command's --json must equal the structuredContent an MCP
 * client gets for the same call from aiterm-mcp on the same state root;
 * exit statuses are 0 / 1 (the tool failed) / 2 (usage) and, for
 * send/read --wait, the command's own; a pane Aiterm opened finds Aiterm
 * and its own session through its environment; aiterm-setup refuses to
 * write another product's config from such a pane (seed 004).
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const test = require('node:test');
const assert = require('node:assert/strict');
const { serverBinary } = require('./lib/server.cjs');
const { runAiterm } = require('./lib/cli.cjs');
const { Rig, show } = require('./lib/pty.cjs');

const T = { timeout: 120000 };

function builtBinary(name) {
	return path.join(path.dirname(serverBinary()), name);
}

/* Runs aiterm with args in the rig's environment (opts.env over it, opts.unset out of it). */
function cli(rig, args, opts = {}) {
	const env = Object.assign({}, rig.env, opts.env || {});
	for (const k of opts.unset || [])
		delete env[k];
	return runAiterm(args, env, rig.dirs.home, opts);
}

/* aiterm ... --json that must exit with code; returns the parsed value. */
async function cliJson(rig, args, code = 0, opts = {}) {
	const r = await cli(rig, [...args, '--json'], opts);
	assert.equal(r.code, code, `aiterm ${args.join(' ')} --json exits ${code}: ${JSON.stringify(r)}`);
	return JSON.parse(r.stdout);
}

/*
 * A copy of v with every word s (a session id: not inside another word,
 * such as the temporary folder "aiterm-mcp-bdZrxM" for "mcp-b", which
 * failed one CI run in 62) replaced
 * by to, without the timings and the log positions: two twin terminals do
 * not receive the same bytes (echo timing, redraws), so offsets differ by
 * a few bytes.
 */
const VOLATILE = new Set(['duration_ms', 'cursor', 'line', 'bytes']);
function normal(v, s, to) {
	const word = new RegExp(`(?<![\\w-])${s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`, 'g');
	return JSON.parse(JSON.stringify(v, (k, x) => {
		if (VOLATILE.has(k))
			return undefined;
		return typeof x === 'string' ? x.replace(word, to) : x;
	}));
}

/* Twin sessions: the CLI drives a, an MCP client drives b; results must be the same. */
function same(cliSc, mcpSc, what) {
	assert.deepEqual(normal(cliSc, 'cli-a', 'ID'), normal(mcpSc, 'mcp-b', 'ID'),
		`${what}: aiterm --json equals the MCP structuredContent\ncli: ${JSON.stringify(cliSc)}\nmcp: ${JSON.stringify(mcpSc)}`);
}

test('CTL-CLI: each command\'s --json equals the structuredContent of the same MCP call', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	rig.sessions.add('cli-a');

	same(await cliJson(rig, ['open', '--name', 'cli-a', '--shell', 'bash', '--cols', '100']),
		(await c.open({ name: 'mcp-b', shell: 'bash', cols: 100 })).sc, 'open');

	const a = await cli(rig, ['send', 'cli-a', 'echo one-$((1+1)); (exit 3)', '--wait', '--json']);
	assert.equal(a.code, 3, `send --wait exits with the command's status: ${JSON.stringify(a)}`);
	const b = await c.ok('pty_send', { session_id: 'mcp-b', text: 'echo one-$((1+1)); (exit 3)', wait: true });
	same(JSON.parse(a.stdout), b.sc, 'send --wait');
	const text = await cli(rig, ['send', 'cli-a', 'echo two-$((1+1))', '--wait']);
	assert.equal(text.code, 0, JSON.stringify(text));
	assert.match(text.stdout, /^two-2$/m, 'the text is the command\'s output');
	assert.equal(text.stdout, (await c.ok('pty_send', { session_id: 'mcp-b', text: 'echo two-$((1+1))', wait: true })).text + '\n',
		'the text is what the model reads');

	same(await cliJson(rig, ['send', 'cli-a', 'echo three']),
		(await c.ok('pty_send', { session_id: 'mcp-b', text: 'echo three' })).sc, 'send (no wait)');
	same(await cliJson(rig, ['read', 'cli-a', '--wait']),
		(await c.ok('pty_read', { session_id: 'mcp-b', wait: true })).sc, 'read --wait');
	same(await cliJson(rig, ['read', 'cli-a', '--lines', '2']),
		(await c.ok('pty_read', { session_id: 'mcp-b', lines: 2 })).sc, 'read --lines');
	/* The same session, the same call: exactly the same result. */
	assert.deepEqual(await cliJson(rig, ['read', 'cli-a', '--screen']),
		(await c.ok('pty_read', { session_id: 'cli-a', screen: true })).sc, 'read --screen of one session');
	assert.deepEqual(await cliJson(rig, ['read', 'cli-a', '--line-range', '1,3']),
		(await c.ok('pty_read', { session_id: 'cli-a', line_range: [1, 3] })).sc, 'read --line-range of one session');
	same(await cliJson(rig, ['key', 'cli-a', 'C-l']),
		(await c.ok('pty_key', { session_id: 'mcp-b', key: 'C-l' })).sc, 'key');

	const listed = await cliJson(rig, ['list']);
	assert.deepEqual(listed, (await c.ok('pty_list', {})).sc, 'list');
	assert.deepEqual(listed.sessions.map((s) => s.session_id).sort(), ['cli-a', 'mcp-b'], show(listed));

	const oa = await cliJson(rig, ['observe', 'cli-a']);
	const ob = (await c.ok('pty_observe', { session_id: 'mcp-b' })).sc;
	assert.deepEqual(Object.keys(oa).sort(), Object.keys(ob).sort(), `observe: the same fields\n${show(oa)}\n${show(ob)}`);
	assert.equal(oa.session_id, 'cli-a');

	/* The tool's own failures: exit 1, the same message on stderr. */
	const fails = [
		[['approval', 'cli-a'], 'agent_approval', { session_id: 'cli-a' }],
		[['configure', 'cli-a', 'sonnet'], 'agent_configure', { session_id: 'cli-a', model: 'sonnet' }],
		[['launch', 'no-such-harness', '.'], 'agent_launch', { harness: 'no-such-harness', cwd: '.' }],
		[['send', 'nosuch', 'x'], 'pty_send', { session_id: 'nosuch', text: 'x' }],
	];
	for (const [args, tool, targs] of fails) {
		const r = await cli(rig, args);
		const m = await c.err(tool, targs);
		assert.equal(r.code, 1, `aiterm ${args.join(' ')} exits 1: ${JSON.stringify(r)}`);
		assert.equal(r.stdout, '', 'nothing on stdout');
		assert.equal(r.stderr.trim(), m.text.trim(), `aiterm ${args.join(' ')}: the tool's message`);
	}

	same(await cliJson(rig, ['close', 'cli-a']),
		(await c.ok('pty_close', { session_id: 'mcp-b' })).sc, 'close');
	rig.sessions.delete('cli-a');
	rig.sessions.delete('mcp-b');
});

test('CTL-CLI: exit statuses 0 / 1 / 2, send --wait with the command\'s status, and the help', T, async (t) => {
	const rig = new Rig(t);
	rig.sessions.add('x');
	let r = await cli(rig, ['open', '--name', 'x', '--shell', 'bash']);
	assert.equal(r.code, 0, JSON.stringify(r));
	assert.match(r.stdout, /^opened x \(/, 'the text the model reads');
	rig.notePid();

	for (const [cmd, code] of [['true', 0], ['false', 1], ['(exit 7)', 7], ['(exit 300)', 44]]) {
		r = await cli(rig, ['send', 'x', cmd, '--wait']);
		assert.equal(r.code, code, `send '${cmd}' --wait: ${JSON.stringify(r)}`);
	}
	r = await cli(rig, ['send', 'x', 'sleep 30', '--wait', '--timeout', '0.5']);
	assert.equal(r.code, 124, `a command still running: 124 ${JSON.stringify(r)}`);
	assert.equal((await cli(rig, ['key', 'x', 'C-c'])).code, 0);
	r = await cli(rig, ['read', 'x', '--wait']);
	assert.equal(r.code, 130, `read --wait: the interrupted command's status ${JSON.stringify(r)}`);
	r = await cli(rig, ['send', 'x', 'echo until-here; sleep 30', '--until', 'until-here']);
	assert.equal(r.code, 0, `--until met: 0 ${JSON.stringify(r)}`);
	await cli(rig, ['key', 'x', 'C-c']);

	const usage = [
		[[], /a command is needed/],
		[['frob'], /unknown command 'frob'/],
		[['send', 'x'], /aiterm send: missing TEXT/],
		[['send'], /aiterm send: missing SESSION_ID/],
		[['close', 'x', 'y'], /unexpected argument 'y'/],
		[['open', '--bogus'], /unknown option '--bogus'/],
		[['open', '--cols'], /--cols needs a value \(a whole number\)/],
		[['open', '--cols', 'wide'], /--cols wants a whole number, not 'wide'/],
		[['open', '--cols', '5'], /cols.*at least 20/],
		[['open', '--env-vars', 'NOEQUALS'], /--env-vars wants KEY=VALUE, not 'NOEQUALS'/],
		[['read', 'x', '--line-range', '1,b'], /--line-range wants a comma list, not '1,b'/],
		[['read', 'x', '--wait=maybe'], /--wait wants true or false/],
		[['list', '--state-dir'], /--state-dir needs a directory/],
	];
	for (const [args, re] of usage) {
		r = await cli(rig, args);
		assert.equal(r.code, 2, `aiterm ${args.join(' ')}: usage, 2 ${JSON.stringify(r)}`);
		assert.match(r.stderr, re, `aiterm ${args.join(' ')}: a specific message`);
		assert.equal(r.stdout, '');
	}
	/* A word after -- is text, even one that looks like an option. */
	r = await cli(rig, ['send', 'x', '--wait', '--', 'echo --bogus']);
	assert.equal(r.code, 0, JSON.stringify(r));
	assert.match(r.stdout, /^--bogus$/m);

	r = await cli(rig, ['--help']);
	assert.equal(r.code, 0);
	for (const name of ['open', 'send', 'read', 'key', 'close', 'list', 'observe', 'launch', 'approval', 'configure'])
		assert.match(r.stdout, new RegExp(`^  ${name} `, 'm'), `--help lists ${name}`);
	r = await cli(rig, ['open', '--help']);
	assert.equal(r.code, 0);
	for (const opt of ['--name TEXT', '--cols N (20-1000)', '--env-vars KEY=VALUE', '--remote TEXT'])
		assert.ok(r.stdout.includes(opt), `open --help has ${opt} (from the schema): ${r.stdout}`);
	r = await cli(rig, ['help', 'send']);
	assert.match(r.stdout, /^usage: aiterm send SESSION_ID TEXT/);
	assert.equal((await cli(rig, ['close', 'x'])).code, 0);
	rig.sessions.delete('x');
});

test('CTL-CLI: a pane Aiterm opened finds Aiterm and its own session, and drives its sibling', T, async (t) => {
	const rig = new Rig(t);
	const state = rig.env.AITERM_STATE_DIR;
	/* The root is given as an option: a pane can only know it from Aiterm. */
	const opts = { unset: ['AITERM_STATE_DIR'] };
	const root = ['--state-dir', state];
	rig.sessions.add('one');
	rig.sessions.add('two');
	for (const id of ['one', 'two'])
		assert.equal((await cli(rig, [...root, 'open', '--name', id, '--shell', 'bash'], opts)).code, 0);
	rig.notePid();
	const out = path.join(rig.dirs.home, 'list.json');
	let r = await cli(rig, [...root, 'send', 'one', `"$AITERM_BIN" list --json > ${out}; echo "id=$AITERM_SESSION_ID root=$AITERM_STATE_DIR"`,
		'--wait', '--timeout', '20'], opts);
	assert.equal(r.code, 0, JSON.stringify(r));
	assert.match(r.stdout, new RegExp(`^id=one root=${state}$`, 'm'), r.stdout);
	const listed = JSON.parse(fs.readFileSync(out, 'utf8'));
	const mine = listed.sessions.find((s) => s.session_id === 'one');
	assert.ok(mine && mine.alive, `aiterm list in the pane lists its own session: ${show(listed)}`);

	/* An agent in one pane drives its sibling. */
	const mark = path.join(rig.dirs.home, 'from-one');
	r = await cli(rig, [...root, 'send', 'one', `"$AITERM_BIN" send two 'echo "$AITERM_SESSION_ID" > ${mark}' --wait; echo "sibling=$?"`,
		'--wait', '--timeout', '20'], opts);
	assert.match(r.stdout, /^sibling=0$/m, JSON.stringify(r));
	assert.equal(fs.readFileSync(mark, 'utf8'), 'two\n', 'the sibling ran it, in its own pane');
	for (const id of ['one', 'two'])
		assert.equal((await cli(rig, [...root, 'close', id], opts)).code, 0);
	rig.sessions.clear();
});

test('CTL-CLI SET-HOOKS: aiterm-setup in a pane Aiterm opened refuses to write another product\'s config', T, async (t) => {
	const rig = new Rig(t);
	const setup = process.env.AITERM_SETUP || builtBinary('aiterm-setup');
	rig.sessions.add('p');
	assert.equal((await cli(rig, ['open', '--name', 'p', '--shell', 'bash'])).code, 0);
	rig.notePid();
	/* A Claude Code config dir, as if installed: a writer would change it. */
	const claude = path.join(rig.dirs.home, '.claude');
	fs.mkdirSync(claude);
	fs.writeFileSync(path.join(claude, 'settings.json'), '{}\n');
	const before = JSON.stringify(fs.readdirSync(rig.dirs.home).sort());
	for (const args of ['', '--uninstall', '--remove-claude-parent-hooks', '--json --codex-steer enable', '--json --codex-steer disable']) {
		const r = await cli(rig, ['send', 'p', `${setup} ${args} --server ${serverBinary()}; echo "setup-rc=$?"`,
			'--wait', '--timeout', '20']);
		assert.match(r.stdout, /REFUSED_IN_AITERM_PANE/, `aiterm-setup ${args}: refused ${r.stdout}`);
		assert.match(r.stdout, /a person's decision/, r.stdout);
		assert.match(r.stdout, /^setup-rc=1$/m, r.stdout);
	}
	assert.equal(JSON.stringify(fs.readdirSync(rig.dirs.home).sort()), before, 'nothing was written in HOME');
	assert.equal(fs.readFileSync(path.join(claude, 'settings.json'), 'utf8'), '{}\n');
	/* Outside a pane the same program is not refused (it stops later: no client is set up here). */
	const outside = await new Promise((resolve) => {
		const env = Object.assign({}, rig.env);
		delete env.AITERM_SESSION_ID;
		const p = spawn(setup, ['--json', '--clients', 'cursor', '--dry-run', '--server', serverBinary()],
			{ env, cwd: rig.dirs.home, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		p.stdout.on('data', (s) => { out += s; });
		p.on('close', () => resolve(out));
	});
	assert.doesNotMatch(outside, /REFUSED_IN_AITERM_PANE/, outside);
	assert.equal((await cli(rig, ['close', 'p'])).code, 0);
	rig.sessions.delete('p');
});

/* Every path under dir with its kind and size: what a writer would change. */
function tree(dir) {
	const out = [];
	const walk = (d) => {
		for (const n of fs.readdirSync(d).sort()) {
			const p = path.join(d, n), st = fs.lstatSync(p);
			out.push(`${path.relative(dir, p)} ${st.isDirectory() ? 'dir' : st.size}`);
			if (st.isDirectory())
				walk(p);
		}
	};
	walk(dir);
	return out;
}

test('CTL-CLI SET-HOOKS: a pane cannot unset that it is Aiterm\'s: env -u, an empty AITERM_SESSION_ID, setsid still refused (issue 37)', T, async (t) => {
	const rig = new Rig(t);
	const setup = process.env.AITERM_SETUP || builtBinary('aiterm-setup');
	const c = await rig.server();
	/* A pane opened with the variable emptied, as an MCP client can ask. */
	const { sc } = await c.open({ name: 'bare', shell: 'bash', env_vars: { AITERM_SESSION_ID: '' } });
	const id = sc.session_id;
	/* Cursor and Claude Code as if installed: a writer would change these. */
	fs.mkdirSync(path.join(rig.dirs.home, '.cursor'));
	fs.mkdirSync(path.join(rig.dirs.home, '.claude'));
	fs.writeFileSync(path.join(rig.dirs.home, '.claude', 'settings.json'), '{}\n');
	const before = tree(rig.dirs.home);
	const out = path.join(rig.dirs.root, 'setup.json');
	const run = `env -u AITERM_SESSION_ID ${setup} --json --clients cursor --server ${serverBinary()}`;
	for (const args of ['', '--uninstall', '--remove-cursor-parent-hooks', '--remove-claude-parent-hooks']) {
		const r = await c.run(id, `${run} ${args} > ${out}; echo "setup-rc=$?"`, { timeout: 30 });
		assert.match(r.text, /^setup-rc=1$/m, `aiterm-setup ${args}: ${r.text}`);
		const j = JSON.parse(fs.readFileSync(out, 'utf8'));
		assert.equal(j.error.code, 'REFUSED_IN_AITERM_PANE', `aiterm-setup ${args}: ${JSON.stringify(j)}`);
		assert.match(j.error.message, /an ancestor of this one, is the tmux server of Aiterm's state root/, j.error.message);
		assert.match(j.error.message, /a person's decision/);
		assert.match(j.error.message, /no option or variable overrides this/);
	}
	/* Out of the pane's process tree (setsid -f): its terminal still tells. */
	const rc = path.join(rig.dirs.root, 'setsid.rc');
	await c.run(id, `setsid -f sh -c '${run} > ${out} 2>&1; echo $? > ${rc}'`, { timeout: 30 });
	for (let i = 0; i < 300 && !fs.existsSync(rc); i++)
		await new Promise((res) => setTimeout(res, 100));
	assert.equal(fs.readFileSync(rc, 'utf8'), '1\n', fs.readFileSync(out, 'utf8'));
	const j = JSON.parse(fs.readFileSync(out, 'utf8'));
	assert.equal(j.error.code, 'REFUSED_IN_AITERM_PANE', JSON.stringify(j));
	assert.match(j.error.message, /this terminal, \/dev\/pts\/\d+, is a pane of the tmux server of Aiterm's state root/);
	/* --dry-run writes nothing and still runs in the pane. */
	const dry = await c.run(id, `${run} --dry-run > ${out}; echo "setup-rc=$?"`, { timeout: 60 });
	assert.match(dry.text, /^setup-rc=0$/m, dry.text);
	assert.equal(JSON.parse(fs.readFileSync(out, 'utf8')).clients[0].status, 'planned');
	assert.deepEqual(tree(rig.dirs.home), before, 'nothing was written in HOME');
	assert.equal(fs.readFileSync(path.join(rig.dirs.home, '.claude', 'settings.json'), 'utf8'), '{}\n');

	/*
	 * A person's own tmux is not Aiterm's, even with its socket named
	 * tmux.sock: --codex-steer enable there gets setup's own answer.
	 */
	const own = path.join(rig.dirs.root, 'own');
	fs.mkdirSync(own, { mode: 0o700 });
	const sock = path.join(own, 'tmux.sock');
	t.after(() => { require('node:child_process').spawnSync('tmux', ['-S', sock, 'kill-server']); });
	const ownRc = path.join(own, 'rc');
	require('node:child_process').execFileSync('tmux', ['-S', sock, '-f', '/dev/null', 'new-session', '-d',
		`${setup} --json --codex-steer enable --server ${serverBinary()} > ${out}; echo $? > ${ownRc}`],
	{ env: rig.env, cwd: rig.dirs.home });
	for (let i = 0; i < 300 && !fs.existsSync(ownRc); i++)
		await new Promise((res) => setTimeout(res, 100));
	const mine = JSON.parse(fs.readFileSync(out, 'utf8'));
	assert.ok(mine.error && mine.error.code !== 'REFUSED_IN_AITERM_PANE' && mine.aiterm, `not refused in a tmux of the user's: ${JSON.stringify(mine)}`);
});
