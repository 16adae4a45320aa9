#!/usr/bin/env node
'use strict';
/*
 * bench/scale.cjs (issue 17, load): one server with 50 and with 500
 * sessions.  For each count, on a fresh state root: the time to open
 * them (pipelined), pty_list, pty_observe of one session, a round trip
 * (pty_send "true" with wait) on sessions spread over the set, and the
 * server's RSS (VmRSS) after.  The sessions run sh (dash with shell
 * integration), to keep 500 shells light on a small machine.
 *
 *   node bench/scale.cjs [--builddir=DIR] [--srcdir=DIR] [--json] [--counts=50,500] [--runs=N]
 *
 * It prints figures; it is not a test.  Each rig's tmux server is ended
 * by its PID at the end.
 */
const { paths, makeRig, rssKb, quantile, now } = require('./lib/mcp.cjs');

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const arg = (name, dflt) => {
	const a = argv.find((x) => x.startsWith(`--${name}=`));
	return a ? a.slice(name.length + 3) : dflt;
};
const COUNTS = arg('counts', '50,500').split(',').map(Number);
const RUNS = Number(arg('runs', '30'));

const stats = (xs) => ({
	n: xs.length, p50: r1(quantile(xs, 0.5)), p90: r1(quantile(xs, 0.9)),
	max: r1(Math.max(...xs)),
});
const r1 = (x) => Math.round(x * 10) / 10;

async function one(p, count) {
	const rig = makeRig(p);
	const out = { sessions: count };
	try {
		const s = rig.spawn();
		await s.initialize();
		out.rss_start_kb = rssKb(s.pid);
		const t0 = now();
		const opened = await Promise.all(Array.from({ length: count }, (_, i) =>
			s.call('pty_open', { name: `s${i}`, shell: 'sh', cwd: rig.dirs.home }, { timeoutMs: 600000 })));
		out.open_all_ms = r1(now() - t0);
		rig.noteAttach(opened[0].sc);
		const list = [];
		for (let i = 0; i < RUNS; i++)
			list.push((await s.call('pty_list', {})).ms);
		out.pty_list_ms = stats(list);
		const observe = [];
		for (let i = 0; i < RUNS; i++)
			observe.push((await s.call('pty_observe', { session_id: `s${(i * 7) % count}` })).ms);
		out.pty_observe_ms = stats(observe);
		const rt = [];
		for (let i = 0; i < RUNS; i++) {
			const r = await s.call('pty_send', { session_id: `s${(i * 13) % count}`, text: 'true', wait: true, timeout: 10 });
			if (r.sc.complete !== true)
				throw new Error(`round trip ${i} did not complete: ${r.text}`);
			rt.push(r.ms);
		}
		out.round_trip_ms = stats(rt);
		out.rss_end_kb = rssKb(s.pid);
	} finally {
		await rig.cleanup();
	}
	return out;
}

async function main() {
	const p = paths(argv);
	const results = [];
	for (const n of COUNTS)
		results.push(await one(p, n));
	const base = results[0];
	for (const r of results.slice(1))
		r.ratio_to_first = {
			pty_list_p50: r1(r.pty_list_ms.p50 / base.pty_list_ms.p50),
			pty_observe_p50: r1(r.pty_observe_ms.p50 / base.pty_observe_ms.p50),
			round_trip_p50: r1(r.round_trip_ms.p50 / base.round_trip_ms.p50),
		};
	if (json) {
		process.stdout.write(JSON.stringify({ server: p.server, runs: RUNS, results }, null, 1) + '\n');
		return;
	}
	for (const r of results) {
		console.log(`${r.sessions} sessions: open all ${r.open_all_ms} ms; pty_list p50 ${r.pty_list_ms.p50} p90 ${r.pty_list_ms.p90} ms; ` +
			`pty_observe p50 ${r.pty_observe_ms.p50} p90 ${r.pty_observe_ms.p90} ms; round trip p50 ${r.round_trip_ms.p50} p90 ${r.round_trip_ms.p90} ms; ` +
			`RSS ${r.rss_start_kb} -> ${r.rss_end_kb} KiB` + (r.ratio_to_first ? `; x${JSON.stringify(r.ratio_to_first)}` : ''));
	}
}

main().catch((err) => { console.error(err); process.exit(1); });
