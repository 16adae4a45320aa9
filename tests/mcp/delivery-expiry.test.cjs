'use strict';
/*
 * DLV-CORE (issue 15; ADR 0025, "Ready answers nobody claims"): a ready
 * delivery record whose answer nobody claimed within 24 hours becomes
 * failed (outcome expired_unclaimed) and its body stays; a fresh ready
 * record and a claimed one are left alone.  The records are written on
 * disk in the test's own state root, aged by their timestamps (the
 * product has no time knob), then read through the real server: when it
 * starts (its takeover of the folder) and when parent_deliveries lists
 * them.  A waiter (aiterm-wait) racing the expiry: exactly one of them
 * wins each record.
 */
const { run } = require('./lib/run.cjs');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, show, until } = require('./lib/pty.cjs');
const { serverBinary } = require('./lib/server.cjs');

const T = { timeout: 90000 };
const HOUR = 3600 * 1000;

function newId() {
	return 'd' + crypto.randomBytes(8).toString('hex');
}

function folder(rig) {
	const dir = path.join(rig.dirs.state, 'parent-deliveries');
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.chmodSync(rig.dirs.state, 0o700);
	return dir;
}

/*
 * A ready record as the server writes it, made ready ageMs ago by an
 * owner that is gone (pid 0, no lock file); claim: the line of a claim
 * file, if any.
 */
function writeReady(rig, { session, ageMs, body, claim }) {
	const dir = folder(rig);
	const id = newId();
	const ready = Date.now() - ageMs;
	const rec = {
		format: 1, id, session_id: session, state: 'ready', parent: 'wait', turn: 1,
		event_cursor: 't1', owner: { pid: 0, start: '' },
		created_ms: ready - 60000, updated_ms: ready, outcome: 'done',
	};
	fs.writeFileSync(path.join(dir, `${id}.body`), body, { mode: 0o600 });
	fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify(rec), { mode: 0o600 });
	if (claim !== undefined)
		fs.writeFileSync(path.join(dir, `${id}.claim`), claim, { mode: 0o600 });
	return id;
}

function record(rig, id) {
	return JSON.parse(fs.readFileSync(path.join(folder(rig), `${id}.json`), 'utf8'));
}

function file(rig, id, ext) {
	return fs.readFileSync(path.join(folder(rig), `${id}.${ext}`), 'utf8');
}

function waiterArgv(rig, id) {
	return [path.join(path.dirname(serverBinary()), 'aiterm-wait'), '--state-dir', rig.dirs.state, '--timeout', '20', id];
}

/* The line parent_deliveries gives a record. */
function lineOf(text, id) {
	return text.split('\n').find((l) => l.startsWith(`${id}\t`));
}

