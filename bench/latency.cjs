#!/usr/bin/env node
'use strict';
/*
 * bench/latency.cjs: latency, memory and token figures of aiterm-mcp,
 * measured over raw newline-delimited JSON-RPC on its stdio (no SDK).
 * Prints figures; it is not a test and make check does not run it.
 *
 *   node bench/latency.cjs [--builddir=DIR] [--srcdir=DIR] [--json] [--quick]
 *                          [--structured]
 *
 * --quick runs fewer iterations (for a smoke run).  The remote rows
 * (REM-RELAY) relay the same round trip over ssh to a throw-away sshd on
 * 127.0.0.1 (tests/mcp/lib/sshd.cjs) whose far aiterm-mcp is this one
 * with a state root of its own; --no-remote leaves them out, and they are
 * left out with a note where sshd cannot run.  Token figures count
 * what each real client hands the model (tests/mcp/lib/views.cjs,
 * checked against the real clients in tests/clients/); --structured asks
 * for structuredContent, to measure what the clients would show then.
 * See bench/README.md.
 */
const { paths, makeRig, rssKb, quantile, now, views } = require('./lib/mcp.cjs');
const tokens = require('./lib/tokens.cjs');

const argv = process.argv.slice(2);
const JSON_OUT = argv.includes('--json');
const QUICK = argv.includes('--quick');
/* Ask for structuredContent: what the clients would show the model then. */
const STRUCTURED = argv.includes('--structured');
const REMOTE = !argv.includes('--no-remote');
const N_SPAWN = QUICK ? 5 : 20;
const N_OPEN = QUICK ? 5 : 20;
const N_RT = QUICK ? 10 : 100;
const N_LIST = QUICK ? 5 : 20;
const N_SESSIONS = 50;
const WARMUP = 3;

const notes = [];	/* anything the server did that looks wrong */
const note = (s) => { notes.push(s); if (!JSON_OUT) process.stderr.write(`note: ${s}\n`); };

const stats = (xs) => ({
	n: xs.length,
	p50: quantile(xs, 0.5),
	p90: quantile(xs, 0.9),
	min: Math.min(...xs),
	max: Math.max(...xs),
});
const r1 = (x) => (Number.isFinite(x) ? Math.round(x * 10) / 10 : x);
const round = (o) => JSON.parse(JSON.stringify(o, (k, v) => (typeof v === 'number' ? r1(v) : v)));

async function coldStart(rig) {
	const times = [];
	let initLine = null;
	for (let i = 0; i < N_SPAWN; i++) {
		const t0 = now();
		const s = rig.spawn();
		const r = await s.initialize({ structured: STRUCTURED });	/* written right after spawn */
		times.push(r.t - t0);
		initLine = r.line;
		await s.stop();
	}
	return { ...stats(times), initialize_reply_bytes: Buffer.byteLength(initLine) };
}

/* Round trip of cmd, n times, through one of the two forms (extra: more arguments, e.g. remote). */
async function roundTrips(s, id, cmd, form, n, extra = {}) {
	const times = [];
	const vias = {};
	let last = null;
	for (let i = 0; i < n + WARMUP; i++) {
		const t0 = now();
		let res;
		if (form === 'one-call') {
			res = await s.call('pty_send', { ...extra, session_id: id, text: cmd, wait: true, timeout: 30 });
			last = { texts: [res.text], results: [res.result], views: [res.views] };
		} else {
			const a = await s.call('pty_send', { ...extra, session_id: id, text: cmd, wait: false });
			res = await s.call('pty_read', { ...extra, session_id: id, wait: true, timeout: 30 });
			last = { texts: [a.text, res.text], results: [a.result, res.result], views: [a.views, res.views] };
		}
		const dt = now() - t0;
		if (i < WARMUP)
			continue;
		times.push(dt);
		const v = `${res.sc.via}${res.sc.complete === true ? '' : '(incomplete)'}`;
		vias[v] = (vias[v] || 0) + 1;
		if (res.sc.complete !== true || res.sc.exit_code !== 0)
			if (!vias._noted) {
				vias._noted = true;
				note(`${form} "${cmd}": complete=${res.sc.complete} via=${res.sc.via} exit_code=${res.sc.exit_code}: ${res.line.slice(0, 400)}`);
			}
		if (cmd === 'echo hello' && !/(^|\n)hello(\n|$)/.test(res.text) && !vias._noEcho) {
			vias._noEcho = true;
			note(`${form} "echo hello": no line "hello" in the text: ${JSON.stringify(res.text)}`);
		}
	}
	delete vias._noted;
	delete vias._noEcho;
	return { ...stats(times), via: vias, last };
}

