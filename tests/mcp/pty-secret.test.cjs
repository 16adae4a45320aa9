'use strict';
/*
 * Issue 36 (PTY-DONE, OBS-CORE): a pane that waits for a secret.  Its
 * terminal reads lines with echo off and its foreground process is blocked
 * reading it: a pty_send or pty_read wait ends at once with via "secret"
 * and the prompt line, never running out its timeout; pty_observe says so.
 * Real programs only: bash's read -s, ssh asking for a key's passphrase
 * (a private sshd on 127.0.0.1, tests/mcp/lib/sshd.cjs).  A prompt's words
 * alone (echo "Password:") are not a secret prompt.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { Rig, show } = require('./lib/pty.cjs');
const { sshdUnavailable, startSshd, sshRig } = require('./lib/sshd.cjs');
const { skip } = require('./lib/skip.cjs');
const { post } = require('./lib/secrets.cjs');

const T = { timeout: 90000 };

/* The wait ended on the secret prompt, long before its timeout. */
function assertSecret(res, prompt, started, timeout) {
	assert.equal(res.sc.via, 'secret', show(res.r));
	assert.equal(res.sc.complete, true, show(res.r));
	assert.match(res.sc.secret.prompt, prompt, show(res.r));
	assert.match(res.text, /\[waiting for a secret: /, show(res.r));
	assert.ok(Date.now() - started < timeout * 1000 / 2,
		`ended at once, not at its ${timeout}s timeout: ${Date.now() - started} ms`);
}

test('PTY-DONE read -s: the send ends at once at the secret prompt; pty_read and pty_observe say so; words alone do not', T, async (t) => {
	const rig = new Rig(t);
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;

	/* The words of a prompt with echo on: an ordinary command's end. */
	let res = await c.expectExit(id, 'echo "Password:"', 0);
	assert.notEqual(res.sc.via, 'secret', show(res.r));

	let started = Date.now();
	res = await c.run(id, 'read -r -s -p "Vault key: " v; echo "got ${#v} chars"', { timeout: 20 });
	assertSecret(res, /^Vault key:$/, started, 20);
	assert.equal(res.sc.secret.program, 'bash', show(res.r));

	/* A read that waits ends there too, at once. */
	started = Date.now();
	res = await c.ok('pty_read', { session_id: id, wait: true, timeout: 20 }, 40000);
	assertSecret(res, /^Vault key:$/, started, 20);

	res = await c.ok('pty_observe', { session_id: id });
	assert.match(res.text, /waiting for a secret: Vault key:/, show(res.r));

	/* Typed (here by the test, standing in for the person): it goes on. */
	await c.ok('pty_send', { session_id: id, text: 'abc123' });
	res = await c.ok('pty_read', { session_id: id, wait: true, until: 'got 6 chars', timeout: 10 }, 30000);
	assert.match(res.text, /got 6 chars/, show(res.r));

	/* pty_open{command} (ADR 0034) ends there as a waited send does. */
	started = Date.now();
	res = await c.open({ shell: 'bash', command: 'read -r -s -p "Opened key: " k', timeout: 20 });
	assertSecret(res, /^Opened key:$/, started, 20);
});

/* A tmux that logs the argv of every tmux process the server starts. */
function loggingTmux(dir) {
	const real = require('node:child_process').execFileSync('sh', ['-c', 'command -v tmux'], { encoding: 'utf8' }).trim();
	const log = path.join(dir, 'tmux-argv.log');
	const shim = path.join(dir, 'tmux');
	fs.writeFileSync(shim, `#!/bin/sh\nprintf '%s\\n' "$*" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o700 });
	fs.writeFileSync(log, '', { mode: 0o600 });
	return { shim, log };
}

test('PTY-DONE issue 36: the page types a secret over tmux\'s control client only, never as a tmux process\'s argument', T, async (t) => {
	const base = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-argv-'));
	t.after(() => fs.rmSync(base, { recursive: true, force: true }));
	const { shim, log } = loggingTmux(base);
	for (const control of ['1', '0']) {
		const rig = new Rig(t, { AITERM_TMUX: shim, AITERM_TMUX_CONTROL: control });
		const c = await rig.server();
		const id = (await c.open({ shell: 'bash' })).sc.session_id;
		const secret = `argv-secret-${control}-${process.pid}`;
		let res = await c.run(id, 'read -r -s -p "Key: " v; echo "got ${#v} chars"', { timeout: 20 });
		assert.equal(res.sc.via, 'secret', show(res.r));
		const r = await post(res.sc.secret.url, res.sc.secret.url.slice(-64), secret);
		/* Before ADR 0037's send_secret, control mode off put it in a one-shot tmux's argv. */
		assert.ok(!fs.readFileSync(log, 'utf8').includes(secret), `control ${control}: the secret was in a tmux argv`);
		if (control === '1') {
			assert.equal(r.status, 200, r.body);
			res = await c.ok('pty_read', { session_id: id, wait: true, until: 'chars', timeout: 10 }, 30000);
			assert.match(res.text, new RegExp(`got ${secret.length} chars`), show(res.r));
		} else {
			/* Every tmux command is a one-shot process here: nothing is typed, and the page says why. */
			assert.equal(r.status, 503, r.body);
			assert.match(r.body, /Nothing was typed: tmux&#39;s control client is not available|Nothing was typed: tmux's control client is not available/, r.body);
			assert.match(r.body, /never typed by a one-shot tmux process/, r.body);
			res = await c.ok('pty_observe', { session_id: id });
			assert.match(res.text, /waiting for a secret: Key:/, show(res.r));
		}
		assert.ok(fs.readFileSync(log, 'utf8').split('\n').length > 3, 'the shim ran tmux');
	}
});

test('PTY-DONE ssh with a passphrase-protected key: the wait ends at once at the passphrase prompt', T, async (t) => {
	const why = sshdUnavailable();
	if (why)
		return skip(t, 'no-sshd', why);
	const rig = new Rig(t);
	const sshd = await startSshd(path.join(rig.dirs.root, 'sshd'), { passphrase: 'pp-secret-36' });
	rig.cleanups.push(() => sshd.stop());
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	const cmd = sshd.sshCommand.replace('-o BatchMode=yes ', '') + ' echo far-$((6*7))';
	const started = Date.now();
	const res = await c.run(id, cmd, { timeout: 20 });
	assertSecret(res, /^Enter passphrase for key '.*id_ed25519':$/, started, 20);
	assert.equal(res.sc.secret.program, 'ssh', show(res.r));
});

test('PTY-DONE issue 36: a password prompt on the far side of ssh ends the wait as a secret; the page types it through ssh', T, async (t) => {
	const s = await sshRig(t, 'far');
	if (!s)
		return;
	const { sshd, c, id } = s;
	let res = await c.ok('pty_send', { session_id: id, text: sshd.sshCommand, until: '[$#] $', until_regex: true, timeout: 20 }, 40000);
	assert.equal(res.sc.via, 'until', show(res.r));

	/* The words with echo on, on the far side: an ordinary end, not a secret. */
	res = await c.run(id, 'printf "Password: \\n"; echo after', { timeout: 15 });
	assert.notEqual(res.sc.via, 'secret', show(res.r));

	/* read -s on the far side: the local tty is ssh's (raw); the wait ends there. */
	const started = Date.now();
	res = await c.run(id, 'read -r -s -p "Remote password: " v; echo "far got ${#v} chars"', { timeout: 20 });
	assertSecret(res, /^Remote password:$/, started, 20);
	assert.equal(res.sc.secret.program, 'ssh', show(res.r));
	res = await c.ok('pty_observe', { session_id: id });
	assert.match(res.text, /waiting for a secret: Remote password:/, show(res.r));
	const again = await c.ok('pty_read', { session_id: id, wait: true, timeout: 20 }, 40000);
	assert.equal(again.sc.via, 'secret', show(again.r));
	const r = await post(again.sc.secret.url, again.sc.secret.url.slice(-64), 'far-secret-36');
	assert.equal(r.status, 200, r.body);
	res = await c.ok('pty_read', { session_id: id, wait: true, until: 'chars', timeout: 15 }, 30000);
	assert.match(res.text, /far got 13 chars/, show(res.r));
	assert.doesNotMatch(res.text, /far-secret-36/, show(res.r));
});

test('PTY-DONE a client with URL-mode elicitation is asked to send the person to the page; form-only is told why not', T, async (t) => {
	const { ElicitRequestSchema, ElicitationCompleteNotificationSchema } = require('@modelcontextprotocol/sdk/types.js');
	const rig = new Rig(t);
	const asked = [];
	const completed = [];
	const c = await rig.server({
		capabilities: { elicitation: { url: {} } },
		setup(client) {
			client.setRequestHandler(ElicitRequestSchema, (req) => {
				asked.push(req.params);
				return { action: 'accept' };
			});
			client.setNotificationHandler(ElicitationCompleteNotificationSchema, (n) => { completed.push(n.params); });
		},
	});
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	const started = Date.now();
	let res = await c.run(id, 'read -r -s -p "Token: " v; echo "len ${#v}"', { timeout: 20 });
	assertSecret(res, /^Token:$/, started, 20);
	assert.equal(res.sc.secret.elicitation, 'url', show(res.r));
	assert.equal(res.sc.secret.elicitation_answer, 'accept', show(res.r));
	assert.equal(asked.length, 1, JSON.stringify(asked));
	assert.equal(asked[0].mode, 'url');
	assert.equal(asked[0].url, res.sc.secret.url);
	assert.match(asked[0].message, new RegExp(`${id} \\(bash\\) waits for a secret at "Token:"`));
	assert.ok(!res.text.includes(res.sc.secret.url), `the URL went to the person, not into the model's text: ${res.text}`);
	assert.match(res.text, /asked through the client/, show(res.r));
	/* The person (the test) types it on the page: the client hears it is done. */
	const r = await post(res.sc.secret.url, res.sc.secret.url.slice(-64), 'seven77');
	assert.equal(r.status, 200, r.body);
	res = await c.ok('pty_read', { session_id: id, wait: true, until: 'len 7', timeout: 10 }, 30000);
	for (let i = 0; i < 50 && completed.length === 0; i++)
		await new Promise((ok) => setTimeout(ok, 20));
	assert.deepEqual(completed, [{ elicitationId: asked[0].elicitationId }]);

	/* The person declines in the client: the model is given the URL to pass on. */
	const d = await rig.server({
		capabilities: { elicitation: { url: {} } },
		setup(client) {
			client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
		},
	});
	const idd = (await d.open({ shell: 'bash' })).sc.session_id;
	res = await d.run(idd, 'read -r -s -p "Declined: " v', { timeout: 20 });
	assert.equal(res.sc.secret.elicitation_answer, 'decline', show(res.r));
	assert.ok(res.text.includes(`the client's elicitation ended: decline; tell the person: open ${res.sc.secret.url} `), show(res.r));

	/* Form mode only ({} of 2025-06-18): no form for a secret; the URL in the text. */
	const f = await rig.server({
		capabilities: { elicitation: {} },
		setup(client) {
			client.setRequestHandler(ElicitRequestSchema, (req) => { asked.push(req.params); return { action: 'decline' }; });
		},
	});
	const id2 = (await f.open({ shell: 'bash' })).sc.session_id;
	res = await f.run(id2, 'read -r -s -p "Form: " v', { timeout: 20 });
	assert.equal(res.sc.secret.elicitation, 'form', show(res.r));
	assert.equal(asked.length, 1, 'nothing asked of a form-only client');
	assert.match(res.text, /elicits by forms only, never for secrets; tell the person: open http:\/\/127\.0\.0\.1:\d+\/s\/[0-9a-f]{64} /, show(res.r));
});

/*
 * A user of our own whose sudo asks for a password, in a private mount
 * namespace (unshare -m, passwd, shadow and sudoers bind-mounted, as
 * tests/mcp/lib/sshd.cjs does for sshd): the machine's accounts and
 * sudoers are not touched.  setpriv, not su: su -c starts a new session
 * without the terminal.
 */
/* Why a test of a user of its own with sudo cannot run here, or null. */
function sudoUnavailable() {
	const { execFileSync } = require('node:child_process');
	const { fakeUserUnavailable } = require('./lib/sshd.cjs');
	let why = fakeUserUnavailable();
	try {
		execFileSync('sh', ['-c', 'command -v sudo && command -v setpriv && command -v openssl'], { stdio: 'ignore' });
	} catch {
		why = why || 'sudo, setpriv or openssl is missing (./quickstart check installs sudo)';
	}
	return why;
}

/*
 * A user aiterm-sudo (uid 4236) whose sudo asks for password, in a mount
 * namespace of its own: the shell line that mounts its passwd, shadow and
 * sudoers, and a function wrapping a command to run as that user there.
 */
function sudoUser(dir, password) {
	const u = sudoMounts(dir, password);
	return (cmd) => `unshare -m sh -c "${u.mounts} && exec setpriv --reuid=4236 --regid=4236 --clear-groups ` +
		`env HOME='${dir}' USER=aiterm-sudo sh -c '${cmd}'"`;
}

function sudoMounts(dir, password) {
	const { execFileSync } = require('node:child_process');
	fs.mkdirSync(dir, { recursive: true, mode: 0o755 });
	const hash = execFileSync('openssl', ['passwd', '-6', '-stdin'], { input: password + '\n', encoding: 'utf8' }).trim();
	const f = (name, text, mode) => {
		fs.writeFileSync(path.join(dir, name), text, { mode });
		return path.join(dir, name);
	};
	const passwd = f('passwd', fs.readFileSync('/etc/passwd', 'utf8') + `aiterm-sudo:x:4236:4236::${dir}:/bin/sh\n`, 0o644);
	const shadow = f('shadow', `aiterm-sudo:${hash}:19000:0:99999:7:::\n`, 0o600);
	const sudoers = f('sudoers', 'Defaults !lecture\naiterm-sudo ALL=(ALL) ALL\n', 0o440);
	return { mounts: `mount --bind '${passwd}' /etc/passwd && mount --bind '${shadow}' /etc/shadow && ` +
		`mount --bind '${sudoers}' /etc/sudoers` };
}

test('PTY-DONE real sudo asking a test user\'s password: the wait ends at once; the page types it', T, async (t) => {
	const why = sudoUnavailable();
	if (why)
		return skip(t, 'no-sudo', why);
	const rig = new Rig(t);
	const inNs = sudoUser(path.join(rig.dirs.root, 'sudo'), 'pw-of-36');
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	const started = Date.now();
	let res = await c.run(id, inNs('sudo -k true && echo sudo-ok-$((6*7))'), { timeout: 20 });
	assertSecret(res, /^\[sudo\] password for aiterm-sudo:$/, started, 20);
	const r = await post(res.sc.secret.url, res.sc.secret.url.slice(-64), 'pw-of-36');
	assert.equal(r.status, 200, r.body);
	res = await c.ok('pty_read', { session_id: id, wait: true, timeout: 15 }, 30000);
	assert.match(res.text, /sudo-ok-42/, show(res.r));
	assert.equal(res.sc.exit_code, 0, show(res.r));
});

test('PTY-DONE issue 36: a server that is not root cannot look into a set-user-ID sudo; its known prompt decides, and the page types it', T, async (t) => {
	const why = sudoUnavailable();
	if (why)
		return skip(t, 'no-sudo', why);
	const { execFileSync } = require('node:child_process');
	const { serverBinary } = require('./lib/server.cjs');
	const rig = new Rig(t);
	/* sudo's files stay root's (sudo refuses others); the rest of the rig is the user's. */
	const files = fs.mkdtempSync(path.join(os.tmpdir(), 'aiterm-sudo-'));
	t.after(() => fs.rmSync(files, { recursive: true, force: true }));
	const { mounts } = sudoMounts(files, 'pw-of-hidden');
	execFileSync('chown', ['-R', '4236:4236', rig.dirs.root]);
	const c = await rig.server({
		command: 'unshare',
		args: ['-m', 'sh', '-c', `${mounts} && exec setpriv --reuid=4236 --regid=4236 --clear-groups "$0"`, serverBinary()],
	});
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	let res = await c.run(id, 'id -u', { timeout: 15 });
	assert.match(res.text, /^4236$/m, `the pane runs as the user: ${show(res.r)}`);
	/* Words alone, echo on: an ordinary end. */
	res = await c.expectExit(id, 'echo "[sudo] password for aiterm-sudo:"', 0);
	assert.notEqual(res.sc.via, 'secret', show(res.r));
	const started = Date.now();
	res = await c.run(id, 'sudo -k true && echo hidden-ok-$((6*7))', { timeout: 20 });
	assertSecret(res, /^\[sudo\] password for aiterm-sudo:$/, started, 20);
	assert.equal(res.sc.secret.program, 'sudo', show(res.r));
	const r = await post(res.sc.secret.url, res.sc.secret.url.slice(-64), 'pw-of-hidden');
	assert.equal(r.status, 200, r.body);
	res = await c.ok('pty_read', { session_id: id, wait: true, timeout: 15 }, 30000);
	assert.match(res.text, /hidden-ok-42/, show(res.r));
});

test('CTL-CLI aiterm send --wait prints the page\'s URL at a secret prompt and serves it until it is used', T, async (t) => {
	const { runAiterm } = require('./lib/cli.cjs');
	const rig = new Rig(t);
	const c = await rig.server();
	const id = (await c.open({ shell: 'bash' })).sc.session_id;
	let url = null;
	let resolveUrl;
	const gotUrl = new Promise((r) => { resolveUrl = r; });
	const run = runAiterm(['send', id, 'read -r -s -p "CLI key: " v; echo "cli ${#v}"', '--wait', '--timeout', '20'],
		rig.env, rig.dirs.home, {
			ms: 40000,
			started(p) {
				let out = '';
				p.stdout.on('data', (s) => {
					out += s;
					const m = out.match(/open (http:\/\/127\.0\.0\.1:\d+\/s\/[0-9a-f]{64}) to type it/);
					if (m && !url) {
						url = m[1];
						resolveUrl(url);
					}
				});
			},
		});
	const started = Date.now();
	await Promise.race([gotUrl, run.then((r) => { throw new Error(`aiterm ended without a URL: ${JSON.stringify(r)}`); })]);
	assert.ok(Date.now() - started < 10000, 'printed at once');
	const r = await post(url, url.slice(-64), 'four');
	assert.equal(r.status, 200, r.body);
	const done = await run;
	assert.match(done.stdout, /\[waiting for a secret: CLI key: \(bash\)\]/, JSON.stringify(done));
	assert.match(done.stderr, /the secret page stays open until it is used/, JSON.stringify(done));
	const res = await c.ok('pty_read', { session_id: id, wait: true, until: 'cli 4', timeout: 10 }, 30000);
	assert.match(res.text, /cli 4/, show(res.r));
});
