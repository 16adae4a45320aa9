'use strict';
/*
 * A throw-away OpenSSH server on 127.0.0.1 for the nested-shell tests:
 * host and user keys made with ssh-keygen in the test's own directory, an
 * sshd_config that trusts only that user key, sshd -D -e as a child
 * process killed by its PID at the end.  Nothing outside that directory
 * is touched, except that sshd running as root needs its privilege
 * separation directory (/run/sshd): when it is missing, sshd runs in a
 * private mount namespace (unshare -m) with a tmpfs /run that holds it.
 *
 * Options (REM-AUTH, REM-RELAY tests): passphrase protects the user key
 * (given to ssh-keygen on its stdin's behalf through -N: the keygen has
 * ended before any test looks); user { name, home, shell, password } adds
 * a user of our uid that exists only in sshd's private mount namespace (a
 * copy of /etc/passwd and a one-line /etc/shadow bind-mounted over the real ones
 * there), with its own login shell, home and password: the machine's
 * real accounts are not touched.  Needs root (fakeUserUnavailable).
 * banner: text sshd prints before authentication (its Banner file), as a
 * real host's login banner (issue 34).
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');
const { delay } = require('./server.cjs');

const SSHD = '/usr/sbin/sshd';

/* Why sshd cannot run here, or null when it can. */
function sshdUnavailable() {
	if (!fs.existsSync(SSHD))
		return `${SSHD} is absent`;
	for (const p of ['ssh', 'ssh-keygen']) {
		try {
			execFileSync('sh', ['-c', `command -v ${p}`], { stdio: 'ignore' });
		} catch {
			return `${p} is not installed`;
		}
	}
	if (process.getuid && process.getuid() === 0 && !fs.existsSync('/run/sshd')) {
		try {
			execFileSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs tmpfs /run && mkdir /run/sshd'], { stdio: 'ignore', timeout: 5000 });
		} catch {
			return '/run/sshd is missing and no private mount namespace is available (unshare -m)';
		}
	}
	return null;
}

/* A TCP port free on 127.0.0.1 right now. */
function freePort() {
	return new Promise((resolve, reject) => {
		const s = net.createServer();
		s.unref();
		s.on('error', reject);
		s.listen(0, '127.0.0.1', () => {
			const { port } = s.address();
			s.close(() => resolve(port));
		});
	});
}

function canConnect(port) {
	return new Promise((resolve) => {
		const sock = net.connect({ host: '127.0.0.1', port });
		sock.once('connect', () => { sock.destroy(); resolve(true); });
		sock.once('error', () => resolve(false));
	});
}

/*
 * Starts sshd in dir (created).  Returns { port, key, user, sshCommand,
 * stop(), log() }.
 */
/* Why a namespace-only user cannot be made here, or null. */
function fakeUserUnavailable() {
	if (!process.getuid || process.getuid() !== 0)
		return 'a user of our own in sshd\'s mount namespace needs root (unshare -m, mount --bind)';
	try {
		execFileSync('unshare', ['-m', 'true'], { stdio: 'ignore', timeout: 5000 });
	} catch {
		return 'no private mount namespace (unshare -m)';
	}
	return null;
}

/* passwd and shadow copies with user added; the shell lines that mount them. */
function fakeUserMounts(dir, user) {
	const passwd = path.join(dir, 'passwd');
	const shadow = path.join(dir, 'shadow');
	const hash = user.password
		? execFileSync('openssl', ['passwd', '-6', '-stdin'], { input: user.password + '\n', encoding: 'utf8' }).trim()
		: '*';
	fs.writeFileSync(passwd, fs.readFileSync('/etc/passwd', 'utf8') +
		`${user.name}:x:${process.getuid()}:${process.getgid()}::${user.home}:${user.shell}\n`, { mode: 0o644 });
	/* Only that user's line: no copy of the real hashes. */
	fs.writeFileSync(shadow, `${user.name}:${hash}:19000:0:99999:7:::\n`, { mode: 0o600 });
	return `mount --bind '${passwd}' /etc/passwd && mount --bind '${shadow}' /etc/shadow && `;
}

