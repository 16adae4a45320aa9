#!/usr/bin/env node
'use strict';
/*
 * bench/tokens.cjs: how many tokens the AI receives for real command
 * outputs, replayed through the real server in a real PTY.  Prints
 * figures; it is not a test and make check does not run it.
 *
 *   node bench/tokens.cjs [CASES_DIR] [--builddir=DIR] [--srcdir=DIR]
 *                         [--json] [--only=SUBSTRING] [--show]
 *                         [--split=dev|heldout|fresh] [--untouched]
 *                         [--two-call] [--client=NAME]
 *
 * CASES_DIR (default <srcdir>/tests/fixtures/reduce) holds one folder
 * per case: <case>/cmd (one command line), <case>/out (the raw bytes the
 * terminal received) and <case>/meta.json ({"must_keep": [...]}, and
 * optionally "exit_code").
 *
 * For each distinct argv0 of the cases' commands (git, pytest, ls, ...)
 * a small sh script is put in a temporary bin directory, which the session
 * gets first on its PATH (pty_open env_vars).  Before sending a case's
 * command the bench writes the case name to a file; the script, when its
 * own name is that case's argv0, records how it was called and copies the
 * case's out byte for byte to stdout (/bin/cat) and exits with the case's
 * exit code (0 unless meta.json says otherwise), once.  Called for
 * anything else (or with no arguments when the case's command has some:
 * tmux's own "cat >>log") it runs the real command of that name further
 * down PATH.
 *
 * --split keeps the cases whose meta.json "split" is that value (the
 * unseen corpus, tests/fixtures/unseen, keeps a third "heldout").
 * --untouched leaves out the cases whose meta.json says "touched": their
 * outputs were looked at while reducers were changed (see that corpus's
 * README).
 * --client=NAME introduces the bench by that clientInfo name (default
 * claude-code): the server bounds a read's results to what that client
 * shows whole (ADR 0043), so only the column of the client named is what
 * that client shows; --client=codex-mcp-client for Codex's.
 *
 * Each case gets a fresh session; its cmd is sent with
 * pty_send{wait:true, timeout:30} (one call), or with --two-call by
 * pty_send without wait and then pty_read{wait:true} (both results
 * count); what comes back is counted as the
 * content text, and as what Claude Code and Codex hand the model
 * (tests/mcp/lib/views.cjs, checked against the real clients in
 * tests/clients/).  must_keep is checked in Claude's view.  --structured
 * asks for structuredContent, to measure what the clients show then.
 * Should the call return before completion, pty_read{wait:true} follows
 * until complete (up to 5 times) and its text counts too.
 *
 * raw tokens: out after the reference stripper (bench/lib/strip.cjs:
 * escape sequences removed, CR overwrites resolved).  must_keep strings
 * are matched against the received text after the same stripping, with
 * every run of blanks counted as one space on both sides (a reducer may
 * squeeze a table's columns: "both modified:   x" keeps its fact as
 * "both modified: x").
 */
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { paths, positional, makeRig, now } = require('./lib/mcp.cjs');
const { strip } = require('./lib/strip.cjs');
const tokens = require('./lib/tokens.cjs');

const argv = process.argv.slice(2);
const JSON_OUT = argv.includes('--json');
const SHOW = argv.includes('--show');
const ONLY = (argv.find((a) => a.startsWith('--only=')) || '').slice(7);
/* Ask for structuredContent: what the clients would show the model then. */
const STRUCTURED = argv.includes('--structured');
const SPLIT = (argv.find((a) => a.startsWith('--split=')) || '').slice(8);
const UNTOUCHED = argv.includes('--untouched');
/* --client=codex-mcp-client: introduce the bench as Codex does (ADR 0043). */
const CLIENT = (argv.find((a) => a.startsWith('--client=')) || '').slice(9) || 'claude-code';
const TWO_CALL = argv.includes('--two-call');
const TIMEOUT = 30;

function which(cmd) {
	return execFileSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).trim();
}

/* The first word of a command line (as sh would split it; quotes removed). */
function word0(cmd) {
	const m = cmd.trim().match(/^(?:'([^']*)'|"([^"]*)"|(\S+))/);
	return m ? (m[1] !== undefined ? m[1] : m[2] !== undefined ? m[2] : m[3]) : null;
}

/* Its name, without a directory. */
function argv0(cmd) {
	const w = word0(cmd);
	return w === null ? null : path.basename(w);
}

