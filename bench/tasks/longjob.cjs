'use strict';
/*
 * Task "longjob": a job of ~15 s that prints a progress line a second
 * (one of them a warning) and a summary.  The model starts it and waits
 * for its end.
 */
const fs = require('node:fs');
const path = require('node:path');
const { aiterm, shell, tmux } = require('./ways.cjs');

const JOB = [
	'#!/bin/sh',
	'# A batch import: 15 shards, a progress line a second.',
	'i=1',
	'while [ $i -le 15 ]; do',
	'	sleep 1',
	'	if [ $i -eq 7 ]; then echo "shard $i/15: WARN slow shard, retried 2 times"; fi',
	'	echo "shard $i/15: imported $((i * 1000)) records"',
	'	i=$((i + 1))',
	'done',
	'echo "done: 15000 records in 15 shards, 0 errors"',
	'',
].join('\n');

const CMD = './import.sh';

module.exports = {
	name: 'longjob',
	title: 'long job (~15 s, a progress line a second)',
	must_keep: ['WARN slow shard, retried 2 times', 'done: 15000 records in 15 shards, 0 errors'],
	prepare(ctx) {
		fs.writeFileSync(path.join(ctx.work, 'import.sh'), JOB, { mode: 0o755 });
	},
	ways: {
		aiterm: (ctx) => [aiterm.open(ctx, { command: CMD, timeout: 60 }), aiterm.close()],
		shell: (ctx, client) => [shell(client, ctx, CMD, { timeout: 60 })],
		tmux: (ctx, client) => [
			shell(client, ctx, (x) => `${tmux.start(x)} && ${tmux.send(x, CMD, 17)}`, { timeout: 60 }),
			shell(client, ctx, (x) => tmux.stop(x)),
		],
	},
};