async function startSshd(dir, opts = {}) {
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	const hostKey = path.join(dir, 'ssh_host_ed25519_key');
	const key = path.join(dir, 'id_ed25519');
	const auth = path.join(dir, 'authorized_keys');
	const cfg = path.join(dir, 'sshd_config');
	const pidFile = path.join(dir, 'sshd.pid');
	const banner = path.join(dir, 'banner');
	if (opts.banner)
		fs.writeFileSync(banner, opts.banner);
	execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'aiterm-test-host', '-f', hostKey], { stdio: 'ignore' });
	execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', opts.passphrase || '', '-C', 'aiterm-test-user', '-f', key], { stdio: 'ignore' });
	fs.copyFileSync(key + '.pub', auth);
	fs.chmodSync(auth, 0o600);
	const user = opts.user ? opts.user.name : require('node:os').userInfo().username;
	const mounts = opts.user ? fakeUserMounts(dir, opts.user) : '';
	let port = 0;
	let child = null;
	let log = '';
	for (let attempt = 0; attempt < 5 && !child; attempt++) {
		port = await freePort();
		fs.writeFileSync(cfg, [
			`Port ${port}`,
			'ListenAddress 127.0.0.1',
			`HostKey ${hostKey}`,
			`AuthorizedKeysFile ${auth}`,
			`PasswordAuthentication ${opts.user && opts.user.password ? 'yes' : 'no'}`,
			'KbdInteractiveAuthentication no',
			'PubkeyAuthentication yes',
			`PermitRootLogin ${opts.user ? 'yes' : 'prohibit-password'}`,
			'StrictModes no',
			'UsePAM no',
			`PidFile ${pidFile}`,
			'PrintMotd no',
			'PrintLastLog no',
			'UseDNS no',
			'LogLevel VERBOSE',
			...(opts.banner ? [`Banner ${banner}`] : []),
			'',
		].join('\n'));
		const argv = [SSHD, '-D', '-e', '-f', cfg];
		const noRun = process.getuid && process.getuid() === 0 && !fs.existsSync('/run/sshd');
		const needNs = noRun || opts.user;
		const run = noRun ? 'mount -t tmpfs tmpfs /run && mkdir -m 755 /run/sshd && ' : '';
		const p = needNs
			? spawn('unshare', ['-m', 'sh', '-c', `${mounts}${run}exec "$@"`, 'sh', ...argv], { stdio: ['ignore', 'ignore', 'pipe'] })
			: spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'ignore', 'pipe'] });
		p.stderr.setEncoding('utf8');
		p.stderr.on('data', (s) => { log += s; });
		let exited = false;
		p.on('exit', () => { exited = true; });
		const deadline = Date.now() + 5000;
		while (!exited && Date.now() < deadline && !(await canConnect(port)))
			await delay(50);
		if (!exited && await canConnect(port))
			child = p;
		else if (!exited)
			p.kill('SIGKILL');
	}
	if (!child)
		throw new Error(`sshd did not start:\n${log}`);
	return {
		port,
		key,
		user,
		log: () => log,
		sshCommand: `ssh -F /dev/null -i '${key}' -o BatchMode=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -p ${port} ${user}@127.0.0.1`,
		async stop() {
			if (child.exitCode !== null || child.signalCode !== null)
				return;
			const gone = new Promise((resolve) => child.once('exit', resolve));
			/* The listener's PID; its per-connection children exit with it. */
			child.kill('SIGTERM');
			await Promise.race([gone, delay(3000)]);
			if (child.exitCode === null && child.signalCode === null)
				child.kill('SIGKILL');
		},
	};
}

module.exports = { sshdUnavailable, fakeUserUnavailable, startSshd, SSHD };