function loadCases(dir) {
	const cases = [];
	for (const name of fs.readdirSync(dir).sort()) {
		const d = path.join(dir, name);
		if (!fs.statSync(d).isDirectory())
			continue;
		if (!['cmd', 'out', 'meta.json'].every((f) => fs.existsSync(path.join(d, f))))
			continue;
		if (ONLY && !name.includes(ONLY))
			continue;
		const cmd = fs.readFileSync(path.join(d, 'cmd'), 'utf8').replace(/\r?\n$/, '');
		const meta = JSON.parse(fs.readFileSync(path.join(d, 'meta.json'), 'utf8'));
		if (SPLIT && meta.split !== SPLIT)
			continue;
		if (UNTOUCHED && meta.touched)
			continue;
		let exit = 0;
		for (const k of ['exit_code', 'exit', 'status'])
			if (Number.isInteger(meta[k])) {
				exit = meta[k];
				break;
			}
		cases.push({
			name, dir: d, cmd, argv0: argv0(cmd), exit,
			out: path.join(d, 'out'),
			must_keep: Array.isArray(meta.must_keep) ? meta.must_keep : [],
		});
	}
	return cases;
}

const shq = (s) => `'${String(s).replace(/'/g, `'\\''`)}'`;

/*
 * Writes the fake commands into bin, and where a case's command is a
 * relative path ("venv/bin/pip"), there under work too; the control
 * files live in ctl.
 */
function makeFakes(bin, ctl, cases, work) {
	fs.mkdirSync(bin, { recursive: true });
	fs.mkdirSync(ctl, { recursive: true });
	const cat = which('cat');
	for (const c of cases) {
		const cd = path.join(ctl, 'cases', c.name);
		fs.mkdirSync(cd, { recursive: true });
		fs.writeFileSync(path.join(cd, 'argv0'), c.argv0 + '\n');
		fs.writeFileSync(path.join(cd, 'out'), c.out + '\n');
		fs.writeFileSync(path.join(cd, 'exit'), String(c.exit) + '\n');
		/* Whether the case's command has arguments after its name. */
		fs.writeFileSync(path.join(cd, 'args'), (/^\s*\S+[ \t]+[^\s|;&]/.test(c.cmd) ? '1' : '0') + '\n');
	}
	const script = `#!/bin/sh
