'use strict';
/*
 * PTY-SEND, PTY-DONE, issue 37: one session, many callers.  Every waited
 * result is its own command's (its output, its exit code) or a clear
 * "session busy" refusal with nothing typed; never another command's.
 * Sends to one session are typed in the order they were received.
 *
 * Each command prints a line naming itself and exits with a code of its
 * own, so a result can be checked against the command that asked for it.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, show, textOf, linesOf, until } = require('./lib/pty.cjs');

const T = { timeout: 300000 };

/* The command i sends, and the exit code it must report. */
function command(tag, i) {
	return { text: `echo ${tag}-${i}; (exit ${i % 3 === 0 ? 7 : 0})`, code: i % 3 === 0 ? 7 : 0 };
}

/*
 * What is wrong with one waited result for command (tag, i), or null.
 * A refusal must say the session is busy; a result must hold its own
 * line, no other command's line, and its own exit code.
 */
function wrong(tag, i, r) {
	const text = textOf(r);
	if (r.isError === true)
		return /session busy/.test(text) ? null : `${tag}-${i}: error that is not "busy": ${text}`;
	const mine = `${tag}-${i}`;
	const named = linesOf(text).filter((l) => /^[A-Z]+-\d+$/.test(l));
	const sc = r.structuredContent;
	if (sc.complete !== true)
		return `${mine}: not complete: ${show(r)}`;
	if (!named.includes(mine))
		return `${mine}: its own line is missing: ${JSON.stringify(text)}`;
	if (named.some((l) => l !== mine))
		return `${mine}: holds another command's line: ${JSON.stringify(text)}`;
	if (sc.exit_code !== command(tag, i).code)
		return `${mine}: exit ${sc.exit_code}, its command exits ${command(tag, i).code}: ${JSON.stringify(text)}`;
	return null;
}

async function send(conn, id, tag, i) {
	const r = await conn.call('pty_send', { session_id: id, text: command(tag, i).text, wait: true, timeout: 30 }, 90000);
	return { i, tag, r };
}

function verdict(results) {
	const bad = results.map((x) => wrong(x.tag, x.i, x.r)).filter((w) => w !== null);
	const busy = results.filter((x) => x.r.isError === true).length;
	return { bad, busy, ok: results.length - busy - bad.length };
}

test('PTY-SEND one client sends 20 waited commands at once to one session: each result is its own command\'s or "busy" (issue 37)', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const id = (await c.open({ name: 'burst', shell: 'bash' })).sc.session_id;
	const results = await Promise.all(Array.from({ length: 20 }, (_, i) => send(c, id, 'B', i)));
	const v = verdict(results);
	t.diagnostic(`20 at once: ${v.ok} own results, ${v.busy} busy, ${v.bad.length} wrong`);
	assert.deepEqual(v.bad, [], 'no result belongs to another command');
	assert.ok(v.ok >= 1, 'some commands ran');
});

test('PTY-SEND two servers on one state root, 40 waited sends each, one at a time: every result its own (issue 37)', T, async (t) => {
	const rig = new Rig(t);
	const a = await rig.server();
	const b = await rig.server();
	const id = (await a.open({ name: 'shared', shell: 'bash' })).sc.session_id;
	async function serial(conn, tag) {
		const out = [];
		for (let i = 0; i < 40; i++)
			out.push(await send(conn, id, tag, i));
		return out;
	}
	const results = (await Promise.all([serial(a, 'A'), serial(b, 'B')])).flat();
	const v = verdict(results);
	t.diagnostic(`2 x 40 one at a time: ${v.ok} own results, ${v.busy} busy, ${v.bad.length} wrong`);
	assert.deepEqual(v.bad, [], 'no result belongs to another command');
	assert.ok(v.ok >= 40, `most commands ran (${v.ok})`);
});

