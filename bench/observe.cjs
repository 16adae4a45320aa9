#!/usr/bin/env node
'use strict';
/*
 * bench/observe.cjs: the time of one pty_observe (PTY-OBSERVE) of a
 * session holding 20 processes (bash, a node shim with sh and sleep below
 * it, and 16 background sleeps), measured as the JSON-RPC round trip over
 * the server's stdio, with and without an activity cursor.
 *
 *   node bench/observe.cjs [--builddir=DIR] [--srcdir=DIR] [--json] [--runs=N]
 *
 * It prints figures; it is not a test.  The processes it starts are ended
 * by their PIDs (read from the observation), then the rig's private tmux
 * server by its PID.
 */
const fs = require('node:fs');
const path = require('node:path');
const { paths, makeRig, quantile, delay } = require('./lib/mcp.cjs');

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const runsArg = argv.find((a) => a.startsWith('--runs='));
const RUNS = runsArg ? Number(runsArg.slice(7)) : 200;
const WANT = 20;

const SHIM = `require('node:child_process').spawn('/bin/sh', ['-c', 'sleep 600; true'],
	{ stdio: 'inherit' }).on('exit', (c) => process.exit(c === null ? 1 : c));
`;

function stats(xs) {
	return {
		n: xs.length, min: Math.min(...xs), p50: quantile(xs, 0.5),
		p90: quantile(xs, 0.9), p99: quantile(xs, 0.99),
	};
}

const r3 = (x) => Math.round(x * 1000) / 1000;

async function main() {
	const p = paths(argv);
	const rig = makeRig(p);
	const started = [];
	const out = { server: p.server, node: process.version, runs: RUNS };
	try {
		const s = rig.spawn();
		/* It reads process counts and identities: the structured result. */
		await s.initialize({ structured: true });
		const o = await s.call('pty_open', { shell: 'bash', cwd: rig.dirs.home });
		rig.noteAttach(o.sc);
		const id = o.sc.session_id;
		fs.writeFileSync(path.join(rig.dirs.home, 'shim.cjs'), SHIM);
		await s.call('pty_send', { session_id: id, text: 'for i in $(seq 16); do sleep 600 & done', wait: true, timeout: 10 });
		await s.call('pty_send', { session_id: id, text: 'node shim.cjs' });
		let obs;
		for (let i = 0; i < 100; i++) {
			obs = await s.call('pty_observe', { session_id: id });
			if (obs.sc.processes >= WANT && obs.sc.harness.identity)
				break;
			await delay(50);
		}
		out.processes = obs.sc.processes;
		for (const l of obs.sc.launches)
			if (l.identity)
				started.push(l.identity.pid);
		if (obs.sc.processes !== WANT)
			throw new Error(`the session holds ${obs.sc.processes} processes, not ${WANT}`);
		for (let i = 0; i < 10; i++)
			await s.call('pty_observe', { session_id: id });
		const plain = [], withCursor = [];
		let cursor = obs.sc.cursor;
		for (let i = 0; i < RUNS; i++) {
			plain.push((await s.call('pty_observe', { session_id: id })).ms);
			const r = await s.call('pty_observe', { session_id: id, cursor });
			withCursor.push(r.ms);
			cursor = r.sc.cursor;
		}
		out.observe_ms = stats(plain);
		out.observe_cursor_ms = stats(withCursor);
		out.cursor_bytes = Buffer.byteLength(cursor);
		out.result_bytes = Buffer.byteLength(JSON.stringify(obs.result));
	} finally {
		for (const pid of started) {
			try { process.kill(pid, 'SIGTERM'); } catch { /* gone */ }
		}
		await rig.cleanup();
	}
	if (json) {
		process.stdout.write(JSON.stringify(out) + '\n');
		return;
	}
	const row = (name, st) => console.log(`${name.padEnd(28)} p50 ${r3(st.p50)} ms  p90 ${r3(st.p90)} ms  p99 ${r3(st.p99)} ms  min ${r3(st.min)} ms  n=${st.n}`);
	console.log(`pty_observe, ${out.processes} processes in the session (${out.node})`);
	row('pty_observe', out.observe_ms);
	row('pty_observe with cursor', out.observe_cursor_ms);
	console.log(`cursor ${out.cursor_bytes} bytes, result ${out.result_bytes} bytes`);
}

main().catch((e) => {
	process.stderr.write(`${e.stack || e}\n`);
	process.exit(1);
});