async function timed(s, id, cmd, form, timeout) {
	const t0 = now();
	let res;
	let text;
	if (form === 'one-call') {
		res = await s.call('pty_send', { session_id: id, text: cmd, wait: true, timeout }, { timeoutMs: (timeout + 30) * 1000 });
		text = res.text;
	} else {
		const a = await s.call('pty_send', { session_id: id, text: cmd, wait: false });
		res = await s.call('pty_read', { session_id: id, wait: true, timeout }, { timeoutMs: (timeout + 30) * 1000 });
		text = a.text + '\n' + res.text;
	}
	const ms = now() - t0;
	return {
		ms, complete: res.sc.complete, via: res.sc.via, exit_code: res.sc.exit_code,
		duration_ms: res.sc.duration_ms, text_bytes: Buffer.byteLength(text), text_tokens: tokens.count(text),
		text, line: res.line,
	};
}

/*
 * An sshd on 127.0.0.1 and the server's environment for remote 'far':
 * { home } of the far side, or null (with a note) when sshd cannot run.
 */
async function remoteSetup(rig, p) {
	const path = require('node:path');
	const fs = require('node:fs');
	const { sshdUnavailable, startSshd } = require(path.join(p.srcdir, 'tests/mcp/lib/sshd.cjs'));
	const why = sshdUnavailable();
	if (why) {
		note(`remote rows left out: ${why}`);
		return null;
	}
	const sshd = await startSshd(path.join(rig.dirs.root, 'sshd'));
	rig.onCleanup(() => sshd.stop());
	const far = path.join(rig.dirs.root, 'far');
	fs.mkdirSync(far, { mode: 0o700 });
	const cfg = path.join(rig.dirs.root, 'ssh_config');
	fs.writeFileSync(cfg, ['Host far', '  HostName 127.0.0.1', `  Port ${sshd.port}`, `  User ${sshd.user}`,
		`  IdentityFile ${sshd.key}`, '  IdentitiesOnly yes', '  StrictHostKeyChecking no',
		'  UserKnownHostsFile /dev/null', '  LogLevel ERROR', ''].join('\n'), { mode: 0o600 });
	const vars = { AITERM_STATE_DIR: path.join(far, 'state'), HOME: far, TMUX_TMPDIR: far,
		AITERM_PLUGIN_PATH: p.pluginPath, AITERM_SYSTEM_PLUGINDIR: '', AITERM_SHELL_DIR: p.shellDir };
	const wrapper = path.join(far, 'aiterm-mcp');
	fs.writeFileSync(wrapper, '#!/bin/sh\n' + Object.entries(vars).map(([k, v]) => `export ${k}=${JSON.stringify(v || '')}\n`).join('') +
		`exec ${JSON.stringify(p.server)} "$@"\n`, { mode: 0o755 });
	rig.env.AITERM_REMOTE_MCP = wrapper;
	rig.env.AITERM_SSH_CONFIG = cfg;
	/* The far side's tmux server ends with the rig's (by its PID). */
	rig.sockets.add(path.join(far, 'state', 'tmux.sock'));
	return { home: far };
}

