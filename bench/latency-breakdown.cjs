#!/usr/bin/env node
'use strict';
/*
 * bench/latency-breakdown.cjs: where the time of one `true` round trip
 * (pty_send wait=true) goes on the server side, and its p50/p90 with the
 * state root on ext4 and on tmpfs, through a raw JSON-RPC client and
 * through the official MCP SDK client (issue 38).  Prints figures; it is
 * not a test and make check does not run it.
 *
 *   node bench/latency-breakdown.cjs [--builddir=DIR[,DIR2...]] [--srcdir=DIR]
 *       [--fs=ext4,tmpfs] [--client=raw,sdk] [--n=200] [--runs=3]
 *       [--no-breakdown] [--breakdown-n=30] [--json]
 *
 * Timing: for each run, each build tree (several given with commas run
 * alternately, A B A B ..., so that an A/B comparison sees the same load),
 * each file system and each client: one server, one bash session, 5 warm-up
 * round trips, then n timed ones; p50/p90 of each run and their medians.
 * ext4 is a state root under /var/tmp ($AITERM_BENCH_EXT4 to change it),
 * tmpfs one under /dev/shm ($AITERM_BENCH_TMPFS); the file system actually
 * found there is printed.
 *
 * Breakdown: the first build tree's server is traced with strace -f -ttt
 * (all its threads, the muxjob worker among them) over breakdown-n round
 * trips; each round trip is cut at the syscalls that mark its steps:
 * request read (stdin), send lock taken (link of send.lock), each tmux
 * command written to the control client and its %end read (how many,
 * each one's time), the text typed (send-keys done), the first read of
 * the output log after typing that holds bytes, the read that holds the
 * end mark (OSC 133 D), the last read of the log, the last state write,
 * the reply written (stdout); plus the fsync, rename and link/unlink
 * counts and their time.  strace slows every syscall, so its times are
 * larger than the untraced ones: read them as where the time goes, and
 * the timing table for what a client sees.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { paths, makeRig, quantile, now, delay } = require('./lib/mcp.cjs');
const { parseText } = require('../tests/mcp/lib/textview.cjs');

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
	const a = argv.find((x) => x.startsWith(`--${name}=`));
	return a ? a.slice(name.length + 3) : dflt;
};
const JSON_OUT = argv.includes('--json');
const N = Number(opt('n', 200));
const RUNS = Number(opt('runs', 3));
const BN = Number(opt('breakdown-n', 30));
const BREAKDOWN = !argv.includes('--no-breakdown');
const FSES = opt('fs', 'ext4,tmpfs').split(',');
const CLIENTS = opt('client', 'raw,sdk').split(',');
const BUILDS = (opt('builddir', '') || '').split(',').filter(Boolean);
const WARMUP = 5;
const BASE = {
	ext4: process.env.AITERM_BENCH_EXT4 || '/var/tmp',
	tmpfs: process.env.AITERM_BENCH_TMPFS || '/dev/shm',
};
const log = (s) => { if (!JSON_OUT) process.stderr.write(`${s}\n`); };

function fsType(dir) {
	const r = spawnSync('stat', ['-f', '-c', '%T', dir], { encoding: 'utf8' });
	return r.status === 0 ? r.stdout.trim() : '?';
}

/* The official SDK, from the test suite's node_modules (or NODE_PATH). */
function loadSdk(p) {
	const tries = [undefined, path.join(p.builddir, 'tests/mcp/node_modules'),
		path.join(p.srcdir, 'tests/mcp/node_modules')];
	for (const dir of tries) {
		try {
			const opts = dir ? { paths: [dir] } : undefined;
			const { Client } = require(require.resolve('@modelcontextprotocol/sdk/client/index.js', opts));
			const { StdioClientTransport } = require(require.resolve('@modelcontextprotocol/sdk/client/stdio.js', opts));
			return { Client, StdioClientTransport };
		} catch { /* next */ }
	}
	return null;
}

/* A rig whose temporary tree (state root) is under base. */
function rigUnder(p, base) {
	const saved = process.env.TMPDIR;
	process.env.TMPDIR = base;
	try {
		return makeRig(p);
	} finally {
		if (saved === undefined)
			delete process.env.TMPDIR;
		else
			process.env.TMPDIR = saved;
	}
}

