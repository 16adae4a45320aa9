'use strict';
/*
 * Records what Claude Code 2.1.332 shows differently from 2.1.197 (the
 * full set of facts is in fixtures/claude-code-2.1.197, recorded by
 * record-claude.cjs), against lib/claude-mock.cjs in private tmux
 * servers: the trust screen (No first, no numbers, keys refused for
 * 500 ms), the auto-mode offer, the idle and running screens in auto
 * mode, the permission dialog in manual mode, and an API error (no
 * turn_duration after it; a grey placeholder in the composer).
 * Usage: CLAUDE_BIN=<native claude 2.1.332> node record-claude-2.1.332.cjs
 * Writes fixtures/claude-code-2.1.332/{screens,transcripts}/.
 */
const fs = require('node:fs');
const path = require('node:path');

process.env.CLAUDE_FIXTURES = path.resolve(__dirname, 'fixtures/claude-code-2.1.332');
const { makeRun, claudeEnv, CLAUDE_BIN, sleep } = require('./lib/tui.cjs');
const { startClaudeMock } = require('./lib/claude-mock.cjs');

const IDLE = (s) => /^❯/m.test(s) && /(\? for shortcuts|shift\+tab to cycle)/.test(s) && !/esc to interrupt/.test(s);

async function session(claudeJson, settings, extraEnv, body) {
	const mock = await startClaudeMock({ defaultText: 'Default answer.' });
	const run = makeRun();
	try {
		run.writeClaudeJson(claudeJson);
		if (settings)
			run.writeSettings(settings);
		run.start([CLAUDE_BIN], claudeEnv(mock.url, extraEnv));
		await body(run, mock);
	} finally {
		run.rememberTree();
		await run.cleanup(process.env.KEEP);
		await mock.close();
	}
}

const manual = { permissions: { defaultMode: 'default' } };
const offerSeen = { extra: { hasSeenAutoDefaultNudge: true } };

(async () => {
	/* Trust: No under the cursor; a key within 500 ms is dropped. */
	await session({ trust: false }, null, null, async (run) => {
		await run.waitFor(/trust this folder/, 10000, 'trust');
		run.keys('Down');
		await sleep(300);
		run.save('trust-dialog');
		await sleep(400);
		run.keys('Down');
		await sleep(300);
		run.save('trust-dialog-yes-selected');
		run.keys('Enter');
		await run.waitFor(IDLE, 10000, 'ready');
		await sleep(500);
		run.save('ready-auto-mode');
	});
	/* Manual mode, not yet offered auto mode. */
	await session({}, manual, null, async (run) => {
		await run.waitFor(/Make auto mode your default/, 10000, 'offer');
		await sleep(300);
		run.save('auto-mode-offer');
	});
	/* Manual mode: the permission dialog. */
	await session(offerSeen, manual, null, async (run, mock) => {
		await run.waitFor(IDLE, 10000, 'ready');
		mock.push({ type: 'tool', name: 'Bash', input: { command: 'echo hi > x.txt', description: 'Write hi to a file' } });
		mock.push({ type: 'text', text: 'Wrote hi.' });
		run.literal('Write hi');
		await sleep(150);
		run.keys('C-m');
		await run.waitFor(/Do you want to proceed\?/, 10000, 'dialog');
		await sleep(700);
		run.save('permission-bash');
		run.keys('1');
		await run.waitFor((s) => IDLE(s) && /Wrote hi/.test(s), 10000, 'answered');
		run.saveTranscript('bash-approved');
	});
	/* Auto mode: a slow turn, then an API error. */
	await session({}, null, { CLAUDE_CODE_MAX_RETRIES: '0' }, async (run, mock) => {
		await run.waitFor(IDLE, 10000, 'ready');
		mock.push({ type: 'text', text: 'Slow answer.', chunks: 3, delayMs: 500, holdMs: 1000 });
		run.literal('Slow one');
		await sleep(150);
		run.keys('C-m');
		await run.waitFor(/esc to interrupt/, 10000, 'running');
		await sleep(300);
		run.save('running-auto-mode');
		await run.waitFor((s) => IDLE(s) && /Slow answer/.test(s), 15000, 'answered');
		mock.push({ type: 'error', status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } } });
		run.literal('Will fail');
		await sleep(150);
		run.keys('C-m');
		await run.waitFor(/API Error: 529/, 10000, 'error');
		await sleep(1500);
		run.save('api-error');
		run.saveTranscript('turn-then-api-error');
	});
	console.log('recorded into', process.env.CLAUDE_FIXTURES);
})();