test('DLV-CORE expiry: a starting server fails a ready answer unclaimed for 24 h, keeps its body; fresh and claimed ones stay', T, async (t) => {
	const rig = new Rig(t);
	const oldBody = 'Old answer nobody took.\n[turn 1 done]\n';
	const old = writeReady(rig, { session: 'agent-old', ageMs: 25 * HOUR, body: oldBody });
	const fresh = writeReady(rig, { session: 'agent-fresh', ageMs: 23 * HOUR, body: 'Fresh answer.\n[turn 1 done]\n' });
	const claimed = writeReady(rig, { session: 'agent-claimed', ageMs: 30 * HOUR, body: 'Taken.\n[turn 1 done]\n', claim: '4242\n' });
	/* An expiry that claimed and died before writing the record is finished. */
	const half = writeReady(rig, { session: 'agent-half', ageMs: 26 * HOUR, body: 'Half.\n[turn 1 done]\n', claim: 'expired 4243\n' });

	const c = await rig.server();
	/* The takeover at start ran before the first request was read: the record on disk says so. */
	const r = record(rig, old);
	assert.equal(r.state, 'failed', JSON.stringify(r));
	assert.equal(r.outcome, 'expired_unclaimed', JSON.stringify(r));
	assert.ok(Date.now() - r.updated_ms < 60000, `updated when it expired: ${JSON.stringify(r)}`);
	assert.equal(file(rig, old, 'body'), oldBody, 'the body is kept as it was');
	assert.match(file(rig, old, 'claim'), /^expired \d+\n$/, 'the expiry claimed it like a receiver');
	assert.equal(record(rig, half).state, 'failed');
	assert.equal(file(rig, half, 'claim'), 'expired 4243\n');
	assert.equal(record(rig, fresh).state, 'ready');
	assert.ok(!fs.existsSync(path.join(folder(rig), `${fresh}.claim`)), 'a fresh record is not claimed');
	assert.equal(record(rig, claimed).state, 'ready', 'a claimed record is not rewritten');
	assert.equal(file(rig, claimed, 'claim'), '4242\n');

	const list = await c.ok('parent_deliveries', {});
	assert.equal(list.sc.total, 4, show(list.r));
	assert.equal(lineOf(list.text, old), `${old}\tfailed\tagent-old turn 1\texpired_unclaimed`, list.text);
	assert.equal(lineOf(list.text, half), `${half}\tfailed\tagent-half turn 1\texpired_unclaimed`, list.text);
	assert.equal(lineOf(list.text, fresh), `${fresh}\tready\tagent-fresh turn 1\tdone`, list.text);
	assert.equal(lineOf(list.text, claimed), `${claimed}\tsubmitted\tagent-claimed turn 1\tdone`, list.text);
	const byId = Object.fromEntries(list.sc.deliveries.map((d) => [d.id, d]));
	assert.equal(byId[old].state, 'failed');
	assert.equal(byId[old].outcome, 'expired_unclaimed');
	assert.equal(byId[fresh].state, 'ready');
	assert.equal(byId[claimed].state, 'submitted');

	/* A waiter started later gets the failure and is told where the answer is; it claims nothing. */
	const w = await run(waiterArgv(rig, old), rig.env);
	assert.equal(w.code, 1, w.stderr);
	assert.equal(w.stdout, '');
	assert.match(w.stderr, new RegExp(`delivery ${old} is failed \\(expired_unclaimed\\)`));
	assert.ok(w.stderr.includes(`the answer is kept in ${path.join(folder(rig), `${old}.body`)}`), w.stderr);
	assert.equal(file(rig, old, 'body'), oldBody);
	/* The fresh one is still anybody's to take. */
	const wf = await run(waiterArgv(rig, fresh), rig.env);
	assert.equal(wf.code, 0, wf.stderr);
	assert.equal(wf.stdout, 'Fresh answer.\n[turn 1 done]\n');
});

/*
 * ADR 0030: the observer reads a turn through the turn-answer engine,
 * which answers at once when there is nothing to wait for.  A waiting
 * record whose owner is gone and whose child session no longer exists is
 * taken over at start and failed with the engine's words; the server
 * goes on (the observer is freed in that callback: under AddressSanitizer
 * this held it to not touching it afterwards).
 */
test('DLV-CORE takeover: a waiting record whose child session is gone is failed at once, with why', T, async (t) => {
	const rig = new Rig(t);
	const dir = folder(rig);
	const id = newId();
	const now = Date.now();
	fs.writeFileSync(path.join(dir, `${id}.json`), JSON.stringify({
		format: 1, id, session_id: 'agent-gone', state: 'waiting', parent: 'wait', turn: 1,
		event_cursor: '1:0', owner: { pid: 0, start: '' }, created_ms: now - 1000, updated_ms: now - 1000,
	}), { mode: 0o600 });
	/* Its lock file, which nobody holds: its owner is gone. */
	fs.writeFileSync(path.join(dir, `${id}.lock`), '', { mode: 0o600 });

	const c = await rig.server();
	const r = await until(() => {
		const rec = record(rig, id);
		return rec.state !== 'waiting' ? rec : null;
	}, 20000, 'the record taken over');
	assert.equal(r.state, 'failed', JSON.stringify(r));
	assert.equal(r.outcome, 'read_failed', JSON.stringify(r));
	assert.equal(file(rig, id, 'body'), 'pty_read: agent-gone is not an agent session (agent_launch starts one)');
	const list = await c.ok('parent_deliveries', {});
	assert.equal(lineOf(list.text, id), `${id}\tfailed\tagent-gone turn 1\tread_failed`, list.text);
});

