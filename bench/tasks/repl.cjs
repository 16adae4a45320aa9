'use strict';
/*
 * Task "repl": a Python REPL: define a multi-line function (its block is
 * closed by a blank line), call it, call it with bad input, look at its
 * docstring, leave.  Claude Code's Bash keeps no REPL: the function goes
 * into a file and python3 runs it twice.  Codex's exec_command can keep
 * one in its own PTY (tty: true, then write_stdin).
 */
const { aiterm, shell, codexPty, tmux } = require('./ways.cjs');

const DEF = [
	'def stats(xs):',
	'    """Return (mean, median, spread) of xs."""',
	'    s = sorted(xs)',
	'    n = len(s)',
	'    mid = s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2',
	'    return sum(s) / n, mid, s[-1] - s[0]',
];
const CALLS = ['stats([3, 1, 4, 1, 5, 9, 2, 6])', 'stats([])', 'stats.__doc__'];
const PROMPT = '>>> ';

/*
 * Whether the last result shows the REPL back at its prompt: the model
 * reads it and, if not, presses Enter and waits for the prompt (the
 * issue-34 case: a block that never closed).
 */
const notBack = (prev, last) => !last || !/(^|\n)>>>\s*(\n\[[^\]\n]*\]\s*)?$/.test(String(last.seen));

module.exports = {
	name: 'repl',
	title: 'Python REPL (define a multi-line function, call it, inspect it)',
	must_keep: ['(3.875, 3.5, 8)', 'IndexError: list index out of range', "'Return (mean, median, spread) of xs.'"],
	prepare() {},
	ways: {
		aiterm: (ctx) => [
			aiterm.open(ctx, { command: 'python3 -q' }),
			/* The block and the blank line that closes it. */
			aiterm.run(DEF.join('\n') + '\n\n', { until: PROMPT }),
			aiterm.key('enter', { if: notBack }),
			aiterm.read({ until: PROMPT, if: (prev) => prev[prev.length - 1] !== undefined && prev[prev.length - 1].tool === 'pty_key' }),
			...CALLS.map((c) => aiterm.run(c, { until: PROMPT })),
			/* pty_close ends the REPL: no exit() first. */
			aiterm.close(),
		],
		shell: (ctx, client) => (client === 'codex' ? [
			codexPty.start('python3'),
			codexPty.write(DEF.join('\n') + '\n\n'),
			...CALLS.map((c) => codexPty.write(c + '\n')),
			codexPty.write('exit()\n'),
		] : [
			shell(client, ctx, `cat > stats.py <<'EOF'\n${DEF.join('\n')}\nEOF\npython3 -c 'from stats import stats; print(${CALLS[0]})'`),
			shell(client, ctx, `python3 -c 'from stats import stats; print(repr(${CALLS[2]})); ${CALLS[1]}'`),
		]),
		tmux: (ctx, client) => [
			shell(client, ctx, (x) => `${tmux.start(x, 'python3')} && ${tmux.send(x, [...DEF, ''], 1)}`),
			...CALLS.map((c) => shell(client, ctx, (x) => tmux.send(x, c, 1))),
			shell(client, ctx, (x) => tmux.stop(x)),
		],
	},
};
