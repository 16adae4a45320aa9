'use strict';
/*
 * Reads the facts back out of a tool result's text, the way a model has to
 * (ADR 0006: without structuredContent the text is all it gets).  Used by
 * the benchmarks and the real-client tests, which see no structuredContent,
 * and by the suites to check that the text agrees with it.
 *
 * parseText(tool, text, args) -> an object with the fields the text states:
 *   pty_open:    session_id, shell, cols, rows, attach; with args.command
 *                also the output facts of its command (issue 34)
 *   agent_launch: session_id, launch_id, attach
 *   pty_send/pty_read (output): complete, via, exit_code, line_ranges
 *                (every fold hint), omitted (the widest of them)
 *   pty_list:    sessions [{session_id, state, command, env, agent?}]
 *   pty_observe: cursor
 * Fields the text does not state are absent, never guessed.  Success is
 * silent (ADR 0009, 0040): the output of a call that waited (args.wait
 * or args.until; args not given: taken as waiting) with no status line
 * after it is complete: it ended with exit 0, or (args.until given) its
 * until matched, which the text does not tell apart: via 'silent',
 * exit_code 0 without until.
 */

/* The status lines of ADR 0006, in the order they are tried. */
const STATUS = [
	{ re: /(?:^|\n)exit (\d+)(?: · [\d.]+s)?\s*$/, via: 'sentinel', complete: true, code: 1 },
	{ re: /\[process exited, status (\d+)(?: · [\d.]+s)?\]\s*$/, via: 'exit', complete: true, code: 1 },
	{ re: /\[until matched(?: · [\d.]+s)?\]\s*$/, via: 'until', complete: true },
	{ re: /\[quiet, shell idle(?: · [\d.]+s)?\]\s*$/, via: 'quiescent', complete: true },
	{ re: /\[no completion evidence: [^\]]*\]\s*$/, via: 'nested', complete: false },
	{ re: /\[\S+(?: \S+)? waits for input(?: · [\d.]+s)?\]\s*$/, via: 'input', complete: true },
	{ re: /(?:^|\n)\[waiting for a secret: [^\n]*\](?:\n\[[^\n]*\])?\s*$/, via: 'secret', complete: true },
	{ re: /\[still running after [^\]]*\]\s*$/, via: 'timeout', complete: false },
	{ re: /\[(?:no new output; )?still running\]\s*$/, via: null, complete: false },
	{ re: /\[no new output\]\s*$/, via: null, complete: null },
];

function outputFacts(text, args) {
	const out = { complete: null, via: null, exit_code: null, omitted: null, line_ranges: [] };
	let matched = false;
	for (const s of STATUS) {
		const m = text.match(s.re);
		if (!m)
			continue;
		out.complete = s.complete;
		out.via = s.via;
		if (s.code)
			out.exit_code = Number(m[s.code]);
		matched = true;
		break;
	}
	const waited = !args || args.wait === true || typeof args.until === 'string';
	if (!matched && waited && text.length > 0) {
		const until = !!args && typeof args.until === 'string';
		out.complete = true;
		out.via = until ? 'silent' : 'sentinel';
		out.exit_code = until ? null : 0;
	}
	for (const m of text.matchAll(/line_range=\[(\d+),(\d+)\]/g))
		out.line_ranges.push([Number(m[1]), Number(m[2])]);
	/* The widest marker, the first of equal ones (as the server's omitted). */
	for (const r of out.line_ranges)
		if (out.omitted === null || r[1] - r[0] > out.omitted[1] - out.omitted[0])
			out.omitted = r;
	return out;
}

const PARSERS = {
	pty_open(text, args) {
		const m = text.match(/^opened (\S+) \((.*), (\d+)x(\d+)\)$/m);
		const w = text.match(/^watch: (.*)$/m);
		const open = m ? { session_id: m[1], shell: m[2], cols: Number(m[3]), rows: Number(m[4]),
			attach: w ? w[1] : undefined } : {};
		if (!m || !args || typeof args.command !== 'string')
			return open;
		/* The command's result follows the open's lines (and its note, if any). */
		let rest = text.slice(text.indexOf(w ? w[0] : m[0]) + (w ? w[0] : m[0]).length + 1);
		rest = rest.replace(/^\[the shell has not shown its prompt[^\]]*\]\n/, '');
		return Object.assign(outputFacts(rest, { wait: true, until: args.until }), open);
	},
	agent_launch(text) {
		const m = text.match(/^launched \S+ \S+ in (\S+) \(launch (\S+)\)$/m);
		const w = text.match(/^watch: (.*)$/m);
		return m ? { session_id: m[1], launch_id: m[2], attach: w ? w[1] : undefined } : {};
	},
	pty_send(text, args) {
		return /^sent(;|$)/.test(text) ? { sent: true } : outputFacts(text, args);
	},
	pty_read: outputFacts,
	pty_list(text) {
		const sessions = [];
		for (const line of text.split('\n')) {
			const f = line.split('\t');
			if (f.length < 3)
				continue;
			const [command, ...pairs] = f[2].split(' ');
			const env = {};
			for (const p of pairs) {
				const eq = p.indexOf('=');
				if (eq > 0)
					env[p.slice(0, eq)] = p.slice(eq + 1);
			}
			const s = { session_id: f[0], state: f[1], command, env };
			/* "agent <harness> <screen>/<reason> turn <n>" */
			const a = (f[3] || '').match(/^agent (\S+) (\S+)\/(\S+) turn (\d+)$/);
			if (a)
				s.agent = { harness: a[1], screen: a[2], reason: a[3], turn: Number(a[4]) };
			sessions.push(s);
		}
		return { sessions };
	},
	pty_observe(text) {
		const m = text.match(/^cursor: (\S+)$/m);
		return m ? { cursor: m[1] } : {};
	},
};

function parseText(tool, text, args) {
	const p = PARSERS[tool];
	return p ? p(text, args) : {};
}

module.exports = { parseText };