async function main() {
	const p = paths(argv);
	const rig = makeRig(p);
	const cleanup = async () => { try { await rig.cleanup(); } catch (e) { process.stderr.write(`cleanup: ${e.message}\n`); } };
	process.on('SIGINT', () => { cleanup().then(() => process.exit(130)); });
	const out = { server: p.server, structured: STRUCTURED, node: process.version, tokenizer: `gpt-tokenizer ${require('gpt-tokenizer/package.json').version} ${tokens.encoding}` };
	try {
		out.cold_start_ms = await coldStart(rig);
		const far = REMOTE ? await remoteSetup(rig, p) : null;

		const s = rig.spawn();
		const init = await s.initialize({ structured: STRUCTURED });
		out.server_version = init.msg.result && init.msg.result.serverInfo && init.msg.result.serverInfo.version;
		await new Promise((r) => setTimeout(r, 200));
		out.rss_idle_kb = rssKb(s.pid);

		/* Schema tokens. */
		const tl = await s.request('tools/list', {});
		const tools = tl.msg.result.tools;
		/* The six terminal tools of PTY-OPEN..PTY-LIST (the issue-3 budget); pty_observe is counted on its own. */
		const SIX = ['pty_open', 'pty_send', 'pty_read', 'pty_key', 'pty_close', 'pty_list'];
		const pty = tools.filter((t) => SIX.includes(t.name));
		const instructions = init.msg.result.instructions || '';
		out.tools = {
			names: tools.map((t) => t.name),
			tokens_pty: tokens.count(JSON.stringify(pty)),
			tokens_all: tokens.count(JSON.stringify(tools)),
			/* As each client puts them in its model request (views.cjs). */
			claude_pty: tokens.count(JSON.stringify(views.toolsClaude(pty))),
			claude_all: tokens.count(JSON.stringify(views.toolsClaude(tools))),
			codex_pty: tokens.count(JSON.stringify(views.toolsCodex(pty, instructions))),
			codex_all: tokens.count(JSON.stringify(views.toolsCodex(tools, instructions))),
			bytes_pty: Buffer.byteLength(JSON.stringify(pty)),
			bytes_all: Buffer.byteLength(JSON.stringify(tools)),
			tokens_instructions: tokens.count(init.msg.result.instructions || ''),
			per_tool: Object.fromEntries(tools.map((t) => [t.name, tokens.count(JSON.stringify(t))])),
		};

		/* pty_open. */
		const opens = [];
		const ids = [];
		for (let i = 0; i < N_OPEN; i++) {
			const r = await s.call('pty_open', { cwd: rig.dirs.home });
			opens.push(r.ms);
			ids.push(r.sc.session_id);
			rig.noteAttach(r.sc);
		}
		out.pty_open_ms = stats(opens);
		const id = ids[0];

		/* Round trips. */
		out.round_trip_ms = {};
		for (const cmd of ['true', 'echo hello'])
			for (const form of ['send+read', 'one-call']) {
				const rt = await roundTrips(s, id, cmd, form, N_RT);
				if (cmd === 'true') {
					const key = form === 'one-call' ? 'one_call' : 'send_read';
					out.true_tokens = out.true_tokens || {};
					out.true_tokens[key] = {
						content_text: rt.last.texts.reduce((a, t) => a + tokens.count(t), 0),
						json_result: rt.last.results.reduce((a, r) => a + tokens.count(JSON.stringify(r)), 0),
						claude: rt.last.views.reduce((a, v) => a + tokens.count(v.claude), 0),
						codex: rt.last.views.reduce((a, v) => a + tokens.count(v.codex), 0),
						text: rt.last.texts,
						views: rt.last.views,
					};
				}
				delete rt.last;
				out.round_trip_ms[`${cmd} ${form}`] = rt;
			}

		/* The same round trip relayed to a host over ssh (loopback sshd). */
		if (far) {
			const t0 = now();
			const o = await s.call('pty_open', { remote: 'far', cwd: far.home }, { timeoutMs: 60000 });
			out.remote = { first_call_ms: now() - t0, round_trip_ms: {} };
			for (const form of ['send+read', 'one-call']) {
				const rt = await roundTrips(s, o.sc.session_id, 'true', form, N_RT, { remote: 'far' });
				delete rt.last;
				out.remote.round_trip_ms[`true ${form}`] = rt;
			}
			await s.call('pty_close', { remote: 'far', session_id: o.sc.session_id });
		}

		/* sleep 2, both forms. */
		out.sleep2 = {};
		for (const form of ['one-call', 'send+read']) {
			const r = await timed(s, id, 'sleep 2', form, 10);
			delete r.line;
			out.sleep2[form] = r;
			if (r.ms < 2000 || r.complete !== true)
				note(`sleep 2 (${form}) returned after ${r1(r.ms)} ms with complete=${r.complete} via=${r.via}`);
		}

		/* seq 1 200000. */
		{
			const r = await timed(s, id, 'seq 1 200000', 'one-call', 120);
			out.seq200k = { ...r, text: undefined, line: undefined, tail: r.text.slice(-200) };
			if (r.complete !== true)
				note(`seq 1 200000 returned complete=${r.complete} via=${r.via} after ${r1(r.ms)} ms`);
			if (!/(^|\n)200000(\n|$)/.test(r.text))
				note(`seq 1 200000: the last number 200000 is not in what came back (tail: ${JSON.stringify(r.text.slice(-200))})`);
		}

		/* 50 sessions: pty_list and RSS. */
		while (ids.length < N_SESSIONS) {
			const r = await s.call('pty_open', { cwd: rig.dirs.home });
			ids.push(r.sc.session_id);
		}
		const lists = [];
		let listRes = null;
		for (let i = 0; i < N_LIST + 1; i++) {
			listRes = await s.call('pty_list', {});
			if (i > 0)
				lists.push(listRes.ms);
		}
		out.pty_list_50_ms = stats(lists);
		out.pty_list_50_tokens = tokens.count(listRes.text);
		const listed = (listRes.sc.sessions || []).length;
		if (listed !== N_SESSIONS)
			note(`pty_list lists ${listed} sessions, ${N_SESSIONS} are open`);
		await new Promise((r) => setTimeout(r, 200));
		out.rss_50_kb = rssKb(s.pid);
		out.tmux_server_rss_kb = rig.tmuxPids().map(rssKb).reduce((a, b) => a + (b || 0), 0);
	} finally {
		await cleanup();
	}
	out.notes = notes;
	return out;
}