# aiterm bench: replays a recorded output (see bench/tokens.cjs).
ctl=${shq(ctl)}
bin=${shq(bin)}
me=\${0##*/}
if [ -f "$ctl/case" ]; then
	IFS= read -r c <"$ctl/case"
	if [ -n "$c" ] && [ -f "$ctl/cases/$c/argv0" ]; then
		IFS= read -r want <"$ctl/cases/$c/argv0"
		IFS= read -r args <"$ctl/cases/$c/args"
		# The multiplexer's own "cat >>log" (no arguments) is not the case.
		if [ "$want" = "$me" ] && { [ "$args" = 0 ] || [ $# -gt 0 ]; }; then
			IFS= read -r out <"$ctl/cases/$c/out"
			IFS= read -r code <"$ctl/cases/$c/exit"
			printf '%s\\n' "$me $*" >"$ctl/called"
			# Once: a later call of the same name (the shell's own
			# cat, say) runs the real command.
			: >"$ctl/case"
			${shq(cat)} "$out"
			exit "$code"
		fi
	fi
fi
# Not the case's command: run the real one further down PATH.
IFS=:
for d in $PATH; do
	[ "$d" = "$bin" ] && continue
	if [ -x "$d/$me" ] && [ ! -d "$d/$me" ]; then
		unset IFS
		exec "$d/$me" "$@"
	fi
done
printf '%s: command not found\\n' "$me" >&2
exit 127
`;
	for (const name of new Set(cases.map((c) => c.argv0))) {
		const f = path.join(bin, name);
		fs.writeFileSync(f, script, { mode: 0o755 });
	}
	for (const c of cases) {
		const w = word0(c.cmd);
		if (w && w.includes('/') && !path.isAbsolute(w)) {
			fs.mkdirSync(path.dirname(path.join(work, w)), { recursive: true });
			fs.writeFileSync(path.join(work, w), script, { mode: 0o755 });
		}
	}
}

/*
 * Refuses to go on unless every case's command resolves to its fake in a
 * session: the cases' commands (apt-get install, npm install, dd, ...)
 * must never run for real.
 */
async function guard(s, rig, bin, cases) {
	const names = [...new Set(cases.map((c) => c.argv0))];
	const open = await s.call('pty_open', { cwd: rig.work, env_vars: { PATH: rig.env.PATH } });
	rig.noteAttach(open.sc);
	const id = open.sc.session_id;
	const r = await s.call('pty_send', { session_id: id, text: `type -P ${names.join(' ')}`, wait: true, timeout: 10 });
	await s.call('pty_close', { session_id: id }, { allowError: true }).catch(() => {});
	const text = strip(r.text);
	const bad = names.filter((n) => !text.includes(path.join(bin, n)));
	if (bad.length)
		throw new Error(`the session does not find the fake commands first on PATH (${bad.join(' ')}); ` +
			`refusing to run the cases' commands for real.  The session said: ${JSON.stringify(r.text.slice(0, 2000))}`);
}

async function runCase(s, rig, c, bin, ctl) {
	const called = path.join(ctl, 'called');
	fs.rmSync(called, { force: true });
	fs.writeFileSync(path.join(ctl, 'case'), c.name + '\n');
	const open = await s.call('pty_open', { cwd: rig.work, env_vars: { PATH: rig.env.PATH } });
	rig.noteAttach(open.sc);
	const id = open.sc.session_id;
	const texts = [];
	const seen = [];	/* what each client hands the model, per call */
	const calls = [];
	const t0 = now();
	let r = await s.call('pty_send', TWO_CALL ? { session_id: id, text: c.cmd } :
		{ session_id: id, text: c.cmd, wait: true, timeout: TIMEOUT },
	{ timeoutMs: (TIMEOUT + 60) * 1000 });
	texts.push(r.text);
	seen.push(r.views);
	calls.push({ tool: 'pty_send', complete: r.sc.complete, via: r.sc.via, exit_code: r.sc.exit_code, omitted: r.sc.omitted, ms: r.ms });
	for (let i = 0; i < (TWO_CALL ? 6 : 5) && r.sc.complete !== true; i++) {
		r = await s.call('pty_read', { session_id: id, wait: true, timeout: TIMEOUT },
			{ timeoutMs: (TIMEOUT + 60) * 1000 });
		texts.push(r.text);
		seen.push(r.views);
		calls.push({ tool: 'pty_read', complete: r.sc.complete, via: r.sc.via, exit_code: r.sc.exit_code, omitted: r.sc.omitted, ms: r.ms });
	}
	const ms = now() - t0;
	fs.writeFileSync(path.join(ctl, 'case'), '\n');
	const calledAs = fs.existsSync(called) ? fs.readFileSync(called, 'utf8').replace(/\n$/, '') : null;
	await s.call('pty_close', { session_id: id }, { allowError: true }).catch(() => {});

	const received = texts.join('\n');
	const rawText = strip(fs.readFileSync(c.out, 'utf8'));
	/* must_keep counts in what the model reads (Claude's view). */
	const recvStripped = strip(seen.map((v) => v.claude).join('\n'));
	const raw = tokens.count(rawText);
	const recv = tokens.count(received);
	const claude = seen.reduce((a, v) => a + tokens.count(v.claude), 0);
	const codex = seen.reduce((a, v) => a + tokens.count(v.codex), 0);
	/* The design ADR 0006 did not take: structuredContent carrying the text. */
	const asJson = texts.reduce((a, t) => a + tokens.count(JSON.stringify({ text: t })), 0);
	const blanks = (t) => t.replace(/[ \t]+/g, ' ');
	const recvBlanks = blanks(recvStripped);
	const lost = c.must_keep.filter((k) => !recvBlanks.includes(blanks(k)));
	/* And in Codex's view, which cuts the middle of a result over about 12 KB. */
	const codexBlanks = blanks(strip(seen.map((v) => v.codex).join('\n')));
	const lostCodex = c.must_keep.filter((k) => !codexBlanks.includes(blanks(k)));
	const rawLost = c.must_keep.filter((k) => !rawText.includes(k));
	return {
		case: c.name, cmd: c.cmd,
		raw_bytes: fs.statSync(c.out).size,
		raw_tokens: raw,
		received_tokens: recv,
		received_bytes: Buffer.byteLength(received),
		claude_tokens: claude,
		codex_tokens: codex,
		text_as_json_tokens: asJson,
		saving_pct: raw ? (1 - recv / raw) * 100 : 0,
		claude_saving_pct: raw ? (1 - claude / raw) * 100 : 0,
		codex_saving_pct: raw ? (1 - codex / raw) * 100 : 0,
		must_keep: c.must_keep.length,
		kept: c.must_keep.length - lost.length,
		lost,
		codex_kept: c.must_keep.length - lostCodex.length,
		codex_lost: lostCodex,
		codex_cut: seen.some((v) => /…\d+ tokens truncated…/.test(v.codex)),
		lost_in_reference: rawLost,
		larger_than_raw: claude > raw,
		ms,
		complete: r.sc.complete,
		via: r.sc.via,
		exit_code: r.sc.exit_code,
		expected_exit: c.exit,
		calls,
		called_as: calledAs,
		received: SHOW || JSON_OUT ? received : undefined,
		claude_view: SHOW || JSON_OUT ? seen.map((v) => v.claude).join('\n') : undefined,
	};
}

async function main() {
	const p = paths(argv);
	const dir = path.resolve(positional(argv)[0] || path.join(p.srcdir, 'tests/fixtures/reduce'));
	if (!fs.existsSync(dir))
		throw new Error(`${dir}: no such folder (give the cases folder as an argument)`);
	const cases = loadCases(dir);
	if (cases.length === 0)
		throw new Error(`${dir}: no case folders (<case>/cmd, out, meta.json)`);
	/*
	 * The bin directory goes first on PATH both in the server's environment
	 * and in the session's env_vars: tmux 3.3 gives a new session the PATH
	 * of the client that created it whatever -e PATH=... says, so env_vars
	 * alone does not reach the shell.
	 */
	const root = fs.realpathSync(fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'aiterm-bench-fake-')));
	const bin = path.join(root, 'bin');
	const ctl = path.join(root, 'ctl');
	const rig = makeRig(p, { PATH: `${bin}:${process.env.PATH || '/usr/bin:/bin'}` });
	rig.work = path.join(rig.dirs.root, 'work');
	fs.mkdirSync(rig.work);
	const cleanup = async () => { try { await rig.cleanup(); } catch (e) { process.stderr.write(`cleanup: ${e.message}\n`); } };
	process.on('SIGINT', () => { cleanup().then(() => process.exit(130)); });
	makeFakes(bin, ctl, cases, rig.work);
	const results = [];
	let version;
	try {
		const s = rig.spawn();
		const init = await s.initialize({ structured: STRUCTURED, clientName: CLIENT });
		version = init.msg.result.serverInfo && init.msg.result.serverInfo.version;
		await guard(s, rig, bin, cases);
		for (const c of cases) {
			let res;
			try {
				res = await runCase(s, rig, c, bin, ctl);
			} catch (e) {
				res = { case: c.name, cmd: c.cmd, error: e.message };
			}
			results.push(res);
			if (!JSON_OUT)
				process.stderr.write(`${c.name}: ${res.error ? 'ERROR ' + res.error : `${res.received_tokens}/${res.raw_tokens} tokens, ${Math.round(res.ms)} ms`}\n`);
		}
	} finally {
		await cleanup();
		fs.rmSync(root, { recursive: true, force: true });
	}
	const ok = results.filter((r) => !r.error);
	const sum = (k) => ok.reduce((a, r) => a + r[k], 0);
	const totals = {
		cases: results.length,
		errors: results.length - ok.length,
		raw_tokens: sum('raw_tokens'),
		received_tokens: sum('received_tokens'),
		claude_tokens: sum('claude_tokens'),
		codex_tokens: sum('codex_tokens'),
		text_as_json_tokens: sum('text_as_json_tokens'),
		saving_pct: sum('raw_tokens') ? (1 - sum('received_tokens') / sum('raw_tokens')) * 100 : 0,
		claude_saving_pct: sum('raw_tokens') ? (1 - sum('claude_tokens') / sum('raw_tokens')) * 100 : 0,
		codex_saving_pct: sum('raw_tokens') ? (1 - sum('codex_tokens') / sum('raw_tokens')) * 100 : 0,
		must_keep: sum('must_keep'),
		kept: sum('kept'),
		codex_kept: sum('codex_kept'),
		codex_cut: ok.filter((r) => r.codex_cut).length,
		larger_than_raw: ok.filter((r) => r.larger_than_raw).length,
		incomplete: ok.filter((r) => r.complete !== true).length,
		fake_not_called: ok.filter((r) => r.called_as === null).length,
		ms: sum('ms'),
	};
	return { server: p.server, client: CLIENT, structured: STRUCTURED, two_call: TWO_CALL, split: SPLIT || null, untouched: UNTOUCHED, server_version: version, cases_dir: dir, tokenizer: `gpt-tokenizer ${require('gpt-tokenizer/package.json').version} ${tokens.encoding}`, results, totals };
}

