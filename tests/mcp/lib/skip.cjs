'use strict';
/*
 * Named skips.  A test that cannot run here skips with a reason that starts
 * with a short name ("no-sshd: ...", "not-root: ...").  tests/mcp/run.sh
 * counts the skips and fails on any whose name AITERM_ALLOW_SKIPS (a comma-
 * separated list of names, or "all") does not allow (README, "Tests").
 */
const fs = require('node:fs');
const path = require('node:path');

/* The absolute path of a program on PATH, or null. */
function which(name) {
	for (const d of (process.env.PATH || '/usr/bin:/bin').split(':')) {
		const p = path.join(d, name);
		try {
			fs.accessSync(p, fs.constants.X_OK);
			return p;
		} catch { /* next */ }
	}
	return null;
}

/* The reason a test is skipped for: "<name>: <why>". */
function skipReason(name, why) {
	if (!/^[a-z0-9][a-z0-9-]*$/.test(name))
		throw new Error(`bad skip name '${name}'`);
	return `${name}: ${why}`;
}

/* Skips the running test t with a named reason. */
function skip(t, name, why) {
	t.skip(skipReason(name, why));
}

/*
 * The program's path; when it is missing, t is skipped as "no-<program>"
 * and null returned.
 */
function needProgram(t, program) {
	const p = which(program);
	if (!p)
		skip(t, `no-${program}`, `${program} is not installed`);
	return p;
}

module.exports = { which, skip, skipReason, needProgram };
