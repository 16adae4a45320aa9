#!/usr/bin/env node
'use strict';
/*
 * tee.cjs LOG -- SERVER [ARGS...]: runs the MCP server with its stdio
 * passed through untouched, appending what the client writes to LOG.in
 * and what the server answers to LOG.out (newline-delimited JSON-RPC), so
 * a test can compare what a real client showed the model with the result
 * the server sent.  Exits with the server's status; a signal to this
 * process is passed on to the server.
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
const child = spawn(cmd, args, { stdio: ['pipe', 'pipe', 'inherit'] });
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
child.on('exit', (code, signal) => {
	fs.closeSync(fd);
	fs.closeSync(fdIn);
	process.exit(code === null ? 128 + (require('node:os').constants.signals[signal] || 0) : code);
});
