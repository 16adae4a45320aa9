#!/usr/bin/env node
'use strict';
/*
 * bench/pipeline.cjs (issue 17, load): a client that does not wait.
 *  1. 1000 requests written at once (tools/call pty_read without wait
 *     and ping, alternating) on a session: all answered, in how long, the
 *     server's RSS before and after.
 *  2. The same 1000 while the client does not read stdout for 5 s: the
 *     server's RSS meanwhile (it must not grow without bound) and that
 *     every answer comes once the client reads again (no deadlock).
 *  3. 200 pty_read waits (until a text never printed, timeout 3600 s) cancelled with
 *     notifications/cancelled, five rounds: a ping is answered at once
 *     afterwards, no cancelled request is answered, RSS per round.
 *
 *   node bench/pipeline.cjs [--builddir=DIR] [--srcdir=DIR] [--json] [--n=1000]
 *
 * It prints figures; it is not a test.
 */
const { paths, makeRig, rssKb, now, delay } = require('./lib/mcp.cjs');

const argv = process.argv.slice(2);
const json = argv.includes('--json');
const nArg = argv.find((a) => a.startsWith('--n='));
const N = nArg ? Number(nArg.slice(4)) : 1000;
const WAITERS = 200;

function burst(s, id, n) {
	const ps = [];
	for (let i = 0; i < n; i++)
		ps.push(i % 2 === 0 ? s.request('tools/call', { name: 'pty_read', arguments: { session_id: id } }, 120000)
			: s.request('ping', {}, 120000));
	return ps;
}

async function main() {
	const p = paths(argv);
	const rig = makeRig(p);
	const out = { n: N };
	try {
		const s = rig.spawn();
		await s.initialize();
		const o = await s.call('pty_open', { name: 'p', shell: 'sh', cwd: rig.dirs.home });
		rig.noteAttach(o.sc);
		await s.call('pty_send', { session_id: 'p', text: 'seq 1 50', wait: true });

		out.rss_start_kb = rssKb(s.pid);
		let t0 = now();
		let answers = await Promise.all(burst(s, 'p', N));
		out.pipelined = {
			ms: Math.round(now() - t0), answered: answers.length,
			errors: answers.filter((a) => a.msg.error).length, rss_after_kb: rssKb(s.pid),
		};

		s.child.stdout.pause();
		t0 = now();
		const pending = burst(s, 'p', N);
		const rss = [];
		for (let i = 0; i < 10; i++) {
			await delay(500);
			rss.push(rssKb(s.pid));
		}
		s.child.stdout.resume();
		answers = await Promise.all(pending);
		out.not_reading_5s = {
			ms: Math.round(now() - t0), answered: answers.length,
			rss_while_kb: [Math.min(...rss), Math.max(...rss)], rss_after_kb: rssKb(s.pid),
		};

		/* Five rounds: freed waiters leave RSS flat from round to round. */
		out.cancel = { waiters: WAITERS, rounds: [] };
		for (let round = 0; round < 5; round++) {
			const ids = [];
			const late = [];
			for (let i = 0; i < WAITERS; i++) {
				ids.push(s.nextId);
				s.request('tools/call', { name: 'pty_read', arguments: { session_id: 'p', until: 'NEVER-PRINTED-$$', timeout: 3600 } }, 3600000)
					.then((r) => late.push(r), () => {});
			}
			await delay(500);
			const rssWaiting = rssKb(s.pid);
			for (const id of ids)
				s.notify('notifications/cancelled', { requestId: id, reason: 'bench' });
			t0 = now();
			await s.request('ping', {});
			const pingMs = now() - t0;
			await delay(1000);
			out.cancel.rounds.push({
				rss_waiting_kb: rssWaiting, ping_after_cancel_ms: Math.round(pingMs * 10) / 10,
				answered_after_cancel: late.length, rss_after_kb: rssKb(s.pid),
			});
			for (const id of ids) {
				const pend = s.pending.get(id);
				if (pend) {
					clearTimeout(pend.timer);
					s.pending.delete(id);
				}
			}
		}
	} finally {
		await rig.cleanup();
	}
	if (json)
		process.stdout.write(JSON.stringify(out, null, 1) + '\n');
	else
		console.log(JSON.stringify(out, null, 1));
}

main().catch((err) => { console.error(err); process.exit(1); });
