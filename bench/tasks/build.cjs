'use strict';
/*
 * Task "build": a build-fix loop on a small C project in the client's cwd.
 * `make test` builds and runs the tests; two fail (calc_div multiplies);
 * the model finds the line, fixes it with sed, and runs the tests again.
 */
const fs = require('node:fs');
const path = require('node:path');
const { aiterm, shell, tmux } = require('./ways.cjs');

const FILES = {
	Makefile: 'CFLAGS = -Wall -O1\n\ntest: test_calc\n\t./test_calc\n\ntest_calc: calc.o test_calc.o\n\t$(CC) -o $@ calc.o test_calc.o\n\n' +
		'calc.o test_calc.o: calc.h\n\nclean:\n\trm -f *.o test_calc\n\n.PHONY: test clean\n',
	'calc.h': 'int calc_add(int a, int b);\nint calc_sub(int a, int b);\nint calc_mul(int a, int b);\nint calc_div(int a, int b);\n' +
		'int calc_neg(int a);\nint calc_mean(const int *v, int n);\n',
	'calc.c': [
		'#include "calc.h"',
		'',
		'int calc_add(int a, int b) { return a + b; }',
		'int calc_sub(int a, int b) { return a - b; }',
		'int calc_mul(int a, int b) { return a * b; }',
		'int calc_neg(int a) { return -a; }',
		'',
		'int',
		'calc_div(int a, int b)',
		'{',
		'	if (b == 0) return 0;',
		'	return a * b;',
		'}',
		'',
		'int',
		'calc_mean(const int *v, int n)',
		'{',
		'	int s = 0;',
		'	for (int i = 0; i < n; i++) s += v[i];',
		'	return calc_div(s, n);',
		'}',
		'',
	].join('\n'),
	'test_calc.c': [
		'#include <stdio.h>',
		'#include "calc.h"',
		'',
		'static int failed, passed;',
		'#define CHECK(name, expr, got, want) do { int g_ = (got); \\',
		'	if (g_ == (want)) { printf("PASS %s\\n", name); passed++; } \\',
		'	else { printf("FAIL %s: %s = %d, want %d\\n", name, expr, g_, want); failed++; } } while (0)',
		'',
		'int',
		'main(void)',
		'{',
		'	int v[] = { 2, 4, 6 };',
		'	CHECK("test_add", "calc_add(2, 3)", calc_add(2, 3), 5);',
		'	CHECK("test_sub", "calc_sub(7, 4)", calc_sub(7, 4), 3);',
		'	CHECK("test_mul", "calc_mul(3, 4)", calc_mul(3, 4), 12);',
		'	CHECK("test_divide", "calc_div(8, 4)", calc_div(8, 4), 2);',
		'	CHECK("test_mean", "calc_mean({2,4,6})", calc_mean(v, 3), 4);',
		'	CHECK("test_neg", "calc_neg(5)", calc_neg(5), -5);',
		'	printf("%d passed, %d failed\\n", passed, failed);',
		'	return failed != 0;',
		'}',
		'',
	].join('\n'),
};

/* The task's commands: the table the ways are built from. */
const CMDS = [
	{ cmd: 'make test', secs: 3 },
	{ cmd: 'grep -n -A3 "^calc_div" calc.c', secs: 1 },
	{ cmd: "sed -i '12s/a \\* b/a \\/ b/' calc.c", secs: 1 },
	{ cmd: 'make test', secs: 3 },
];

module.exports = {
	name: 'build',
	title: 'build-fix loop (C, make test: 2 failing tests, fix, rerun)',
	/* The facts the model must have read. */
	must_keep: ['FAIL test_divide', 'calc_div(8, 4) = 32, want 2', 'FAIL test_mean', '4 passed, 2 failed',
		'return a * b;', '6 passed, 0 failed'],
	prepare(ctx) {
		for (const [name, text] of Object.entries(FILES))
			fs.writeFileSync(path.join(ctx.work, name), text);
	},
	ways: {
		aiterm: (ctx) => [aiterm.open(ctx, { command: CMDS[0].cmd, timeout: 60 }),
			...CMDS.slice(1).map((c) => aiterm.run(c.cmd, { timeout: 60 })), aiterm.close()],
		shell: (ctx, client) => CMDS.map((c) => shell(client, ctx, c.cmd)),
		tmux: (ctx, client) => [
			shell(client, ctx, (x) => `${tmux.start(x)} && ${tmux.send(x, CMDS[0].cmd, CMDS[0].secs)}`),
			...CMDS.slice(1).map((c) => shell(client, ctx, (x) => tmux.send(x, c.cmd, c.secs))),
			shell(client, ctx, (x) => tmux.stop(x)),
		],
	},
};