test('DLV-CORE expiry: parent_deliveries fails an old answer written while the server runs; a waiter racing it, exactly one wins', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const late = writeReady(rig, { session: 'agent-late', ageMs: 24 * HOUR + 60000, body: 'Late.\n' });
	const list = await c.ok('parent_deliveries', { session_id: 'agent-late' });
	assert.equal(list.text, `${late}\tfailed\tagent-late turn 1\texpired_unclaimed`, list.text);
	assert.equal(record(rig, late).state, 'failed');
	assert.equal(file(rig, late, 'body'), 'Late.\n');

	/* Waiters and listings at once on old records: each ends claimed by one side only. */
	const ids = [];
	for (let i = 0; i < 12; i++)
		ids.push(writeReady(rig, { session: 'agent-race', ageMs: 25 * HOUR, body: `Race ${i}.\n` }));
	const [waits] = await Promise.all([
		Promise.all(ids.map((id) => run(waiterArgv(rig, id), rig.env))),
		c.ok('parent_deliveries', { session_id: 'agent-race' }),
		c.ok('parent_deliveries', {}),
	]);
	let printed = 0, expired = 0;
	for (const [i, id] of ids.entries()) {
		const w = waits[i], rec = record(rig, id), claim = file(rig, id, 'claim');
		assert.equal(file(rig, id, 'body'), `Race ${i}.\n`, 'the body is never lost');
		if (w.code === 0) {
			printed++;
			assert.equal(w.stdout, `Race ${i}.\n`);
			assert.equal(rec.state, 'submitted', `printed, so not expired: ${JSON.stringify(rec)}`);
			assert.match(claim, /^aiterm-wait \d+\n$/, 'the waiter holds the claim');
		} else {
			expired++;
			assert.ok(w.code === 1 || w.code === 3, `${w.code}: ${w.stderr}`);
			assert.equal(w.stdout, '', 'a waiter that lost printed nothing');
			assert.match(claim, /^expired \d+\n$/, 'the expiry holds the claim');
		}
	}
	assert.equal(printed + expired, ids.length);
	/* Once settled, the listing agrees with the claims. */
	const after = await c.ok('parent_deliveries', { session_id: 'agent-race' });
	for (const id of ids) {
		const want = file(rig, id, 'claim').startsWith('expired') ? 'failed' : 'submitted';
		assert.match(lineOf(after.text, id), new RegExp(`^${id}\t${want}\t`), after.text);
	}
	t.diagnostic(`race: ${printed} printed by the waiter, ${expired} expired`);
});

test('REM-RELAY DLV-CORE: records of answers owed on other hosts are listed by parent_deliveries until 24 h old, then removed', T, async (t) => {
	const rig = new Rig(t);
	const host = 'user@far.example:2222';
	const hash = crypto.createHash('sha256').update(host).digest('hex').slice(0, 16);
	const dir = path.join(rig.dirs.state, 'remote', hash, 'deliveries');
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	fs.chmodSync(rig.dirs.state, 0o700);
	fs.writeFileSync(path.join(rig.dirs.state, 'remote', hash, 'host.json'), JSON.stringify({ format: 1, host }));
	const rec = (id, session, ageMs) => fs.writeFileSync(path.join(dir, `${id}.json`),
		JSON.stringify({ format: 1, delivery_id: id, session_id: session, tool: 'agent_launch', created_ms: Date.now() - ageMs }));
	const fresh = newId(), old = newId();
	rec(fresh, 'agent-far1', HOUR);
	rec(old, 'agent-far2', 25 * HOUR);
	/* Not a record: a wrong id, a broken file. */
	fs.writeFileSync(path.join(dir, 'x.json'), '{"delivery_id":"../x","session_id":"a"}');
	fs.writeFileSync(path.join(dir, 'y.json'), '{');
	const c = await rig.server();
	const all = await c.ok('parent_deliveries', {});
	assert.equal(all.text, `${fresh}\tremote ${host}\tagent-far1`, show(all.r));
	assert.deepEqual(all.sc.remote_deliveries.map((d) => [d.delivery_id, d.host, d.session_id]), [[fresh, host, 'agent-far1']]);
	assert.equal(all.sc.total, 0);
	assert.ok(!fs.existsSync(path.join(dir, `${old}.json`)), 'the expired record is removed');
	assert.ok(fs.existsSync(path.join(dir, 'y.json')) && fs.existsSync(path.join(dir, 'x.json')),
		'files that are not records are left for a person to see');
	const other = await c.ok('parent_deliveries', { session_id: 'agent-far2' });
	assert.equal(other.text, 'no parent deliveries');
	assert.equal(other.sc.remote_deliveries, undefined);
});