/* { open(), send(id), pid, close() } over the raw client. */
async function rawClient(rig) {
	const s = rig.spawn();
	await s.initialize({});
	return {
		pid: s.pid,
		open: async () => (await s.call('pty_open', { cwd: rig.dirs.home })).sc.session_id,
		send: async (id) => {
			const r = await s.call('pty_send', { session_id: id, text: 'true', wait: true, timeout: 30 });
			return { ...r.sc, text: r.text };
		},
		close: () => s.stop(),
	};
}

/* The same over the SDK's Client and StdioClientTransport. */
async function sdkClient(rig, p, sdk) {
	const transport = new sdk.StdioClientTransport({ command: p.server, args: [], env: rig.env, stderr: 'pipe' });
	const client = new sdk.Client({ name: 'aiterm-bench', version: '0' }, { capabilities: {} });
	await client.connect(transport);
	const call = async (name, args) => {
		const r = await client.callTool({ name, arguments: args });
		const text = (r.content || []).map((c) => c.text || '').join('\n');
		if (r.isError)
			throw new Error(`${name}: ${text}`);
		return { r, text };
	};
	return {
		pid: transport.pid,
		open: async () => {
			const { r, text } = await call('pty_open', { cwd: rig.dirs.home });
			const m = (r.structuredContent && r.structuredContent.session_id) || (text.match(/\bpty-[0-9a-f]+\b/) || [])[0];
			if (!m)
				throw new Error(`pty_open: no session id in ${text}`);
			return m;
		},
		send: async (id) => {
			const args = { session_id: id, text: 'true', wait: true, timeout: 30 };
			const { r, text } = await call('pty_send', args);
			return { ...(r.structuredContent || parseText('pty_send', text, args)), text };
		},
		close: () => client.close(),
	};
}

async function timedRun(p, fsName, clientName, sdk) {
	const rig = rigUnder(p, BASE[fsName]);
	try {
		const c = clientName === 'sdk' ? await sdkClient(rig, p, sdk) : await rawClient(rig);
		const id = await c.open();
		const times = [];
		const odd = [];
		for (let i = 0; i < N + WARMUP; i++) {
			const t0 = now();
			const sc = await c.send(id);
			const dt = now() - t0;
			if (sc.complete !== true || sc.exit_code !== 0)
				throw new Error(`true: not complete: ${JSON.stringify(sc).slice(0, 300)}`);
			/* What the model reads of `true`: nothing but its status. */
			if (sc.text !== undefined && sc.text !== 'exit 0')
				odd.push(sc.text);
			if (i >= WARMUP)
				times.push(dt);
		}
		await c.close();
		if (odd.length)
			log(`note: ${p.builddir} ${fsName} ${clientName}: ${odd.length} of ${N + WARMUP} \`true\` round trips read more than "exit 0", e.g. ${JSON.stringify(odd[0])}`);
		return { p50: quantile(times, 0.5), p90: quantile(times, 0.9), odd: odd.length };
	} finally {
		await rig.cleanup();
	}
}

/* One strace line: { tid, t (s), call, fd, rest, ret, dur (s) }. */
function parseLine(line, pending) {
	let m = line.match(/^(\d+)\s+(\d+\.\d+)\s+(.*)$/);
	if (!m)
		return null;
	const tid = m[1];
	const t = Number(m[2]);
	let body = m[3];
	if (body.endsWith('<unfinished ...>')) {
		pending.set(tid, { t, head: body.slice(0, -'<unfinished ...>'.length) });
		return null;
	}
	const rm = body.match(/^<\.\.\. (\w+) resumed>(.*)$/);
	let t0 = t;
	if (rm) {
		const p = pending.get(tid);
		pending.delete(tid);
		if (!p)
			return null;
		body = p.head + rm[2];
		t0 = p.t;
	}
	m = body.match(/^(\w+)\((.*)\)\s+=\s+(-?\d+|\?)[^<]*(?:<(\d+\.\d+)>)?\s*$/s);
	if (!m)
		return null;
	const dur = m[4] ? Number(m[4]) : 0;
	return { tid, t: t0, end: t0 + dur, call: m[1], args: m[2], ret: Number(m[3]), dur };
}

/* Cut a trace into round trips and name their steps. */
function analyse(text) {
	const pending = new Map();
	const evs = [];
	for (const line of text.split('\n')) {
		const e = parseLine(line, pending);
		if (e)
			evs.push(e);
	}
	const trips = [];
	let cur = null;
	for (const e of evs) {
		if (e.call === 'read' && /^0</.test(e.args) && /pty_send/.test(e.args)) {
			cur = { t0: e.end, evs: [] };
			continue;
		}
		if (!cur)
			continue;
		if (e.call === 'write' && /^1</.test(e.args)) {
			cur.reply = e.end;
			trips.push(cur);
			cur = null;
			continue;
		}
		cur.evs.push(e);
	}
	return trips.map(stepsOf);
}

