'use strict';
/*
 * Issue 36 (PTY-DONE): the secret page in a real browser.  A pane waits at
 * read -s; the wait's result gives a one-time URL on 127.0.0.1; Debian's
 * headless Chromium (one per file, tests/mcp/lib/chromium.cjs) opens it,
 * sees which session, command and prompt it is for (and none of the
 * pane's other output), fills the form and submits; the command goes on
 * and its output reaches the model.  Refused: a second use, a wrong
 * token, a forged Host or Origin, a request from another address than
 * 127.0.0.1, a pane that moved on.  Then the secret is nowhere: not under
 * the state root or HOME, not in the tmux server's buffers or the pane's
 * history, not in any process's argv or environment.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const { Rig, show } = require('./lib/pty.cjs');
const { chromiumUnavailable, Browser } = require('./lib/chromium.cjs');
const { skip } = require('./lib/skip.cjs');
const { filesHolding, procsHolding, request, post } = require('./lib/secrets.cjs');

const T = { timeout: 120000 };

async function waitSecret(c, id, command) {
	const res = await c.run(id, command, { timeout: 20 });
	assert.equal(res.sc.via, 'secret', show(res.r));
	assert.match(res.sc.secret.url, /^http:\/\/127\.0\.0\.1:\d+\/s\/[0-9a-f]{64}$/, show(res.r));
	return res;
}

test('PTY-DONE the secret page in headless Chromium: typed once into the pane, refused otherwise, kept nowhere', T, async (t) => {
	const why = chromiumUnavailable();
	if (why)
		return skip(t, 'no-chromium', why);
	const browserDir = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-chromium-'));
	const browser = new Browser(browserDir);
	t.after(async () => {
		await browser.close();
		fs.rmSync(browserDir, { recursive: true, force: true });
	});
	const rig = new Rig(t);
	const c = await rig.server();
	const opened = await c.open({ shell: 'bash' });
	const id = opened.sc.session_id;
	await c.expectExit(id, 'echo other-output-$((6*7))', 0);
	const secret = `s3cr3t-${process.pid}-${Date.now()} "q" & <b>`;

	/* No elicitation declared: the text tells the person where to go. */
	let res = await waitSecret(c, id, 'read -r -s -p "Vault key: " v; printf "typed %s\\n" "$(printf %s "$v" | sha256sum | cut -c1-12)"');
	const url = res.sc.secret.url;
	assert.equal(res.sc.secret.elicitation, 'none', show(res.r));
	assert.ok(res.text.includes(`open ${url} to type it`), show(res.r));
	assert.equal(res.sc.secret.attach, opened.sc.attach, 'the attach command pty_open gave');
	assert.ok(res.text.includes(res.sc.secret.attach), show(res.r));
	assert.match(res.text, /Do not ask them for it/, show(res.r));

	/* The same prompt asked again: the same URL, not a second token. */
	res = await c.ok('pty_read', { session_id: id, wait: true, timeout: 10 }, 30000);
	assert.equal(res.sc.secret.url, url, show(res.r));

	const page = await browser.page();
	await page.go(url);
	const shown = await page.text();
	assert.match(shown, new RegExp(id), shown);
	assert.match(shown, /Vault key:/, shown);
	assert.match(shown, /read -r -s -p/, `the command: ${shown}`);
	assert.doesNotMatch(shown, /other-output/, `never the pane's other output: ${shown}`);
	await page.eval(`document.querySelector('#secret').value = ${JSON.stringify(secret)}, true`);
	await page.submit('#send');
	assert.match(await page.text(), /Sent to the terminal/);

	/* The command went on; the model reads its output. */
	const hash = require('node:crypto').createHash('sha256').update(secret).digest('hex').slice(0, 12);
	res = await c.ok('pty_read', { session_id: id, wait: true, timeout: 10 }, 30000);
	assert.match(res.text, new RegExp(`typed ${hash}`), show(res.r));
	assert.ok(!JSON.stringify(res.r).includes(secret), 'the result never holds the secret');

	/*
	 * A second use: gone.  With no other page standing the port itself
	 * has closed; else the token is unknown.
	 */
	const token = url.slice(-64);
	const gone = (p) => p.then((r) => r.status, (e) => e.code);
	assert.ok(['ECONNREFUSED', 404].includes(await gone(request(url))), 'GET again');
	assert.ok(['ECONNREFUSED', 404].includes(await gone(post(url, token, 'again'))), 'POST again');

	/* Another prompt: a new URL; refused without the right everything. */
	res = await waitSecret(c, id, 'read -r -s -p "Second: " w; echo "second ${#w}"');
	const url2 = res.sc.secret.url;
	const token2 = url2.slice(-64);
	assert.notEqual(url2, url);
	const wrong = token2.replace(/^./, (ch) => (ch === '0' ? '1' : '0'));
	assert.equal((await request(url2, { path: `/s/${wrong}` })).status, 404, 'a wrong token');
	assert.equal((await post(url2.replace(token2, wrong), wrong, 'x')).status, 404, 'a wrong token, posted');
	assert.equal((await post(url2, wrong, 'x')).status, 403, 'the right URL, a wrong form token');
	assert.equal((await request(url2, { headers: { Host: 'attacker.example' } })).status, 403, 'a forged Host');
	assert.equal((await post(url2, token2, 'x', { headers: { Origin: 'http://attacker.example' } })).status, 403, 'a forged Origin');
	assert.equal((await post(url2, token2, 'x', { headers: { Origin: undefined } })).status, 403, 'no Origin');
	assert.equal((await request(url2, { localAddress: '127.0.0.2' })).status, 403, 'another address');
	assert.equal((await post(url2, token2, 'line\nrm -rf x')).status, 400, 'control characters');
	/* None of these used it up: the page still stands. */
	assert.equal((await request(url2)).status, 200);

	/* The pane moves on (the person typed there): the page types nothing. */
	await c.ok('pty_send', { session_id: id, text: 'typed-in-the-terminal' });
	res = await c.ok('pty_read', { session_id: id, wait: true, until: 'second 21', timeout: 10 }, 30000);
	const moved = await post(url2, token2, 'too-late');
	assert.equal(moved.status, 409, moved.body);
	assert.match(moved.body, /no longer waits/);
	res = await c.run(id, 'echo after', { timeout: 10 });
	assert.doesNotMatch(res.text, /too-late/, show(res.r));

	/* Kept nowhere. */
	assert.deepEqual(filesHolding(rig.dirs.root, secret), [], 'no file under the state root, HOME or TMPDIR');
	assert.deepEqual(procsHolding(secret).hits, [], 'no argv, no environment');
	for (const sock of rig.sockets) {
		if (!fs.existsSync(sock))
			continue;
		const bufs = execFileSync('tmux', ['-S', sock, 'list-buffers', '-F', '#{buffer_sample}'], { encoding: 'utf8' });
		assert.ok(!bufs.includes(secret), 'no tmux buffer');
		const hist = execFileSync('tmux', ['-S', sock, 'capture-pane', '-p', '-S', '-', '-t', id], { encoding: 'utf8' });
		assert.ok(!hist.includes(secret), 'not in the pane history');
	}
	assert.ok(!c.stderr().includes(secret), 'not in the server log');
});
