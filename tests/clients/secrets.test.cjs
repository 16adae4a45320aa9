'use strict';
/*
 * Issue 36 through the real Claude Code (2.1.332): a pane waits for a
 * secret; aiterm-mcp sends a URL-mode elicitation (Claude Code declares
 * elicitation {form, url}); an Elicitation hook in the private HOME's
 * ~/.claude/settings.json stands in for the person: it opens the page
 * (a POST with the page's own form fields), types the secret and
 * accepts.  The model reads that the person was asked and, after its
 * wait, the command's output; none of its requests to the mock model
 * ever holds the secret.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { runClaude } = require('./lib/claude.cjs');

const T = { timeout: 300000 };
const SECRET = `claude-hook-secret-${process.pid}`;

/* The hook: the person, who opens the page and types the secret. */
const HOOK = `
const fs = require('fs'), http = require('http');
const input = JSON.parse(fs.readFileSync(0, 'utf8'));
fs.writeFileSync(process.argv[2], JSON.stringify(input));
const u = new URL(input.url);
const body = 'token=' + u.pathname.slice(3) + '&secret=' + encodeURIComponent(process.argv[3]);
const req = http.request({ host: u.hostname, port: u.port, path: u.pathname, method: 'POST', headers: {
	Origin: u.origin, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': Buffer.byteLength(body) } }, (res) => {
	res.resume();
	res.on('end', () => {
		fs.writeFileSync(process.argv[2] + '.status', String(res.statusCode));
		process.stdout.write(JSON.stringify({ hookSpecificOutput: { hookEventName: 'Elicitation', action: 'accept' } }));
	});
});
req.end(body);
`;

test('PTY-DONE Claude Code: a URL-mode elicitation, answered by an Elicitation hook standing in for the person; the model never sees the secret', T, async (t) => {
	let seenFile;
	const r = await runClaude({
		steps: [
			{ tool: 'pty_open', args: { name: 'sec', shell: 'bash' } },
			{ tool: 'pty_send', args: { session_id: 'sec', wait: true, timeout: 20,
				text: 'read -r -s -p "Vault key: " v; echo "vault ${#v} $(printf %s "$v" | sha256sum | cut -c1-8)"' } },
			{ tool: 'pty_read', args: { session_id: 'sec', wait: true, until: 'vault ', timeout: 20 } },
			{ tool: 'pty_close', args: { session_id: 'sec' } },
		],
		prepare(dirs) {
			const hook = path.join(dirs.root, 'person.cjs');
			seenFile = path.join(dirs.root, 'elicitation.json');
			fs.writeFileSync(hook, HOOK);
			const settings = path.join(dirs.home, '.claude', 'settings.json');
			fs.mkdirSync(path.dirname(settings), { recursive: true });
			const old = fs.existsSync(settings) ? JSON.parse(fs.readFileSync(settings, 'utf8')) : {};
			old.hooks = { Elicitation: [{ hooks: [{ type: 'command', command: `node '${hook}' '${seenFile}' '${SECRET}'` }] }] };
			fs.writeFileSync(settings, JSON.stringify(old, null, 2));
		},
		keep: true,
	});
	t.after(() => fs.rmSync(r.dirs.root, { recursive: true, force: true }));
	const why = `results: ${JSON.stringify(r.results.map((x) => x.seen))}\nstderr: ${String(r.stderr).slice(-2000)}`;
	assert.equal(r.results.length, 4, why);
	assert.ok(fs.existsSync(seenFile), `the Elicitation hook ran: ${why}`);
	const seen = JSON.parse(fs.readFileSync(seenFile, 'utf8'));
	assert.equal(seen.mode, 'url', JSON.stringify(seen));
	assert.match(seen.url, /^http:\/\/127\.0\.0\.1:\d+\/s\/[0-9a-f]{64}$/);
	assert.match(seen.message, /sec \(bash\) waits for a secret at "Vault key:"/);
	assert.equal(fs.readFileSync(seenFile + '.status', 'utf8'), '200', 'the page took it');
	const sent = String(r.results[1].seen);
	assert.match(sent, /\[waiting for a secret: Vault key: \(bash\)\]/, why);
	assert.match(sent, /the person was asked through the client and opened the secret page/, why);
	assert.ok(!sent.includes(seen.url), 'the URL went to the person, not to the model');
	const hash = require('node:crypto').createHash('sha256').update(SECRET).digest('hex').slice(0, 8);
	assert.match(String(r.results[2].seen), new RegExp(`vault ${SECRET.length} ${hash}`), why);
	assert.ok(!JSON.stringify(r.requests).includes(SECRET), 'no request to the model holds the secret');
});
