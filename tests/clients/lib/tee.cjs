#!/usr/bin/env node
'use strict';
/*
 * tee.cjs LOG -- SERVER [ARGS...]: runs the MCP server with its stdio
 * passed through untouched, appending what the client writes to LOG.in
 * and what the server answers to LOG.out (newline-delimited JSON-RPC), so
 * a test can compare what a real client showed the model with the result
 * the server sent.  The server's stderr goes to LOG.err and its end to
 * LOG.exit ({"code":N,"signal":null}), both written by a shell that is
 * the server's parent in a process group of its own: a client that
 * SIGKILLs this process when it quits (Codex does) or its whole group
 * does not stop them, the server still gets EOF, ends, and its end is
 * recorded, so the test can fail on a crash, a bad status or a
 * sanitizer report.  The shell's PID goes to LOG.keeper (and the name of
 * any other signal that ends it), so a test that sees no end can look at
 * the server under it.  Exits with the server's
 * status; a signal to this process is passed on to the server's group.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');

const [log, sep, cmd, ...args] = process.argv.slice(2);
if (!log || sep !== '--' || !cmd) {
	process.stderr.write('usage: tee.cjs LOG -- SERVER [ARGS...]\n');
	process.exit(2);
}
const fdIn = fs.openSync(`${log}.in`, 'a', 0o600);
const fd = fs.openSync(`${log}.out`, 'a', 0o600);
fs.closeSync(fs.openSync(`${log}.err`, 'a', 0o600));
/* The keeper outlives a signal to the group: the server gets it, not sh. */
const keeper = 'trap : INT TERM HUP; echo $$ >"$AITERM_TEE_LOG.keeper"; ' +
	'for s in QUIT USR1 USR2 ALRM PIPE; do trap "echo $s >>\\"\\$AITERM_TEE_LOG.keeper\\"; exit 99" $s; done; ' +
	'"$@" 2>>"$AITERM_TEE_LOG.err"; s=$?; ' +
	'printf \'{"code":%d,"signal":null}\' "$s" >"$AITERM_TEE_LOG.exit.tmp" && ' +
	'mv "$AITERM_TEE_LOG.exit.tmp" "$AITERM_TEE_LOG.exit"; exit "$s"';
const child = spawn('/bin/sh', ['-c', keeper, 'tee-keeper', cmd, ...args], {
	stdio: ['pipe', 'pipe', 'inherit'], detached: true,
	env: Object.assign({}, process.env, { AITERM_TEE_LOG: log }),
});
process.stdin.on('data', (buf) => {
	fs.writeSync(fdIn, buf);
	child.stdin.write(buf);
});
process.stdin.on('end', () => child.stdin.end());
child.stdin.on('error', () => { /* the server is gone: its exit is reported */ });
child.stdout.on('data', (buf) => {
	fs.writeSync(fd, buf);
	process.stdout.write(buf);
});
for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'])
	process.on(sig, () => { try { process.kill(-child.pid, sig); } catch { /* gone */ } });
child.on('close', (code, signal) => {
	fs.closeSync(fd);
	fs.closeSync(fdIn);
	process.exit(code === null ? 128 + (require('node:os').constants.signals[signal] || 0) : code);
});
