'use strict';
/*
 * The rig of the remote-host tests (REM-RELAY, REM-AUTH): a real sshd on
 * 127.0.0.1 (lib/sshd.cjs), ssh aliases for it in the rig's own ssh
 * config (AITERM_SSH_CONFIG), and the far side's aiterm-mcp: this
 * machine's, through a wrapper that gives it a state root, tmux socket
 * folder and HOME of its own, so a session opened there is not in the
 * local server's list.  Cleanup ends the far side's tmux server by its
 * PID, then removes its folder.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Rig } = require('./pty.cjs');
const { sshdUnavailable, fakeUserUnavailable, startSshd } = require('./sshd.cjs');
const { serverBinary, wrapperScript } = require('./server.cjs');
const { skip } = require('./skip.cjs');

/*
 * opts: mcp (AITERM_REMOTE_MCP, or a function of the far folder giving
 * it; default the wrapper), sshd (startSshd's
 * options; a function of the far folder for those that need it), prepare
 * (far) before sshd starts, ssh (extra lines for every alias), aliases
 * (more names for the same sshd), env (more variables for the local
 * server).
 * Returns { rig, c, sshd, far, farState } or null when skipped.
 */
async function remoteRig(t, opts = {}) {
	let why = sshdUnavailable();
	const far = path.join(os.tmpdir(), `aiterm-far-${process.pid}-${Date.now()}`);
	const sshdOpts = typeof opts.sshd === 'function' ? opts.sshd(far) : (opts.sshd || {});
	if (!why && sshdOpts.user)
		why = fakeUserUnavailable();
	if (why) {
		skip(t, sshdOpts.user ? 'not-root' : 'no-sshd', why);
		return null;
	}
	fs.mkdirSync(far, { mode: 0o700 });
	const rig = new Rig(t);
	let sshd;
	try {
		if (opts.prepare)
			opts.prepare(far);
		sshd = await startSshd(path.join(rig.dirs.root, 'sshd'), sshdOpts);
	} catch (e) {
		fs.rmSync(far, { recursive: true, force: true });
		throw e;
	}
	rig.cleanups.push(() => sshd.stop());
	const sshDir = path.join(rig.dirs.home, '.ssh');
	fs.mkdirSync(sshDir, { mode: 0o700 });
	fs.writeFileSync(path.join(sshDir, 'config'), ['far', ...(opts.aliases || [])].map((a) => [
		`Host ${a}`, '  HostName 127.0.0.1', `  Port ${sshd.port}`, `  User ${sshd.user}`, `  IdentityFile ${sshd.key}`,
		'  IdentitiesOnly yes', '  IdentityAgent none', '  StrictHostKeyChecking no', '  UserKnownHostsFile /dev/null',
		'  LogLevel ERROR', ...(opts.ssh || []).map((l) => `  ${l}`), ''].join('\n')).join(''), { mode: 0o600 });
	/* The far side: its own state root, tmux socket folder and HOME. */
	const farState = path.join(far, 'state');
	const wrapper = path.join(far, 'aiterm-mcp');
	const vars = { AITERM_STATE_DIR: farState, HOME: far, TMUX_TMPDIR: far, AITERM_PLUGIN_PATH: rig.env.AITERM_PLUGIN_PATH,
		AITERM_SYSTEM_PLUGINDIR: '', AITERM_SHELL_DIR: rig.env.AITERM_SHELL_DIR, XDG_STATE_HOME: path.join(far, 'xdg') };
	fs.writeFileSync(wrapper, wrapperScript(Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, v || ''])),
		[serverBinary()]), { mode: 0o755 });
	rig.env.AITERM_REMOTE_MCP = opts.mcp === undefined ? wrapper : typeof opts.mcp === 'function' ? opts.mcp(far) : opts.mcp;
	rig.env.AITERM_SSH_CONFIG = path.join(sshDir, 'config');
	Object.assign(rig.env, opts.env || {});
	rig.cleanups.push(() => {
		/* The far side's tmux server, by its PID (before its folder goes). */
		try {
			const pid = Number(execFileSync('tmux', ['-S', path.join(farState, 'tmux.sock'), 'display', '-p', '#{pid}'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
			if (pid > 0)
				process.kill(pid, 'SIGKILL');
		} catch { /* none */ }
		fs.rmSync(far, { recursive: true, force: true });
	});
	const c = await rig.server();
	return { rig, c, sshd, far, farState };
}

/* Our ssh processes: those whose command line names the rig's ControlPath. */
function sshProcs(rig) {
	const out = [];
	for (const p of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(p))
			continue;
		try {
			const cmd = fs.readFileSync(`/proc/${p}/cmdline`, 'utf8');
			if (cmd.startsWith('ssh\0') && cmd.includes(path.join(rig.dirs.state, 'ssh')))
				out.push(Number(p));
		} catch { /* gone */ }
	}
	return out;
}

module.exports = { remoteRig, sshProcs };
