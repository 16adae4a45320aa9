'use strict';
/*
 * A tests/mcp Rig whose PATH has the Cursor stand-in of tests/harness as
 * cursor-agent, answering from a mock model on 127.0.0.1, in a work
 * folder of its own (rig.dirs.work); extra: more variables for the server.
 */
const fs = require('node:fs');
const path = require('node:path');
const { Rig } = require('./pty.cjs');
const { startCursorMock, seedCursor, cursorBinary } = require('../../harness/lib/cursor-mock.cjs');

async function cursorRig(t, extra = {}) {
	const mock = await startCursorMock({ defaultText: 'Default answer.' });
	t.after(() => mock.close());
	const rig = new Rig(t, Object.assign({
		CURSOR_STANDIN_MODEL_URL: mock.url,
		CURSOR_API_KEY: 'mock-cursor-key-for-the-aiterm-launch-test',
	}, extra));
	rig.dirs.work = path.join(rig.dirs.root, 'work');
	const bin = path.join(rig.dirs.root, 'bin');
	fs.mkdirSync(rig.dirs.work, { mode: 0o700 });
	fs.mkdirSync(bin, { mode: 0o700 });
	fs.symlinkSync(cursorBinary(), path.join(bin, 'cursor-agent'));
	rig.env.PATH = `${bin}:${rig.env.PATH || '/usr/bin:/bin'}`;
	seedCursor(rig.dirs.home);
	return { rig, mock };
}

module.exports = { cursorRig };
