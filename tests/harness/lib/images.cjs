'use strict';
/*
 * Images for the AGT-IMAGE tests (issue 33): real PNG files made here
 * (32x32: Grok Build drops an image under 512 pixels), and the images a
 * model request carries, whatever its API: an Anthropic Messages
 * {type:'image', source:{data}}, a Responses {type:'input_image',
 * image_url:'data:...'}, a Chat Completions {type:'image_url',
 * image_url:{url:'data:...'}}.
 */
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

function crc32(buf) {
	let c = 0xffffffff;
	for (const b of buf) {
		c ^= b;
		for (let k = 0; k < 8; k++)
			c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	}
	return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
	const len = Buffer.alloc(4);
	len.writeUInt32BE(data.length);
	const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(body));
	return Buffer.concat([len, body, crc]);
}

/* A w x h RGB PNG whose pixels depend on seed (two files differ). */
function png(w = 32, h = 32, seed = 1) {
	const ihdr = Buffer.alloc(13);
	ihdr.writeUInt32BE(w, 0);
	ihdr.writeUInt32BE(h, 4);
	ihdr[8] = 8;
	ihdr[9] = 2;
	const raw = Buffer.alloc((w * 3 + 1) * h);
	for (let y = 0; y < h; y++)
		for (let x = 0; x < w; x++) {
			const o = y * (w * 3 + 1) + 1 + x * 3;
			raw[o] = (seed * 53) & 255;
			raw[o + 1] = (x * 8) & 255;
			raw[o + 2] = (y * 8 + seed) & 255;
		}
	return Buffer.concat([Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]), chunk('IHDR', ihdr),
		chunk('IDAT', zlib.deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}

/* Writes a PNG into dir; returns its absolute path. */
function writePng(dir, name = 'picture.png', seed = 1) {
	const file = path.join(dir, name);
	fs.writeFileSync(file, png(32, 32, seed));
	return file;
}

/* The base64 data of every image in a request body. */
function imagesIn(body) {
	const out = [];
	const fromUrl = (u) => {
		const m = typeof u === 'string' && u.match(/^data:image\/[a-z]+;base64,(.*)$/s);
		if (m)
			out.push(m[1]);
	};
	const walk = (x) => {
		if (Array.isArray(x))
			return x.forEach(walk);
		if (!x || typeof x !== 'object')
			return;
		if (x.type === 'image' && x.source && x.source.type === 'base64')
			out.push(x.source.data);
		else if (x.type === 'input_image')
			fromUrl(x.image_url);
		else if (x.type === 'image_url' && x.image_url)
			fromUrl(x.image_url.url);
		for (const v of Object.values(x))
			walk(v);
	};
	walk(body);
	return out;
}

/* Whether the request carries the file's own bytes as an image. */
function carries(body, file) {
	const want = fs.readFileSync(file).toString('base64');
	return imagesIn(body).includes(want);
}

/*
 * AGT-IMAGE on one agent CLI: a launch whose prompt carries one image,
 * then a send with another whose name has a space (pasted as a shell
 * word: Codex takes a bare path with a space for text); the next model
 * request after each must carry that file's own bytes.  launch(args) gives agent_launch's receipt (args:
 * prompt and image), main() the main-loop requests the mock has seen so
 * far (each {body}), sid(text) the receipt's session.
 */
async function imageTurns(assert, rig, { launch, main, sid }) {
	const one = writePng(rig.dirs.root, 'one.png', 1);
	const two = writePng(rig.dirs.root, 'second picture.png', 2);
	const l = await launch({ prompt: 'What is in the picture?', image: [one] });
	assert.equal(l.isError, false, l.text);
	assert.match(l.text, /^images: 1 attached to the prompt$/m, l.text);
	assert.equal(l.sc.images, 1, l.text);
	const id = sid(l.text);
	const a = await rig.call('pty_read', { session_id: id, agent_transcript: true, wait: true, timeout: 60 });
	assert.match(a.text, /^I see one picture\.\n\[turn 1 done/, a.text);
	const first = main()[0];
	assert.ok(first && JSON.stringify(first.body).includes('What is in the picture?'), 'the first request is the prompt\'s');
	assert.ok(carries(first.body, one), 'the launch prompt\'s request carries one.png\'s bytes');
	const n = main().length;
	const s = await rig.call('pty_send', { session_id: id, text: 'And this one?', image: [two], wait: true, timeout: 60 });
	assert.match(s.text, /^I see the second picture\.\n\[turn 2 done/, s.text);
	const next = main()[n];
	assert.ok(next && JSON.stringify(next.body).includes('And this one?'), 'the next request is the send\'s');
	assert.ok(carries(next.body, two), 'the next request carries "second picture.png"\'s bytes');
}

/* The two answers imageTurns expects, for a mock's queue. */
const IMAGE_ANSWERS = [{ type: 'text', text: 'I see one picture.' }, { type: 'text', text: 'I see the second picture.' }];

module.exports = { png, writePng, imagesIn, carries, imageTurns, IMAGE_ANSWERS };
