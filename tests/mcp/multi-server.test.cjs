'use strict';
/*
 * OPS-BOUNDARY, issue 17: many Aiterm servers on one state root (one
 * private tmux server) opening sessions at once.  tmux 3.3a dies when
 * sessions are created while several control clients are attached or
 * attaching (doc/reliability.md, ADR 0020); the plugin serialises its
 * session creation and control-client start with a lock in the state
 * root, so no tmux server may die here.
 *
 * Each round: a fresh state root, S servers, each sending O pty_open at
 * once.  Checked: every open answered without error, the tmux server
 * that served the first open is the one serving at the end (it did not
 * die and start again), and every server lists all S x O sessions alive,
 * none lost.  make check runs 4 x 8 x 2; the 8 x 24 x 20:
 *   AITERM_MULTI="8x24x20" node --test tests/mcp/multi-server.test.cjs
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, show } = require('./lib/pty.cjs');

const [SERVERS, OPENS, ROUNDS] = (process.env.AITERM_MULTI || '4x8x2').split('x').map(Number);

async function round(t, r, figures) {
	const rig = new Rig(t);
	const conns = [];
	for (let s = 0; s < SERVERS; s++)
		conns.push(await rig.server());
	const started = Date.now();
	const calls = [];
	conns.forEach((c, s) => {
		for (let o = 0; o < OPENS; o++) {
			const name = `r${r}s${s}o${o}`;
			rig.sessions.add(name);
			calls.push(c.call('pty_open', { name, shell: 'sh' }, 120000)
				.then((res) => ({ name, res }), (err) => ({ name, err })));
		}
	});
	const answers = await Promise.all(calls);
	figures.ms.push(Date.now() - started);
	const failed = answers.filter((a) => a.err || a.res.isError === true);
	figures.answered += answers.filter((a) => !a.err).length;
	figures.failed += failed.length;
	const pid = rig.tmuxPid();
	rig.notePid();
	const lost = [];
	for (const c of conns) {
		const list = await c.ok('pty_list', {}, 60000);
		for (const a of answers) {
			const e = list.sc.sessions.find((x) => x.session_id === a.name);
			if (!e || e.lost === true || e.alive !== true)
				lost.push(`${a.name}: ${e ? JSON.stringify(e) : 'not listed'}`);
		}
	}
	figures.lost += lost.length;
	/* One tmux server all along: a crash would have started another. */
	const pids = [...rig.tmuxPids];
	figures.crashes += pids.length > 1 || pid == null ? 1 : 0;
	assert.deepEqual(failed.map((a) => `${a.name}: ${a.err ? a.err.message : show(a.res)}`), [],
		`round ${r}: every open answered without error`);
	assert.deepEqual(lost, [], `round ${r}: no session lost`);
	assert.equal(pids.length, 1, `round ${r}: one tmux server, never restarted (${pids})`);
	await rig.cleanup();
}

test(`OPS-BOUNDARY ${SERVERS} servers x ${OPENS} parallel pty_open x ${ROUNDS} rounds on one tmux server: no crash, none lost`,
	{ timeout: 120000 * ROUNDS }, async (t) => {
		const figures = { ms: [], answered: 0, failed: 0, lost: 0, crashes: 0 };
		try {
			for (let r = 0; r < ROUNDS; r++)
				await round(t, r, figures);
		} finally {
			const ms = figures.ms.slice().sort((a, b) => a - b);
			t.diagnostic(`${SERVERS}x${OPENS}x${ROUNDS}: opens ${SERVERS * OPENS * ROUNDS}, answered ${figures.answered}, ` +
				`failed ${figures.failed}, lost ${figures.lost}, tmux crashes ${figures.crashes}; ` +
				`round ms min ${ms[0]} median ${ms[ms.length >> 1]} max ${ms[ms.length - 1]}`);
		}
	});
