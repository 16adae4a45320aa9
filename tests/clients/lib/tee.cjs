#!/usr/bin/env node
'use strict';
/*
 * tee.cjs LOG -- SERVER [ARGS...]: runs the MCP server with its stdio
 * passed through untouched, appending what the client writes to LOG.in
 * and what the server answers to LOG.out (newline-delimited JSON-RPC), so
 * a test can compare what a real client showed the model with the result
 * the server sent.  The server's stderr goes to this process's stderr
 * and to LOG.err, and its end to LOG.exit ({"code":N,"signal":S}), so
 * the test can fail on a crash, a bad status or a sanitizer report.
 * Exits with the server's status; a signal to this process is passed on
 * to the server.
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
const fdErr = fs.openSync(`${log}.err`, 'a', 0o600);
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'pipe'] });
child.stderr.on('data', (buf) => {
	fs.writeSync(fdErr, buf);
	process.stderr.write(buf);
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
	process.on(sig, () => child.kill(sig));
child.on('close', (code, signal) => {
	fs.writeFileSync(`${log}.exit`, JSON.stringify({ code, signal }), { mode: 0o600 });
	fs.closeSync(fd);
	fs.closeSync(fdIn);
	fs.closeSync(fdErr);
	process.exit(code === null ? 128 + (require('node:os').constants.signals[signal] || 0) : code);
});
