'use strict';
/*
 * Issue 37: the suites do not depend on the stdin they are run with.
 * Codex's `codex exec` appends whatever its stdin holds to the prompt
 * ("Reading additional input from stdin...") and waits for its end, so a
 * child that got the caller's stdin, a pipe left open, would hang there.
 * Every run.sh gives its children /dev/null; this runs the suite runner
 * itself, for the Codex model-view test alone, with a pipe on its stdin
 * that stays open until it has ended, and it must pass.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { spawn } = require('node:child_process');

const MS = 480000;

test('issue 37: run.sh passes the Codex model-view test with an open pipe on its stdin', { timeout: MS + 20000 }, async () => {
	const env = Object.assign({}, process.env, {
		CLIENTS_TESTS: 'model-view',
		CLIENTS_PATTERN: '^Codex CLI: every tool result',
	});
	/* Else the inner node --test takes itself for a test file's and runs nothing. */
	delete env.NODE_TEST_CONTEXT;
	const child = spawn('/bin/sh', [path.join(__dirname, 'run.sh')], {
		env,
		stdio: ['pipe', 'pipe', 'pipe'],
		detached: true,
	});
	let out = '';
	child.stdout.setEncoding('utf8');
	child.stderr.setEncoding('utf8');
	child.stdout.on('data', (s) => { out += s; });
	child.stderr.on('data', (s) => { out += s; });
	/* Open, never ended while the run lasts (run.sh lets go of it at once). */
	child.stdin.on('error', () => { /* no reader left: what run.sh should do */ });
	const timer = setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, MS);
	const [code, signal] = await new Promise((resolve) => child.on('close', (c, s) => resolve([c, s])));
	clearTimeout(timer);
	child.stdin.destroy();
	assert.equal(signal, null, `run.sh was killed after ${MS} ms: ${out.slice(-3000)}`);
	assert.equal(code, 0, out.slice(-3000));
	assert.match(out, /✔ Codex CLI: every tool result/, out.slice(-3000));
	assert.match(out, /ℹ pass 1\n/, out.slice(-3000));
	assert.match(out, /ℹ fail 0\n/, out.slice(-3000));
});
