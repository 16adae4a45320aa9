'use strict';
/*
 * What the model receives (ADR 0006).  Real AI clients (Claude Code, Codex)
 * hand the model only structuredContent when a result has it, so a client
 * that does not ask for it gets none, and the text of every tool carries
 * each fact the model needs: the output, the exit code and completion, the
 * fold hints with their line_range, the attach command, the next step.
 * tests/clients/ checks the same through the real clients.
 */
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, hasLine, show } = require('./lib/pty.cjs');
const { connectSdk } = require('./lib/sdk.cjs');

const T = { timeout: 90000 };

/* A model-view server (no structuredContent asked for) with one session. */
async function modelView(t, args) {
	const rig = new Rig(t);
	const c = await rig.server({ structured: false, args });
	const o = await c.open({});
	const m = o.text.match(/^opened (\S+) /);
	assert.ok(m, `pty_open names the session: ${show(o.r)}`);
	return { rig, c, id: m[1], open: o };
}

test('tools/list without the capability: no outputSchema (a declared one obliges structuredContent)', T, async (t) => {
	const { client } = await connectSdk(t, { structured: false });
	const { tools } = await client.listTools();
	assert.ok(tools.length >= 8, JSON.stringify(tools.map((x) => x.name)));
	for (const tool of tools) {
		assert.equal(tool.outputSchema, undefined, `${tool.name} declares no outputSchema`);
		assert.equal(typeof tool.inputSchema, 'object', tool.name);
	}
});

test('with the capability: outputSchema listed and every result validated by the SDK', T, async (t) => {
	const { client } = await connectSdk(t);
	const { tools } = await client.listTools();
	for (const tool of tools)
		assert.equal(typeof tool.outputSchema, 'object', `${tool.name} declares its outputSchema`);
	const r = await client.callTool({ name: 'diagnostics', arguments: {} });
	assert.equal(typeof r.structuredContent, 'object', show(r));
});

test('--structured gives structuredContent to a client that did not ask', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server({ structured: false, args: ['--structured'] });
	const o = await c.ok('pty_open', {});
	assert.equal(typeof o.sc, 'object', show(o.r));
	rig.sessions.add(o.sc.session_id);
	const { tools } = await c.client.listTools();
	assert.ok(tools.every((x) => typeof x.outputSchema === 'object'));
});

test('PTY-OPEN model view: session id and the attach command, no structuredContent', T, async (t) => {
	const { open, id } = await modelView(t);
	assert.equal(open.r.structuredContent, undefined, show(open.r));
	assert.match(open.text, new RegExp(`^watch: tmux -S \\S+/tmux\\.sock attach -t ${id}$`, 'm'), open.text);
});

test('PTY-SEND PTY-DONE model view: output and exit code; a true round trip is a few tokens', T, async (t) => {
	const { c, id } = await modelView(t);
	const r = await c.ok('pty_send', { session_id: id, text: 'echo hello-$((6*7)); false', wait: true });
	assert.equal(r.r.structuredContent, undefined);
	assert.equal(r.text, 'hello-42\nexit 1', show(r.r));
	const ok = await c.ok('pty_send', { session_id: id, text: 'true', wait: true });
	assert.equal(ok.text, 'exit 0', show(ok.r));
	const fail = await c.ok('pty_send', { session_id: id, text: 'ls /nonexistent-aiterm', wait: true });
	assert.match(fail.text, /No such file or directory\nexit 2$/, fail.text);
});

test('RED-HEADTAIL model view: a folded output shows its first and last lines and the line_range', T, async (t) => {
	const { c, id } = await modelView(t);
	const r = await c.ok('pty_send', { session_id: id, text: 'seq 1 5000 | sed s/^/row-/', wait: true });
	assert.ok(hasLine(r.text, 'row-1'), r.text);
	assert.ok(hasLine(r.text, 'row-5000'), r.text);
	const m = r.text.match(/pty_read line_range=\[(\d+),(\d+)\]/);
	assert.ok(m, `fold hint with line_range: ${r.text}`);
	/* Success is silent (ADR 0009): the output's last line ends it. */
	assert.match(r.text, /\nrow-5000$/, r.text);
	const first = Number(m[1]);
	const rest = await c.ok('pty_read', { session_id: id, line_range: [first + 2497, first + 2499] });
	assert.ok(hasLine(rest.text, 'row-2500'), rest.text.slice(0, 500));
});

