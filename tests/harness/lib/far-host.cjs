'use strict';
/*
 * tests/harness/lib/far-host.cjs: another host for the relayed agent
 * suites (REM-RELAY).  A real sshd on 127.0.0.1 (key auth, its own host
 * key and config: tests/mcp/lib/sshd.cjs) whose logins run the far
 * side's aiterm-mcp through a wrapper that gives it a far AgentRig's
 * environment (state root, HOME with Claude Code seeded, the CLIs on
 * PATH, the mock's URL in env), whatever sshd's session had; and, in the
 * local rig's HOME, the ssh config that reaches it as "far", named by
 * the local server's AITERM_SSH_CONFIG (AITERM_REMOTE_MCP: the wrapper).
 *
 *   const host = await startFarHost(localRig, { ANTHROPIC_BASE_URL: url });
 *   host.far (the far AgentRig), host.sshd; await host.stop() after the
 *   local server has ended.
 */
const fs = require('node:fs');
const path = require('node:path');
const { AgentRig, seedClaude } = require('./agent-rig.cjs');
const { startSshd } = require('../../mcp/lib/sshd.cjs');
const { serverBinary, wrapperScript } = require('../../mcp/lib/server.cjs');

async function startFarHost(local, env = {}) {
	const far = new AgentRig(null);
	let sshd = null;
	const stop = async () => {
		if (sshd)
			await sshd.stop();
		await far.cleanup();
	};
	try {
		seedClaude(far.dirs.home, far.dirs.work);
		Object.assign(far.env, env);
		sshd = await startSshd(path.join(far.dirs.root, 'sshd'));
		const wrapper = path.join(far.dirs.root, 'aiterm-mcp');
		const vars = Object.fromEntries(Object.entries(far.env).filter(([, v]) => typeof v === 'string'));
		fs.writeFileSync(wrapper, wrapperScript(vars, [serverBinary()], { cwd: far.dirs.home }), { mode: 0o755 });
		const sshDir = path.join(local.dirs.home, '.ssh');
		fs.mkdirSync(sshDir, { recursive: true, mode: 0o700 });
		fs.writeFileSync(path.join(sshDir, 'config'), ['Host far', '  HostName 127.0.0.1', `  Port ${sshd.port}`,
			`  User ${sshd.user}`, `  IdentityFile ${sshd.key}`, '  IdentitiesOnly yes',
			'  StrictHostKeyChecking no', '  UserKnownHostsFile /dev/null', '  LogLevel ERROR', ''].join('\n'),
			{ mode: 0o600 });
		local.env.AITERM_REMOTE_MCP = wrapper;
		local.env.AITERM_SSH_CONFIG = path.join(sshDir, 'config');
	} catch (e) {
		await stop();
		throw e;
	}
	return { far, sshd, stop };
}

module.exports = { startFarHost };
