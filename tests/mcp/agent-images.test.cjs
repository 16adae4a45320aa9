'use strict';
/*
 * AGT-IMAGE (issue 33) through the real server: agent_launch{prompt,
 * image} and pty_send{image} check every image file before anything is
 * launched or typed (a relative path, a missing file, a folder, a file
 * that cannot be read, a file that is no PNG, JPEG, GIF or WebP by its
 * first bytes, images without a prompt, images to a plain shell: each an
 * error naming the path and why), and the four types go through to the
 * model.  The agent is the Cursor stand-in of tests/harness (a node
 * script answering from a mock model on 127.0.0.1; its attaching a pasted
 * path is ASSUMED, see cursor-standin/agent.cjs); the real CLIs are
 * tests/harness/{claude,codex,grok}.test.cjs.
 */
const fs = require('node:fs');
const path = require('node:path');
const test = require('node:test');
const assert = require('node:assert/strict');
const { cursorRig } = require('./lib/cursor-rig.cjs');
const { png, imagesIn } = require('../harness/lib/images.cjs');

const T = { timeout: 120000 };

/* The stand-in in a workspace trusted before, and the server. */
async function imageRig(t) {
	const { rig, mock } = await cursorRig(t, { CURSOR_STANDIN_TRUSTED: '1' });
	return { rig, mock, conn: await rig.server() };
}

/* Files of each kind the checks tell apart. */
function files(dir) {
	const f = (name, bytes) => {
		const p = path.join(dir, name);
		fs.writeFileSync(p, bytes);
		return p;
	};
	const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.from([30, 0, 0, 0]), Buffer.from('WEBPVP8L'), Buffer.alloc(22)]);
	return {
		png: f('a.png', png(32, 32, 3)),
		jpeg: f('b.jpg', Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(28)])),
		gif: f('c (copy).gif', Buffer.concat([Buffer.from('GIF89a'), Buffer.alloc(26)])),
		webp: f('d.webp', webp),
		text: f('notes.png', 'not an image, whatever its name says\n'),
		bmp: f('e.bmp', Buffer.concat([Buffer.from('BM'), Buffer.alloc(60)])),
		riff: f('f.wav', Buffer.concat([Buffer.from('RIFF'), Buffer.from([30, 0, 0, 0]), Buffer.from('WAVEfmt '), Buffer.alloc(22)])),
		empty: f('g.png', ''),
	};
}

async function listed(conn) {
	return (await conn.ok('pty_list', {})).sc.sessions.map((s) => s.session_id);
}

test('AGT-IMAGE issue 33: agent_launch refuses a bad image before anything is launched, naming the path and why', T, async (t) => {
	const { rig, mock, conn } = await imageRig(t);
	const F = files(rig.dirs.root);
	const cases = [
		['rel', 'pictures/a.png', /image 'pictures\/a\.png' is not an absolute path: give the file's absolute path; nothing was launched/],
		['missing', path.join(rig.dirs.root, 'nope.png'), /image '[^']*\/nope\.png': No such file or directory; nothing was launched/],
		['folder', rig.dirs.root, /image '[^']*' is not a regular file; nothing was launched/],
		/* A regular file no read gets bytes from, whoever the server runs as. */
		['unreadable', '/proc/self/mem', /image '\/proc\/self\/mem' is unreadable: Input\/output error; nothing was launched/],
		['text', F.text, /image '[^']*\/notes\.png' is not a PNG, JPEG, GIF or WebP image \(its first bytes are none of them\); nothing was launched/],
		['bmp', F.bmp, /image '[^']*\/e\.bmp' is not a PNG, JPEG, GIF or WebP image/],
		['riff', F.riff, /image '[^']*\/f\.wav' is not a PNG, JPEG, GIF or WebP image/],
		['empty', F.empty, /image '[^']*\/g\.png' is not a PNG, JPEG, GIF or WebP image/],
		['newline', `${rig.dirs.root}/a\n.png`, /its path has a control character and cannot be pasted; nothing was launched/],
	];
	for (const [name, file, re] of cases) {
		/* One good image first: every file is checked, not only the first. */
		const r = await conn.err('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: `img-${name}`,
			prompt: 'Look', image: [F.png, file] });
		assert.match(r.text, /^agent_launch: /, r.text);
		assert.match(r.text, re, `${name}: ${r.text}`);
	}
	const bare = await conn.err('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'img-bare', image: [F.png] });
	assert.match(bare.text, /image goes with a prompt: give prompt too, or send the images later with pty_send text=\.\.\. image=\[\.\.\.\]; nothing was launched/, bare.text);
	const ids = await listed(conn);
	for (const [name] of [...cases, ['bare']])
		assert.ok(!ids.includes(`img-${name}`), `img-${name} was not launched: ${ids}`);
	assert.equal(mock.requests.length, 0, 'nothing reached the model');
});

test('AGT-IMAGE issue 33: PNG, JPEG, GIF and WebP go with the prompt; a bad image to an agent or any image to a shell types nothing', T, async (t) => {
	const { rig, mock, conn } = await imageRig(t);
	const F = files(rig.dirs.root);
	const four = [F.png, F.jpeg, F.gif, F.webp];
	const l = await conn.ok('agent_launch', { harness: 'cursor-cli', cwd: rig.dirs.work, name: 'img-four', prompt: 'Four pictures', image: four });
	rig.sessions.add('img-four');
	assert.equal(l.sc.images, 4, l.text);
	assert.match(l.text, /^images: 4 attached to the prompt$/m, l.text);
	await conn.ok('pty_read', { session_id: 'img-four', agent_transcript: true, wait: true, timeout: 30 });
	const sent = mock.requests.filter((r) => r.kind === 'main');
	assert.equal(sent.length, 1);
	assert.deepEqual(imagesIn(sent[0].body), four.map((f) => fs.readFileSync(f).toString('base64')), 'the four files, in order');

	/* To the agent: the bad file is named, nothing is typed. */
	const bad = await conn.err('pty_send', { session_id: 'img-four', text: 'Never typed', image: [F.png, F.text] });
	assert.match(bad.text, /^pty_send: image '[^']*\/notes\.png' is not a PNG, JPEG, GIF or WebP image \(its first bytes are none of them\); nothing was sent$/, bad.text);
	const rel = await conn.err('pty_send', { session_id: 'img-four', text: 'Never typed', image: ['a.png'] });
	assert.match(rel.text, /image 'a\.png' is not an absolute path: give the file's absolute path; nothing was sent/, rel.text);
	const scr = await conn.ok('pty_read', { session_id: 'img-four', screen: true });
	assert.ok(!scr.text.includes('Never typed'), scr.text);
	assert.equal(mock.requests.filter((r) => r.kind === 'main').length, 1, 'no new request');

	/* To a plain shell: no image at all, nothing typed. */
	const sh = await conn.open({ name: 'img-shell' });
	const s = await conn.err('pty_send', { session_id: 'img-shell', text: 'echo never-typed-$((6*7))', image: [F.png] });
	assert.match(s.text, /^pty_send: image: img-shell is not an agent session \(agent_launch starts one\); images go only with a prompt to an agent; nothing was sent$/, s.text);
	const out = await conn.ok('pty_send', { session_id: 'img-shell', text: 'echo after', wait: true });
	assert.ok(!/never-typed|42/.test(out.text), out.text);
	assert.ok(sh);
});
