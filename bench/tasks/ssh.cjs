'use strict';
/*
 * Task "ssh": ten commands in a project on an ssh host whose login shows
 * a realistic banner (sshd's Banner, before authentication) and message
 * of the day (PrintMotd, at an interactive login).  The host is a private
 * sshd on 127.0.0.1 (tests/mcp/lib/sshd.cjs) with a user "deploy" that
 * exists only in sshd's mount namespace (needs root), reached as
 * `ssh benchhost` through an ssh wrapper first on PATH that adds -F with
 * the bench's own ssh_config and known_hosts (the run's ~/.bash_profile
 * puts it there again for login shells, which reset PATH: tmux's, Codex's).
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { aiterm, shell, tmux, shq } = require('./ways.cjs');

const BANNER = [
	'*******************************************************************',
	'*                  Example Corp - web-prod-3                      *',
	'*  WARNING: Authorized access only. This system is the property   *',
	'*  of Example Corp. All activity on this host is monitored and    *',
	'*  logged. Unauthorized access is prohibited and will be          *',
	'*  prosecuted to the full extent of the law. Disconnect NOW if    *',
	'*  you are not an authorized user.                                *',
	'*******************************************************************',
	'',
].join('\n');

const MOTD = [
	'Welcome to Ubuntu 22.04.4 LTS (GNU/Linux 5.15.0-105-generic x86_64)',
	'',
	' * Documentation:  https://help.ubuntu.com',
	' * Management:     https://landscape.canonical.com',
	' * Support:        https://ubuntu.com/pro',
	'',
	'  System information as of Sun Dec  6 09:12:44 UTC 2026',
	'',
	'  System load:  0.42               Processes:             187',
	'  Usage of /:   61.3% of 78.19GB   Users logged in:       1',
	'  Memory usage: 37%                IPv4 address for eth0: 10.0.3.12',
	'  Swap usage:   0%',
	'',
	'Expanded Security Maintenance for Applications is not enabled.',
	'',
	'12 updates can be applied immediately.',
	'7 of these updates are standard security updates.',
	'To see these additional updates run: apt list --upgradable',
	'',
	'*** System restart required ***',
	'',
].join('\n');

/* The project on the host: path -> text. */
const APP = {
	VERSION: '2.4.1-rc3\n',
	'deploy.sh': '#!/bin/sh\nexec rsync -a bin/ /srv/app/bin/\n',
	Makefile: 'CFLAGS = -Wall -O1\nOBJ = build/main.o build/pool.o build/server.o\n\nbin/app: $(OBJ)\n\t@mkdir -p bin\n' +
		'\t$(CC) -o $@ $(OBJ)\n\nbuild/%.o: src/%.c\n\t@mkdir -p build\n\t$(CC) $(CFLAGS) -c $< -o $@\n',
	'src/main.c': '#include <stdio.h>\n#include <string.h>\nint pool_start(int);\nint serve(void);\n\nint\nmain(int argc, char **argv)\n{\n' +
		'\tif (argc > 1 && strcmp(argv[1], "--selftest") == 0) {\n' +
		'\t\tprintf("selftest: 11 passed, 1 failed\\n");\n' +
		'\t\tprintf("FAIL tz_offset: expected +01:00, got +00:00\\n");\n\t\treturn 1;\n\t}\n' +
		'\treturn pool_start(32) + serve();\n}\n',
	'src/pool.c': 'int\npool_start(int n)\n{\n\tint spare;\n\t/* TODO: drain queue before join */\n\treturn n > 0 ? 0 : 1;\n}\n',
	'src/server.c': 'int\nserve(void)\n{\n\treturn 0;\n}\n',
	'config/app.ini': '[server]\nlisten = 0.0.0.0:8080\nworkers = 4\n\n[db]\nhost = 10.0.3.7\nport = 5432\npool_size = 32\n',
	'logs/app.log': [
		'2026-12-06T09:01:02Z INFO  server: listening on 0.0.0.0:8080',
		'2026-12-06T09:01:02Z INFO  pool: 4 workers started',
		'2026-12-06T09:05:17Z WARN  db: slow query (1840 ms): SELECT * FROM orders',
		'2026-12-06T09:07:40Z INFO  server: 1200 requests/min',
		'2026-12-06T09:09:13Z ERROR db: connection refused (10.0.3.7:5432)',
		'2026-12-06T09:09:14Z INFO  db: reconnecting in 5 s',
		'',
	].join('\n'),
};

const COMMITS = ['Initial import', 'Add worker pool', 'Read config from app.ini', 'Fix race in worker pool shutdown', 'Bump version to 2.4.1-rc3'];

/* The task's commands: the table the ways are built from. */
const CMDS = [
	{ cmd: 'git status', secs: 1 },
	{ cmd: 'git log --oneline -5', secs: 1 },
	{ cmd: 'ls', secs: 1 },
	{ cmd: 'cat VERSION', secs: 1 },
	{ cmd: 'make', secs: 2 },
	{ cmd: './bin/app --selftest', secs: 1 },
	{ cmd: 'grep -rn TODO src', secs: 1 },
	{ cmd: 'tail -n 5 logs/app.log', secs: 1 },
	{ cmd: 'grep -n pool_size config/app.ini', secs: 1 },
	{ cmd: 'git diff --stat', secs: 1 },
];
const HOST = 'benchhost';