function fmt(x, unit = 'ms') {
	return `${r1(x)} ${unit}`;
}

function print(o) {
	const rows = [];
	const row = (what, value, extra = '') => rows.push([what, value, extra]);
	row('server', `${o.server} (${o.server_version})`, o.structured ? 'with structuredContent (--structured)' : 'as the AI clients connect (no structuredContent)');
	row('cold start -> initialize reply', `p50 ${fmt(o.cold_start_ms.p50)}`, `p90 ${fmt(o.cold_start_ms.p90)}, n=${o.cold_start_ms.n}`);
	row('pty_open', `p50 ${fmt(o.pty_open_ms.p50)}`, `p90 ${fmt(o.pty_open_ms.p90)}, n=${o.pty_open_ms.n}`);
	for (const [k, v] of Object.entries(o.round_trip_ms))
		row(`round trip ${k}`, `p50 ${fmt(v.p50)}`, `p90 ${fmt(v.p90)}, n=${v.n}, via ${Object.entries(v.via).map(([a, b]) => `${a}:${b}`).join(' ')}`);
	for (const [k, v] of Object.entries(o.sleep2))
		row(`sleep 2 ${k}`, fmt(v.ms), `complete=${v.complete} via=${v.via} exit=${v.exit_code}`);
	if (o.remote) {
		row('remote first call (ssh, probe, far initialize)', fmt(o.remote.first_call_ms), 'pty_open over a loopback sshd');
		for (const [k, v] of Object.entries(o.remote.round_trip_ms)) {
			const local = o.round_trip_ms[k];
			row(`remote round trip ${k}`, `p50 ${fmt(v.p50)}`, `p90 ${fmt(v.p90)}, n=${v.n}; local p50 ${fmt(local.p50)} (+${fmt(v.p50 - local.p50)}), via ${Object.entries(v.via).map(([a, b]) => `${a}:${b}`).join(' ')}`);
		}
	}
	row('seq 1 200000 one-call', fmt(o.seq200k.ms), `complete=${o.seq200k.complete} via=${o.seq200k.via}, ${o.seq200k.text_tokens} tokens returned`);
	row('pty_list, 50 sessions', `p50 ${fmt(o.pty_list_50_ms.p50)}`, `p90 ${fmt(o.pty_list_50_ms.p90)}, n=${o.pty_list_50_ms.n}, ${o.pty_list_50_tokens} tokens`);
	row('server RSS idle', fmt(o.rss_idle_kb / 1024, 'MB'));
	row('server RSS, 50 sessions', fmt(o.rss_50_kb / 1024, 'MB'), `(tmux server: ${r1(o.tmux_server_rss_kb / 1024)} MB)`);
	row('tools/list tokens, six pty tools', `${o.tools.tokens_pty}`, `${o.tools.bytes_pty} bytes (open send read key close list)`);
	row('tools/list tokens, all tools', `${o.tools.tokens_all}`, `${o.tools.bytes_all} bytes; instructions ${o.tools.tokens_instructions}`);
	row('tool definitions the model sees, six', `Claude ${o.tools.claude_pty}`, `Codex ${o.tools.codex_pty} (its namespace carries the instructions)`);
	row('tool definitions the model sees, all', `Claude ${o.tools.claude_all}`, `+ instructions ${o.tools.tokens_instructions} in the system prompt; Codex ${o.tools.codex_all}`);
	for (const [k, v] of Object.entries(o.true_tokens))
		row(`\`true\` ${k}, tokens the model reads`, `Claude ${v.claude}`, `Codex ${v.codex}; text ${v.content_text}, JSON result ${v.json_result}; Claude sees ${JSON.stringify(v.views.map((x) => x.claude))}`);
	const w0 = Math.max(...rows.map((r) => r[0].length));
	const w1 = Math.max(...rows.map((r) => r[1].length));
	for (const [a, b, c] of rows)
		console.log(`${a.padEnd(w0)}  ${b.padEnd(w1)}  ${c}`.trimEnd());
	console.log(`per tool: ${Object.entries(o.tools.per_tool).map(([a, b]) => `${a} ${b}`).join(', ')}`);
	if (o.notes.length) {
		console.log('notes:');
		for (const n of o.notes)
			console.log(`  - ${n}`);
	}
}

main().then((o) => {
	if (JSON_OUT)
		console.log(JSON.stringify(round(o), null, 2));
	else
		print(o);
}, (e) => {
	console.error(`bench/latency: ${e.stack || e.message}`);
	process.exit(1);
});
