'use strict';
/*
 * tests/harness/lib/claude-parent.cjs: a Claude Code parent's HOME for the
 * DLV-CLAUDE suites: aiterm-setup registers Aiterm's server (a wrapper
 * that carries the rig's AITERM_*, XDG_* and TMUX_TMPDIR, since Claude
 * Code hands its MCP servers its own environment) and, with hooks, its
 * parent hooks, beside a hook of the user's that must stay first.
 *
 *   setupParent(rig, hooks) -> aiterm-setup's --json report
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const assert = require('node:assert/strict');
const { wrapperScript } = require('../../mcp/lib/server.cjs');

const BUILD = path.dirname(process.env.AITERM_MCP || path.join(process.env.top_builddir, 'aiterm-mcp'));

/* The parent's HOME: Aiterm registered (and, with hooks, its hooks) by aiterm-setup. */
function setupParent(rig, hooks) {
	const d = rig.dirs;
	const wrapper = path.join(d.bin, 'aiterm-mcp');
	const vars = Object.fromEntries(Object.entries(rig.env).filter(([k]) => /^(AITERM_|XDG_|TMUX_TMPDIR$)/.test(k)));
	fs.writeFileSync(wrapper, wrapperScript(vars, [path.join(BUILD, 'aiterm-mcp')]), { mode: 0o755 });
	fs.mkdirSync(path.join(d.home, '.claude'), { recursive: true });
	/* The user lets Aiterm's tools run without asking; theirs stays theirs. */
	fs.writeFileSync(path.join(d.home, '.claude', 'settings.json'), JSON.stringify({
		permissions: { allow: ['mcp__aiterm'] },
		hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'true' }] }] },
	}, null, 2));
	const out = execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--server', wrapper, '--clients', 'claude-code'],
		{ env: rig.env, encoding: 'utf8', timeout: 120000 });
	const r = JSON.parse(out);
	assert.equal(r.ok, true, out);
	if (!hooks)
		execFileSync(path.join(BUILD, 'aiterm-setup'), ['--json', '--server', wrapper, '--remove-claude-parent-hooks'],
			{ env: rig.env, encoding: 'utf8', timeout: 120000 });
	return r;
}

module.exports = { setupParent };