function stepsOf(trip) {
	const ms = (t) => (t - trip.t0) * 1000;
	const out = { reply_written: ms(trip.reply), tmux: [], fsync: 0, fsync_ms: 0, rename: 0, rename_ms: 0,
		link_unlink: 0, state_writes: 0, log_reads: 0 };
	let typed = null;
	let lastWrite = null;
	let firstSyscall = null;
	for (const e of trip.evs) {
		if (firstSyscall === null)
			firstSyscall = ms(e.t);
		if (e.call === 'link' && /send\.lock"/.test(e.args) && out.send_lock === undefined)
			out.send_lock = ms(e.end);
		if (e.call === 'write' && /<pipe:/.test(e.args) && /^\d+<pipe:\[\d+\]>, "'/.test(e.args)) {
			const cmds = [...e.args.matchAll(/(?:^\d+<pipe:\[\d+\]>, "|; )'([a-z-]+)'/g)].map((x) => x[1]);
			out.tmux.push({ cmds, t: ms(e.t), pipe: e.args.match(/<pipe:\[(\d+)\]>/)[1] });
		}
		if (e.call === 'read' && /<pipe:/.test(e.args) && /%end/.test(e.args)) {
			const open = out.tmux.find((x) => x.done === undefined);
			if (open) {
				open.done = ms(e.end);
				if (open.cmds.includes('send-keys'))
					typed = open.done;
			}
		}
		if (/^(fsync|fdatasync)$/.test(e.call)) {
			out.fsync++;
			out.fsync_ms += e.dur * 1000;
		}
		if (/^rename/.test(e.call)) {
			out.rename++;
			out.rename_ms += e.dur * 1000;
			lastWrite = ms(e.end);
			out.state_writes++;
		}
		if (/^(link|unlink)/.test(e.call))
			out.link_unlink++;
		if (/^p?read(64)?$/.test(e.call) && /output\.log>/.test(e.args) && e.ret > 0) {
			out.log_reads++;
			if (typed !== null && out.first_output === undefined)
				out.first_output = ms(e.end);
			if (typed !== null && out.end_mark === undefined && /133;D/.test(e.args))
				out.end_mark = ms(e.end);
			out.log_read_last = ms(e.end);
		}
	}
	out.request_parsed = firstSyscall;
	out.typed = typed;
	out.last_state_write = lastWrite;
	out.tmux_count = out.tmux.length;
	out.tmux_ms = out.tmux.map((x) => x.done - x.t);
	out.tmux_cmds = out.tmux.map((x) => x.cmds.join('+'));
	delete out.tmux;
	return out;
}

function median(xs) {
	const v = xs.filter((x) => typeof x === 'number' && Number.isFinite(x));
	return v.length ? quantile(v, 0.5) : null;
}

async function breakdown(p, fsName) {
	if (spawnSync('strace', ['-V']).status !== 0)
		return { skipped: 'strace is not installed' };
	const rig = rigUnder(p, BASE[fsName]);
	const tracePath = path.join(rig.dirs.root, 'trace.txt');
	let st = null;
	try {
		const c = await rawClient(rig);
		const id = await c.open();
		for (let i = 0; i < WARMUP; i++)
			await c.send(id);
		st = spawn('strace', ['-f', '-ttt', '-T', '-s', '400', '-yy', '-o', tracePath, '-p', String(c.pid)], { stdio: 'ignore' });
		await delay(1000);
		for (let i = 0; i < BN; i++)
			await c.send(id);
		st.kill('SIGINT');
		await new Promise((r) => st.on('exit', r));
		st = null;
		await c.close();
		const trips = analyse(fs.readFileSync(tracePath, 'utf8'));
		const keys = ['request_parsed', 'send_lock', 'typed', 'first_output', 'end_mark', 'log_read_last',
			'last_state_write', 'reply_written', 'tmux_count', 'fsync', 'fsync_ms', 'rename', 'rename_ms',
			'link_unlink', 'state_writes', 'log_reads'];
		const med = Object.fromEntries(keys.map((k) => [k, median(trips.map((t) => t[k]))]));
		const cmds = trips.length ? trips[Math.floor(trips.length / 2)].tmux_cmds : [];
		med.tmux = cmds.map((c, i) => ({ cmds: c, ms: median(trips.map((t) => t.tmux_ms[i])) }));
		return { n: trips.length, median: med };
	} finally {
		if (st)
			st.kill('SIGKILL');
		await rig.cleanup();
	}
}

const r2 = (x) => (typeof x === 'number' ? Math.round(x * 100) / 100 : x);

async function main() {
	const builds = (BUILDS.length ? BUILDS : [undefined]).map((b) => paths(b ? [`--builddir=${b}`, ...argv.filter((a) => a.startsWith('--srcdir'))] : argv));
	const sdk = loadSdk(builds[0]);
	const clients = CLIENTS.filter((c) => c !== 'sdk' || sdk);
	if (CLIENTS.includes('sdk') && !sdk)
		log('note: @modelcontextprotocol/sdk not found (run make check TESTS=tests/mcp/run.sh once): SDK rows left out');
	const out = { load: os.loadavg().map(r2), cpus: os.cpus().length, fs: {}, timing: [], breakdown: {} };
	for (const f of FSES)
		out.fs[f] = `${BASE[f]} (${fsType(BASE[f])})`;
	const acc = {};
	for (let r = 0; r < RUNS; r++)
		for (const p of builds)
			for (const f of FSES)
				for (const c of clients) {
					const key = `${p.builddir}|${f}|${c}`;
					const x = await timedRun(p, f, c, sdk);
					(acc[key] = acc[key] || []).push(x);
					log(`run ${r + 1}/${RUNS} ${p.builddir} ${f} ${c}: p50 ${r2(x.p50)} ms, p90 ${r2(x.p90)} ms`);
				}
	for (const [key, xs] of Object.entries(acc)) {
		const [build, f, c] = key.split('|');
		out.timing.push({ build, fs: f, client: c, n: N, odd: xs.reduce((a, x) => a + x.odd, 0),
			runs: xs.map((x) => ({ p50: r2(x.p50), p90: r2(x.p90) })),
			p50: r2(median(xs.map((x) => x.p50))), p90: r2(median(xs.map((x) => x.p90))) });
	}
	if (BREAKDOWN)
		for (const f of FSES)
			out.breakdown[f] = await breakdown(builds[0], f);
	out.load_after = os.loadavg().map(r2);
	return out;
}

function print(o) {
	console.log(`load average ${o.load.join(' ')} -> ${o.load_after.join(' ')} on ${o.cpus} CPUs; state roots: ${Object.entries(o.fs).map(([k, v]) => `${k} ${v}`).join(', ')}`);
	console.log('\n`true` round trip (pty_send wait=true), ms: median of the runs\' p50 and p90 [each run p50/p90]');
	for (const t of o.timing)
		console.log(`  ${t.build} ${t.fs.padEnd(5)} ${t.client.padEnd(3)}  p50 ${String(t.p50).padStart(6)}  p90 ${String(t.p90).padStart(6)}  n=${t.n} [${t.runs.map((x) => `${x.p50}/${x.p90}`).join(' ')}]${t.odd ? `, ${t.odd} read more than "exit 0"` : ''}`);
	for (const [f, b] of Object.entries(o.breakdown)) {
		if (b.skipped) {
			console.log(`\nbreakdown (${f}): ${b.skipped}`);
			continue;
		}
		const m = b.median;
		console.log(`\nbreakdown under strace, ${f}, median of ${b.n} round trips (ms from the request read):`);
		const rows = [['request parsed (first syscall after it)', m.request_parsed], ['send lock taken', m.send_lock],
			['text typed (send-keys done)', m.typed], ['first output byte read', m.first_output],
			['end mark read', m.end_mark], ['last log read', m.log_read_last],
			['last state write (rename)', m.last_state_write], ['reply written', m.reply_written]];
		for (const [k, v] of rows)
			console.log(`  ${k.padEnd(42)} ${v === null ? '-' : r2(v)}`);
		console.log(`  tmux commands: ${m.tmux_count} (${m.tmux.map((x) => `${x.cmds} ${r2(x.ms)} ms`).join(', ')})`);
		console.log(`  per round trip: fsync ${m.fsync} (${r2(m.fsync_ms)} ms), rename ${m.rename} (${r2(m.rename_ms)} ms), link+unlink ${m.link_unlink}, output.log reads ${m.log_reads}`);
	}
}

main().then((o) => {
	if (JSON_OUT)
		console.log(JSON.stringify(o, null, 2));
	else
		print(o);
}, (e) => {
	console.error(`bench/latency-breakdown: ${e.stack || e.message}`);
	process.exit(1);
});