/* Writes the project into home/app as a git repository with one change left. */
function makeApp(home) {
	const app = path.join(home, 'app');
	fs.rmSync(app, { recursive: true, force: true });
	for (const [name, text] of Object.entries(APP)) {
		fs.mkdirSync(path.dirname(path.join(app, name)), { recursive: true });
		fs.writeFileSync(path.join(app, name), text, { mode: name.endsWith('.sh') ? 0o755 : 0o644 });
	}
	const env = { PATH: process.env.PATH, HOME: home, GIT_CONFIG_NOSYSTEM: '1', LC_ALL: 'C' };
	const git = (...a) => execFileSync('git', ['-c', 'user.name=Deploy', '-c', 'user.email=deploy@example.invalid', ...a], { cwd: app, env, stdio: 'ignore' });
	git('init', '-q');
	git('checkout', '-q', '-b', 'release/2.4');
	fs.writeFileSync(path.join(app, '.gitignore'), 'build/\nbin/\n');
	git('add', '.');
	for (const m of COMMITS)
		git('commit', '-q', '--allow-empty', '-m', m);
	fs.appendFileSync(path.join(app, 'src/server.c'), '/* keep-alive: 75 s */\nint keepalive = 75;\n');
}

module.exports = {
	name: 'ssh',
	title: 'ten commands on an ssh host with a login banner and MOTD',
	must_keep: ['On branch release/2.4', 'modified:   src/server.c', 'Fix race in worker pool shutdown', 'deploy.sh',
		'2.4.1-rc3', "unused variable 'spare'", '11 passed, 1 failed', 'FAIL tz_offset',
		'TODO: drain queue before join', 'ERROR db: connection refused (10.0.3.7:5432)', 'pool_size = 32',
		'1 file changed, 2 insertions(+)'],

	/* Why this task cannot run here, or null. */
	unavailable() {
		const { sshdUnavailable, fakeUserUnavailable } = require('../../tests/mcp/lib/sshd.cjs');
		return sshdUnavailable() || fakeUserUnavailable();
	},

	/*
	 * Once per bench run: the sshd, the user's home, the ssh_config and the
	 * ssh wrapper in root/bin (the bench puts that first on PATH).
	 */
	async setup(root) {
		const { startSshd } = require('../../tests/mcp/lib/sshd.cjs');
		const home = path.join(root, 'far-home');
		fs.mkdirSync(home, { recursive: true, mode: 0o755 });
		fs.writeFileSync(path.join(home, '.bashrc'), "PS1='\\u@web-prod-3:\\w\\$ '\n");
		fs.writeFileSync(path.join(home, '.bash_profile'), '. ~/.bashrc\n');
		const sshd = await startSshd(path.join(root, 'sshd'), {
			user: { name: 'deploy', home, shell: '/bin/bash' }, banner: BANNER, motd: MOTD,
		});
		const cfg = path.join(root, 'ssh_config');
		fs.writeFileSync(cfg, [`Host ${HOST}`, '  HostName 127.0.0.1', `  Port ${sshd.port}`, '  User deploy',
			`  IdentityFile ${sshd.key}`, '  IdentitiesOnly yes', `  UserKnownHostsFile ${path.join(root, 'known_hosts')}`,
			'  StrictHostKeyChecking accept-new', '  BatchMode yes', ''].join('\n'));
		const bin = path.join(root, 'bin');
		fs.mkdirSync(bin, { recursive: true });
		fs.writeFileSync(path.join(bin, 'ssh'), `#!/bin/sh\nexec /usr/bin/ssh -F ${shq(cfg)} "$@"\n`, { mode: 0o755 });
		/* The host key is known before the task, as on a host one uses. */
		execFileSync(path.join(bin, 'ssh'), [HOST, 'true'], { stdio: 'ignore', timeout: 20000 });
		return { home, bin, stop: () => sshd.stop() };
	},

	prepare(ctx) {
		makeApp(ctx.shared.home);
		fs.writeFileSync(path.join(ctx.home, '.bash_profile'), `PATH=${shq(ctx.shared.bin)}:$PATH\n`);
	},

	ways: {
		aiterm: (ctx) => [
			/* Open and log in in one call; cd goes with the first command; close ends ssh. */
			aiterm.open(ctx, { command: `ssh ${HOST}`, timeout: 20 }),
			...CMDS.map((c, i) => aiterm.run(i === 0 ? `cd app && ${c.cmd}` : c.cmd, { timeout: 30 })),
			aiterm.close(),
		],
		shell: (ctx, client) => CMDS.map((c) => shell(client, ctx, `ssh ${HOST} ${shq(`cd app && ${c.cmd}`)}`)),
		tmux: (ctx, client) => [
			shell(client, ctx, (x) => `${tmux.start(x)} && ${tmux.type(x, `ssh ${HOST}`)} && sleep 2 && ${tmux.send(x, 'cd app', 1)}`),
			...CMDS.map((c) => shell(client, ctx, (x) => tmux.send(x, c.cmd, c.secs))),
			shell(client, ctx, (x) => tmux.stop(x)),
		],
	},
};