test('RED-HEADTAIL model view: a log of long lines keeps its head and tail by bytes, and its one alert (issue 35)', T, async (t) => {
	const { c, id } = await modelView(t);
	/* 400 lines of about 340 bytes; the 250th is the one alert. */
	const r = await c.ok('pty_send', { session_id: id, wait: true,
		text: `awk 'BEGIN { p = sprintf("%300s", ""); gsub(/ /, "q", p); for (i = 1; i <= 400; i++) ` +
			`if (i == 250) print "[alert] worker " i " exited on signal 11"; else print "[warn] request " i " buffered to a temporary file " p }'` });
	const m = r.text.match(/\[… (\d+) lines omitted \(lines (\d+)-(\d+)\)/);
	assert.ok(m, `fold marker: ${r.text.slice(0, 600)}`);
	const kept = r.text.split('\n').filter((l) => /^(\d+: )?\[warn\] request \d+ /.test(l));
	/* 40 + 60 lines of 60 bytes would be kept; of these, about 14 + 21. */
	assert.ok(kept.length >= 10 && kept.length <= 45, `${kept.length} long lines kept: ${r.text.slice(0, 400)}`);
	assert.match(r.text, /^\d+: \[alert\] worker 250 exited on signal 11$/m, `the alert with its log line number: ${r.text}`);
	assert.ok(r.text.includes('[warn] request 1 buffered') && r.text.includes('[warn] request 400 buffered'), 'first and last lines');
	/* Within what Codex keeps of a result (11,964 bytes; tests/mcp/lib/views.cjs). */
	assert.ok(Buffer.byteLength(r.text) <= 10240 + 200, `${Buffer.byteLength(r.text)} bytes`);
	/* What was left out is there to read: the first omitted line. */
	const rest = await c.ok('pty_read', { session_id: id, line_range: [Number(m[2]), Number(m[2])] });
	const n = rest.text.match(/\[warn\] request (\d+) buffered/);
	assert.ok(n, rest.text.slice(0, 400));
	/* Not in the head (it may be among the numbered lines shown). */
	assert.doesNotMatch(r.text, new RegExp(`^\\[warn\\] request ${n[1]} buffered`, 'm'), `request ${n[1]} was omitted`);
	assert.match(r.text, new RegExp(`^\\[warn\\] request ${Number(n[1]) - 1} buffered`, 'm'), 'the head ends just before it');
});

/* One more model-view server on rig, introduced as clientName, with a session. */
async function sessionAs(rig, clientName) {
	const c = await rig.server({ structured: false, clientName });
	const o = await c.open({});
	return { c, id: o.text.match(/^opened (\S+) /)[1] };
}

test('RED-CMD model view: a listing far beyond its budget is held to 10 KiB by its reducer, for Codex and for a client that does not cut (ADR 0043, 0044)', T, async (t) => {
	const rig = new Rig(t);
	const read = async (clientName) => {
		const { c, id } = await sessionAs(rig, clientName);
		await c.ok('pty_send', { session_id: id, wait: true, timeout: 60,
			text: 'mkdir -p big; for i in $(seq 1 1500); do : > big/data-file-$i.csv; done; : > big/data-file-777.txt' });
		return { c, id, r: await c.ok('pty_send', { session_id: id, wait: true, timeout: 60, text: 'LC_ALL=C ls -la big' }) };
	};
	for (const name of ['aiterm-wire-test', 'codex-mcp-client']) {
		const { c, id, r } = await read(name);
		const text = r.text;
		/* The reducer's names and the lines about them; the exit line and the core's pointer besides. */
		assert.ok(Buffer.byteLength(text) <= 10240 + 200, `${name}: ${Buffer.byteLength(text)} bytes: ${text.slice(0, 300)}`);
		assert.doesNotMatch(text, /lines of this summary left out/, `${name}: the reducer chose, nothing was cut after it`);
		assert.match(text, /\(1503 entries, more than fit: names only; /, `${name}: ${text.slice(0, 300)}`);
		assert.match(text, /\bdata-file-1\.csv\b/, `${name}: the first entry`);
		assert.match(text, /\bdata-file-999\.csv$/m, `${name}: the last entry (sorted by name)`);
		assert.match(text, /^… \d+ more: \d+ files$/m, `${name}: what went is counted`);
		assert.match(text, /^… alone of its kind among them: data-file-777\.txt$/m, `${name}: the one *.txt`);
		assert.doesNotMatch(text, /\bdata-file-4999?\.csv\b/, `${name}: names from the middle went`);
		const m = text.match(/\[ls-long reducer; all of it: line_range=\[(\d+),(\d+)\]\]$/);
		assert.ok(m, text.slice(-300));
		const all = await c.ok('pty_read', { session_id: id, line_range: [Number(m[1]), Number(m[2])] });
		assert.match(all.text, /data-file-1\.csv/, all.text.slice(0, 300));
	}
});

test('PTY-READ model view: a raw read longer than Codex keeps is its head and tail with the lines between named, for Codex only (ADR 0043)', T, async (t) => {
	const rig = new Rig(t);
	const codex = await sessionAs(rig, 'codex-mcp-client');
	/* New output read raw; 6,000 invalid bytes first, each read as the 3-byte U+FFFD. */
	await codex.c.ok('pty_send', { session_id: codex.id,
		text: "head -c 6000 /dev/zero | tr '\\0' '\\377'; echo; seq -f 'new-%g' 1 4000" });
	await new Promise((res) => setTimeout(res, 1500));
	const raw = await codex.c.ok('pty_read', { session_id: codex.id, raw: true });
	assert.ok(Buffer.byteLength(raw.text) <= 11964, `${Buffer.byteLength(raw.text)} bytes`);
	const m = raw.text.match(/\[… (\d+) bytes omitted; read them with pty_read line_range=\[(\d+),(\d+)\]\]/);
	assert.ok(m, raw.text.slice(0, 600));
	assert.match(raw.text, /\ufffd/, 'the head');
	assert.match(raw.text, /new-4000\r?\n/, 'the tail');
	const gone = await codex.c.ok('pty_read', { session_id: codex.id, line_range: [Number(m[2]), Number(m[2])] });
	assert.match(gone.text, /new-\d+/, gone.text);
	/* The cursor moved past all of it. */
	const after = await codex.c.ok('pty_read', { session_id: codex.id });
	assert.match(after.text, /no new output/, after.text);
	/* A client that does not cut gets it whole. */
	const other = await sessionAs(rig, 'aiterm-wire-test');
	await other.c.ok('pty_send', { session_id: other.id, text: 'seq -f "new-%g" 1 4000' });
	await new Promise((res) => setTimeout(res, 1500));
	const whole = await other.c.ok('pty_read', { session_id: other.id, raw: true });
	assert.doesNotMatch(whole.text, /bytes omitted/);
	assert.match(whole.text, /new-2000\r?\n/);
});

test('RED-CMD model view: a reducer that left out a few lines says so itself, with no line_range line (ADR 0010)', T, async (t) => {
	const { c, id } = await modelView(t);
	/* node's own frames of a real crash: the trace reducer folds them. */
	const r = await c.ok('pty_send', { session_id: id, wait: true,
		text: `node -e "require('fs').readFileSync('/nonexistent-aiterm')"` });
	assert.match(r.text, /Error: ENOENT: no such file or directory, open '\/nonexistent-aiterm'/, r.text);
	assert.match(r.text, /^ {4}at \[eval\]:1:\d+$/m, `the program's own frame stays: ${r.text}`);
	assert.match(r.text, /^ {4}at … \(\+\d+ frames? in node\)$/m, `node's frames are counted: ${r.text}`);
	assert.doesNotMatch(r.text, /node:internal/, r.text);
	assert.doesNotMatch(r.text, /reducer; all of it/, `a few lines left out: no line_range line: ${r.text}`);
	assert.match(r.text, /\nexit 1$/, r.text);
	/* The log still holds every frame. */
	const full = await c.ok('pty_read', { session_id: id, full: true });
	assert.match(full.text, /node:internal/, 'the full log keeps what the reducer left out');
});

const haveJq = require('node:child_process').spawnSync('jq', ['--version']).status === 0;

test('RED-CMD model view: jq\'s JSON array of objects keeps every object\'s id and its rare member (issue 35)', { ...T, skip: haveJq ? false : 'no jq' }, async (t) => {
	const { c, id } = await modelView(t);
	/* 200 objects of 3 fields, pretty-printed by the real jq: 1,000 lines. */
	const r = await c.ok('pty_send', { session_id: id, wait: true,
		text: `jq -n '[range(200) | {id: "obj-\\(.)", branch: (if . == 123 then "hotfix/pool-leak" else "main" end), commit: "c\\(. * 7919)"}]'` });
	for (let i = 0; i < 200; i++)
		assert.ok(r.text.includes(`"id": "obj-${i}"`), `obj-${i} kept: ${r.text.slice(0, 400)}`);
	assert.ok(r.text.includes('"id": "obj-123", "branch": "hotfix/pool-leak"'), `the rare branch beside its id: ${r.text}`);
	assert.match(r.text, /branch: "main" 199, "hotfix\/pool-leak" 1/, r.text);
	assert.match(r.text, /\(left out: "commit" \(many values\)\)/, r.text);
	assert.doesNotMatch(r.text, /c1575881/, `the commit values are left out: ${r.text}`);
});

test('PTY-SEND PTY-READ model view: a send without wait says the next step; a read says running or the exit code', T, async (t) => {
	const { c, id } = await modelView(t);
	const s = await c.ok('pty_send', { session_id: id, text: 'sleep 1; echo late-$((2+3)); exit_me() { return 3; }; exit_me' });
	/* The acknowledgement is one token; the description says what next. */
	assert.equal(s.text, 'sent', s.text);
	const early = await c.ok('pty_read', { session_id: id });
	assert.match(early.text, /\[(no new output; )?still running\]$/, early.text);
	const done = await c.ok('pty_read', { session_id: id, wait: true });
	assert.match(done.text, /^late-5\nexit 3( · [\d.]+s)?$/, done.text);
	const again = await c.ok('pty_read', { session_id: id });
	assert.equal(again.text, '[no new output]', again.text);

	/*
	 * A plain read that passes the end: the exit code when it is not 0,
	 * nothing after the output when it is (success is silent, ADR 0009).
	 */
	await c.ok('pty_send', { session_id: id, text: 'echo quick-$((1+1)); (exit 4)' });
	let plain = '';
	for (let i = 0; i < 50 && !/\nexit \d/.test(plain); i++) {
		await new Promise((r) => setTimeout(r, 100));
		plain += (await c.ok('pty_read', { session_id: id })).text + '\n';
	}
	assert.match(plain, /quick-2\nexit 4/, `a plain read that passes the end says the exit code: ${plain}`);
	await c.ok('pty_send', { session_id: id, text: 'echo fine-$((1+2))' });
	const reads = [];
	for (let i = 0; i < 50; i++) {
		await new Promise((r) => setTimeout(r, 100));
		reads.push((await c.ok('pty_read', { session_id: id })).text);
		if (reads.join('\n').includes('fine-3') && !/still running\]$/.test(reads[reads.length - 1]))
			break;
	}
	const all = reads.join('\n');
	assert.match(all, /fine-3/, all);
	assert.doesNotMatch(all, /fine-3\nexit/, `exit 0 after output adds no status line: ${all}`);
	assert.doesNotMatch(reads[reads.length - 1], /still running/, `the command ended: ${all}`);
});

test('PTY-LIST model view: env_keys values are in the text', T, async (t) => {
	const { c, id } = await modelView(t);
	const l = await c.ok('pty_list', { env_keys: ['AITERM_SESSION_ID', 'SHELL'] });
	const line = l.text.split('\n').find((x) => x.startsWith(id + '\t'));
	assert.ok(line, l.text);
	assert.match(line, new RegExp(`\\talive\\t\\S+ AITERM_SESSION_ID=${id} SHELL=/\\S+$`), line);
});

test('PTY-OBSERVE model view: the cursor to pass back is in the text and works', T, async (t) => {
	const { c, id } = await modelView(t);
	const first = await c.ok('pty_observe', { session_id: id });
	const m = first.text.match(/^cursor: (\S+)$/m);
	assert.ok(m, first.text);
	const next = await c.ok('pty_observe', { session_id: id, cursor: m[1] });
	assert.match(next.text, /^activity: \d+ ms CPU in \d+ ms/m, next.text);
});

test('errors reach the model as text with isError', T, async (t) => {
	const { c } = await modelView(t);
	const e = await c.err('pty_read', { session_id: 'no-such-session' });
	assert.match(e.text, /unknown session 'no-such-session'/, e.text);
	const bad = await c.err('pty_send', { session_id: 'x' });
	assert.match(bad.text, /text/, bad.text);
});

test('PTY-READ: a long line read comes a page at a time; following the hints reads every line once', T, async (t) => {
	const { c, id } = await modelView(t);
	await c.ok('pty_send', { session_id: id, text: 'seq 1 6000 | sed s/^/page-/', wait: true });
	const seen = new Set();
	let range = [1, 6100];
	let pages = 0;
	while (range) {
		const r = await c.ok('pty_read', { session_id: id, line_range: range });
		assert.ok(Buffer.byteLength(r.text) < 9000, `one page stays under the size a client shows whole: ${r.text.length}`);
		for (const m of r.text.matchAll(/^page-(\d+)$/gm)) {
			assert.ok(!seen.has(m[1]), `page-${m[1]} is read once`);
			seen.add(m[1]);
		}
		const next = r.text.match(/\[lines (\d+)-(\d+) shown; the rest: pty_read line_range=\[(\d+),(\d+)\]\]$/);
		if (next)
			assert.equal(Number(next[3]), Number(next[2]) + 1, r.text.slice(-200));
		range = next ? [Number(next[3]), Number(next[4])] : null;
		assert.ok(++pages < 20, 'the pages end');
	}
	assert.equal(seen.size, 6000, `every line was read: ${seen.size} in ${pages} pages`);
	assert.ok(pages >= 5, `several pages: ${pages}`);
	const tail = await c.ok('pty_read', { session_id: id, lines: 5000 });
	assert.match(tail.text, /^\[earlier lines: pty_read line_range=\[\d+,\d+\]\]\n/, tail.text.slice(0, 200));
	assert.match(tail.text, /^page-6000$/m);
});