test('PTY-SEND two servers, 25 + 25 waited sends at once: no broken read, every result its own or "busy" (issue 37)', T, async (t) => {
	const rig = new Rig(t);
	const a = await rig.server();
	const b = await rig.server();
	const id = (await a.open({ name: 'storm', shell: 'bash' })).sc.session_id;
	const calls = [];
	for (let i = 0; i < 25; i++) {
		calls.push(send(a, id, 'A', i));
		calls.push(send(b, id, 'B', i));
	}
	const v = verdict(await Promise.all(calls));
	t.diagnostic(`25 + 25 at once: ${v.ok} own results, ${v.busy} busy, ${v.bad.length} wrong`);
	assert.deepEqual(v.bad, [], 'no result belongs to another command');
	/* The session still works, and its next result is its own. */
	const last = await a.call('pty_send', { session_id: id, text: 'echo Z-1; (exit 3)', wait: true, timeout: 30 }, 60000);
	assert.equal(last.isError, undefined, show(last));
	assert.equal(last.structuredContent.exit_code, 3, show(last));
});

test('PTY-SEND 15 sends without wait at once to one session are typed in the order they were received (issue 37)', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const id = (await c.open({ name: 'order', shell: 'bash' })).sc.session_id;
	const results = await Promise.all(Array.from({ length: 15 }, (_, i) =>
		c.call('pty_send', { session_id: id, text: `echo O-$((${i}))` }, 60000)));
	for (const r of results)
		assert.equal(r.isError, undefined, `every send answered: ${show(r)}`);
	const seen = await until(async () => {
		const full = await c.ok('pty_read', { session_id: id, full: true });
		const order = linesOf(full.text).filter((l) => /^O-\d+$/.test(l)).map((l) => Number(l.slice(2)));
		return order.length === 15 ? order : null;
	}, 30000, 'the 15 lines');
	assert.deepEqual(seen, Array.from({ length: 15 }, (_, i) => i), 'typed in the order received');
});

/*
 * Issue 38: a send's route was decided before its turn came, from the
 * foreground at that time: while another server's `sleep 1` ran, a send
 * of this server was taken for text to a program (no end mark), and typed
 * so to the shell once its turn came; with `(exit 7)` in the foreground a
 * nested sentinel left one end mark too many.  Once its turn has come and
 * the shell has the terminal, it goes the shell's way.
 */
test('PTY-SEND a send that waited for its turn behind another server\'s command goes to the shell it finds then: its own output and exit code (issue 38)', T, async (t) => {
	const rig = new Rig(t);
	const a = await rig.server();
	const b = await rig.server();
	const id = (await a.open({ name: 'turns', shell: 'bash' })).sc.session_id;
	/* A slow prompt hook (read -t on an empty FIFO: bash keeps the terminal). */
	await a.call('pty_send', { session_id: id, text: 'mkfifo "$HOME/slow" && exec 9<>"$HOME/slow"', wait: true, timeout: 30 }, 60000);
	await a.call('pty_send', { session_id: id, text: `eval "$(declare -f __aiterm_precmd | sed 's/local __aiterm_status=\$?;/local __aiterm_status=$?; read -t 0.3 -u 9;/')"`, wait: true, timeout: 30 }, 60000);
	/* A shell in the foreground: the second send was taken for nested. */
	const first = a.call('pty_send', { session_id: id, text: 'bash -c "sleep 1; echo A-1"', wait: true, timeout: 30 }, 60000);
	await new Promise((r) => setTimeout(r, 400));
	const second = b.call('pty_send', { session_id: id, text: 'echo B-1; (exit 4)', wait: true, timeout: 30 }, 60000);
	const [ra, rb] = await Promise.all([first, second]);
	assert.deepEqual(linesOf(textOf(ra)).filter((l) => /^[AB]-\d$/.test(l)), ['A-1'], show(ra));
	assert.equal(ra.structuredContent.exit_code, 0, show(ra));
	assert.deepEqual(linesOf(textOf(rb)).filter((l) => /^[AB]-\d$/.test(l)), ['B-1'], show(rb));
	assert.equal(rb.structuredContent.complete, true, show(rb));
	assert.equal(rb.structuredContent.via, 'sentinel', show(rb));
	assert.equal(rb.structuredContent.exit_code, 4, show(rb));
	/* No end mark left over for the next command. */
	const rc = await a.call('pty_send', { session_id: id, text: 'echo A-2; (exit 5)', wait: true, timeout: 30 }, 60000);
	assert.deepEqual(linesOf(textOf(rc)).filter((l) => /^[AB]-\d$/.test(l)), ['A-2'], show(rc));
	assert.equal(rc.structuredContent.exit_code, 5, show(rc));
});