function print(o) {
	const hdr = ['case', 'raw', 'text', 'claude', 'codex', 'saving', 'keep', '>raw', 'ms', 'via'];
	const rows = o.results.map((r) => r.error ? [r.case, 'ERROR', r.error.slice(0, 60), '', '', '', '', '', '', ''] : [
		r.case, String(r.raw_tokens), String(r.received_tokens), String(r.claude_tokens), String(r.codex_tokens),
		`${r.claude_saving_pct.toFixed(1)}%`,
		`${r.kept}/${r.must_keep}`, r.larger_than_raw ? 'YES' : '', String(Math.round(r.ms)),
		`${r.via}${r.complete === true ? '' : '(incomplete)'}${r.exit_code !== r.expected_exit ? ` exit=${r.exit_code}` : ''}${r.called_as === null ? ' NOT-CALLED' : ''}`,
	]);
	const t = o.totals;
	rows.push(['TOTAL', String(t.raw_tokens), String(t.received_tokens), String(t.claude_tokens), String(t.codex_tokens),
		`${t.claude_saving_pct.toFixed(1)}%`,
		`${t.kept}/${t.must_keep}`, String(t.larger_than_raw), String(Math.round(t.ms)), '']);
	const w = hdr.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
	const line = (r) => r.map((x, i) => (i === 0 || i === 9 ? x.padEnd(w[i]) : x.padStart(w[i]))).join('  ').trimEnd();
	console.log(`${o.server} (${o.server_version})${o.structured ? ' with structuredContent' : ''}; ${o.cases_dir}${o.split ? ` (${o.split})` : ''}${o.untouched ? ' untouched' : ''}; ${o.two_call ? 'two calls (pty_send, pty_read wait)' : 'one call (pty_send wait)'}; ${o.tokenizer}`);
	console.log('text: the content text; claude, codex: what each client hands the model (saving and >raw: Claude\'s)');
	console.log(line(hdr));
	for (const r of rows.slice(0, -1))
		console.log(line(r));
	console.log(line(rows[rows.length - 1]));
	console.log(`total: raw ${t.raw_tokens}; the model reads ${t.claude_tokens} in Claude Code (saving ${t.claude_saving_pct.toFixed(1)}%), ${t.codex_tokens} in Codex (saving ${t.codex_saving_pct.toFixed(1)}%); text content ${t.received_tokens} (${t.saving_pct.toFixed(1)}%); must_keep ${t.kept}/${t.must_keep} (in Codex ${t.codex_kept}, ${t.codex_cut} results cut by it), larger than raw ${t.larger_than_raw}/${t.cases - t.errors}, incomplete ${t.incomplete}, errors ${t.errors}, fake command not called ${t.fake_not_called}`);
	console.log(`the same text as JSON ({"text": ...}, as structuredContent carrying it would be): ${t.text_as_json_tokens} tokens`);
	const lost = o.results.filter((r) => r.lost && r.lost.length);
	if (lost.length) {
		console.log('must_keep lost:');
		for (const r of lost)
			console.log(`  ${r.case}: ${r.lost.map((k) => JSON.stringify(k.length > 70 ? k.slice(0, 67) + '...' : k)).join(', ')}`);
	}
	const lostCodex = o.results.filter((r) => r.codex_lost && r.codex_lost.length > (r.lost || []).length);
	if (lostCodex.length) {
		console.log('must_keep lost in Codex\'s view only (its cut of a result over about 12 KB):');
		for (const r of lostCodex)
			console.log(`  ${r.case}: ${r.codex_lost.filter((k) => !r.lost.includes(k)).map((k) => JSON.stringify(k.length > 70 ? k.slice(0, 67) + '...' : k)).join(', ')}`);
	}
	const ref = o.results.filter((r) => r.lost_in_reference && r.lost_in_reference.length);
	if (ref.length) {
		console.log('must_keep not in the stripped raw output either (reference stripper):');
		for (const r of ref)
			console.log(`  ${r.case}: ${r.lost_in_reference.map((k) => JSON.stringify(k)).join(', ')}`);
	}
	if (SHOW)
		for (const r of o.results)
			if (!r.error)
				console.log(`\n===== ${r.case}: ${r.cmd}\n${r.claude_view}`);
}

main().then((o) => {
	if (JSON_OUT)
		console.log(JSON.stringify(o, (k, v) => (typeof v === 'number' && !Number.isInteger(v) ? Math.round(v * 10) / 10 : v), 2));
	else
		print(o);
}, (e) => {
	console.error(`bench/tokens: ${e.stack || e.message}`);
	process.exit(1);
});
