'use strict';
/*
 * Records the Grok Build 1.0.41 fixtures (screens and session files)
 * against lib/grok-mock.cjs in private tmux servers, each run with its own
 * HOME (~/.grok seeded there), TMPDIR and tmux socket.
 * Usage: NODE_PATH=<dir>/node_modules node record-grok.cjs [case...]
 *   cases: turns sendnow tool error ratelimit retries splash sandbox longcwd
 *          privacy quoted
 * Writes fixtures/grok-1.0.41/{screens,sessions}/ and layout-longcwd.txt.
 */
const fs = require('node:fs');
const path = require('node:path');
const { makeRun, sleep } = require('./lib/tui.cjs');
const { startGrokMock, seedGrok, grokBinary } = require('./lib/grok-mock.cjs');

const FIX = path.resolve(__dirname, 'fixtures/grok-1.0.41');
const SID = '0a1b2c3d-4e5f-4a6b-8c7d-8e9fa0b1c2d3';
const COMPOSER = /│ ❯ /;
const BUSY = /\[stop\]|Ctrl\+c:cancel/;
const IDLE = (s) => COMPOSER.test(s) && !BUSY.test(s) && /Shift\+Tab:mode/.test(s);

function grokEnv(mock, extra) {
	return Object.assign({
		XAI_API_KEY: 'mock-xai-key-for-the-aiterm-harness',
		GROK_MODELS_BASE_URL: mock.url,
		GROK_TELEMETRY_ENABLED: '0',
		GROK_DISABLE_AUTOUPDATER: '1',
	}, extra || {});
}

async function session(name, mockOpts, body, opts = {}) {
	const mock = await startGrokMock(Object.assign({ defaultText: 'Default answer.', suggestion: 'Mock suggestion' }, mockOpts));
	const run = makeRun();
	if (opts.cwd)
		run.dirs.work = opts.cwd(run);
	seedGrok(run.dirs.home, mock.url, opts.seed || {});
	const save = (shot) => {
		const dir = path.join(FIX, 'screens');
		fs.mkdirSync(dir, { recursive: true });
		const text = run.capture(false);
		fs.writeFileSync(path.join(dir, `${shot}.txt`), sanitize(run, mock, text));
		return text;
	};
	const env = grokEnv(mock, Object.assign(opts.noKey ? { XAI_API_KEY: undefined } : {}, opts.env || {}));
	for (const k of Object.keys(env))
		if (env[k] === undefined)
			delete env[k];
	run.start([grokBinary(), '--trust', '-s', SID], env);
	try {
		await body(run, mock, save);
	} finally {
		run.rememberTree();
		await run.cleanup(true);
		await mock.close();
	}
	return run;
}

function sanitize(run, mock, s) {
	return run.sanitize(s).split(`127.0.0.1:${mock.port}`).join('127.0.0.1:PORT');
}

/* The session's three JSONL files into sessions/<name>.<file>. */
function saveSession(run, mock, name) {
	const base = path.join(run.dirs.home, '.grok', 'sessions');
	const d = fs.readdirSync(base).find((x) => fs.existsSync(path.join(base, x, SID)));
	const dir = path.join(FIX, 'sessions');
	fs.mkdirSync(dir, { recursive: true });
	for (const f of ['events.jsonl', 'chat_history.jsonl', 'updates.jsonl']) {
		let text = fs.readFileSync(path.join(base, d, SID, f), 'utf8');
		if (f === 'chat_history.jsonl')	/* the system prompt and tool list: long, not read */
			text = text.split('\n').filter((l) => !l.startsWith('{"type":"system"')).join('\n');
		if (f === 'updates.jsonl')
			text = text.split('\n').filter((l) => !l.includes('"available_commands_update"')).join('\n');
		fs.writeFileSync(path.join(dir, `${name}.${f}`), sanitize(run, mock, text));
	}
	fs.writeFileSync(path.join(dir, `${name}.expected.json`), JSON.stringify(expected(path.join(base, d, SID)), null, 1) + '\n');
	return d;
}

/*
 * Each Grok turn by the rule of issue 13 (AGT-GROK), from events.jsonl and
 * chat_history.jsonl alone: a turn_ended pairs with the turn_started before
 * it; its turn_number is the prompt_index of a user record of
 * chat_history, whose answer is the last non-empty assistant content after
 * it (before the next prompt).  The unit suite's answers, read from
 * updates.jsonl by the plugin, must be these.
 */
function expected(dir) {
	const lines = (f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
	const chat = lines('chat_history.jsonl');
	const answerOf = (n) => {
		let i = chat.findIndex((r) => r.type === 'user' && r.prompt_index === n);
		let answer = null;
		for (i++; i > 0 && i < chat.length && !(chat[i].type === 'user' && Number.isInteger(chat[i].prompt_index)); i++)
			if (chat[i].type === 'assistant' && typeof chat[i].content === 'string' && chat[i].content !== '')
				answer = chat[i].content;
		return answer;
	};
	const out = [];
	let open = null;
	for (const e of lines('events.jsonl')) {
		if (e.type === 'turn_started')
			open = e;
		else if (e.type === 'turn_ended' && open) {
			out.push({ turn_number: open.turn_number, redirect_kind: open.redirect_kind, outcome: e.outcome,
				trigger: e.cancellation_context && e.cancellation_context.trigger, answer: answerOf(open.turn_number) });
			open = null;
		}
	}
	return out;
}

async function typePrompt(run, text) {
	run.literal(text);
	await sleep(300);
	run.keys('Enter');
}

const cases = {
	async turns() {
		await session('turns', {}, async (run, mock, save) => {
			await run.waitFor(IDLE, 30000, 'composer');
			save('startup-composer');
			run.literal('First question');
			await run.waitFor('First question');
			save('composer-typed');
			await sleep(200);
			mock.push({ type: 'hold', text: 'First answer, streamed slowly in six parts.', chunks: 6, delayMs: 700 });
			run.keys('Enter');
			await run.waitFor(/Waiting for response/, 10000);
			save('running-waiting');
			await mock.held();
			mock.release();
			await run.waitFor(/Responding/, 10000);
			save('running-responding');
			await run.waitFor((s) => IDLE(s) && /Worked for/.test(s), 30000, 'idle');
			await run.waitFor(/Mock suggestion/, 10000);
			save('idle-ghost-suggestion');
			mock.push({ type: 'text', text: 'Second answer.' });
			await typePrompt(run, 'Second question');
			await run.waitFor((s) => IDLE(s) && /Second answer\./.test(s), 30000, 'second');
			await sleep(1500);
			save('idle-after-second-turn');
			saveSession(run, mock, 'turns');
		});
	},
	async sendnow() {
		await session('sendnow', {}, async (run, mock, save) => {
			await run.waitFor(IDLE, 30000, 'composer');
			mock.push({ type: 'hold', text: 'Held answer (cancelled).' }, { type: 'text', text: 'Answer after send now.' });
			await typePrompt(run, 'Start a long task');
			await run.waitFor(/Waiting for response/, 10000);
			await typePrompt(run, 'Do it this way instead');
			await run.waitFor(/Queued · Enter to send now/, 10000);
			save('queued-follow-up');
			run.keys('Enter');
			await run.waitFor((s) => IDLE(s) && /Answer after send now\./.test(s), 30000, 'after send now');
			mock.release();
			await sleep(1500);
			save('idle-after-send-now');
			/* A follow-up queued and left alone runs as its own turn after the first. */
			mock.push({ type: 'hold', text: 'Third answer.' }, { type: 'text', text: 'Queued turn answer.' });
			await typePrompt(run, 'Third question');
			await run.waitFor(/Waiting for response/, 10000);
			await typePrompt(run, 'Queued and left alone');
			await run.waitFor(/Queued · Enter to send now/, 10000);
			await mock.held();
			mock.release();
			await run.waitFor((s) => IDLE(s) && /Queued turn answer\./.test(s), 30000, 'queued turn');
			await sleep(1000);
			saveSession(run, mock, 'sendnow');
		});
	},
	async tool() {
		await session('tool', {}, async (run, mock, save) => {
			await run.waitFor(IDLE, 30000, 'composer');
			mock.push({ type: 'call', name: 'run_terminal_command', args: { command: 'rm -f gone.txt && touch approved.txt', description: 'Create approved.txt' } },
				{ type: 'text', text: 'The command ran.' });
			await typePrompt(run, 'Create the file');
			await run.waitFor(/Yes, proceed/, 20000);
			save('permission-prompt');
			run.keys('2');
			await run.waitFor((s) => IDLE(s) && /The command ran\./.test(s), 30000, 'tool turn');
			await sleep(1000);
			save('idle-after-tool');
			if (!fs.existsSync(path.join(run.dirs.work, 'approved.txt')))
				throw new Error('approved.txt was not created');
			saveSession(run, mock, 'tool');
		});
	},
	async error() {
		await session('error', {}, async (run, mock, save) => {
			await run.waitFor(IDLE, 30000, 'composer');
			mock.push({ type: 'status', status: 400, body: { error: { message: 'Bad request (mock 400)', type: 'invalid_request_error' } } });
			await typePrompt(run, 'Will fail');
			await run.waitFor((s) => IDLE(s) && /mock 400/.test(s), 30000, 'error');
			await sleep(1000);
			save('error-turn');
			saveSession(run, mock, 'error');
		});
	},
	/* A 402 (credits run out): the weekly-limit card; Shift+x dismisses it. */
	async ratelimit() {
		await session('ratelimit', {}, async (run, mock, save) => {
			await run.waitFor(IDLE, 30000, 'composer');
			mock.push({ type: 'status', status: 402, body: { error: { message: 'You have run out of credits (mock 402)', type: 'insufficient_quota', code: 'insufficient_quota' } } });
			await typePrompt(run, 'Will hit the limit');
			await run.waitFor(/You hit your weekly limit\./, 30000, 'card');
			await sleep(1000);
			save('weekly-limit-card');
			run.keys('X');
			await run.waitFor((s) => IDLE(s) && !/You hit your weekly limit/.test(s), 30000, 'dismissed');
			await sleep(500);
			save('weekly-limit-dismissed');
			saveSession(run, mock, 'ratelimit');
		});
	},
	/* 429s until Grok's retries run out: turn_completed stop_reason rate_limit. */
	async retries() {
		await session('retries', {}, async (run, mock, save) => {
			await run.waitFor(IDLE, 30000, 'composer');
			for (let i = 0; i < 20; i++)
				mock.push({ type: 'status', status: 429, body: { error: { message: 'Too many requests (mock 429)', type: 'rate_limit_exceeded', code: 'rate_limit_exceeded' } } });
			await typePrompt(run, 'Will be rate limited');
			await run.waitFor((s) => IDLE(s) && /Retry failed/.test(s), 60000, 'retries out');
			await sleep(1000);
			save('retries-exhausted');
			saveSession(run, mock, 'retries');
		});
	},
	/*
	 * The privacy notice (GROK_PRIVACY_NOTICE_ROLLOUT=1 shows it at once):
	 * drawn above a ready composer, which still takes text; the settings
	 * modal it leads to (/privacy) and the shortcuts overlay (Ctrl+x) are
	 * drawn over the composer and take the keys.
	 */
	async privacy() {
		await session('privacy', {}, async (run, mock, save) => {
			await run.waitFor((s) => IDLE(s) && /Help improve Grok/.test(s), 30000, 'notice');
			await sleep(1000);
			save('privacy-notice');
			run.keys('C-x');
			await run.waitFor(/Keyboard Shortcuts/, 10000, 'shortcuts');
			await sleep(500);
			save('shortcuts-overlay');
			run.keys('Escape');
			await run.waitFor((s) => IDLE(s) && !/Keyboard Shortcuts/.test(s), 10000, 'closed');
			run.literal('/privacy');
			await sleep(500);
			run.keys('Enter');
			await run.waitFor(/Settings › Coding data/, 10000, 'settings');
			await sleep(500);
			save('privacy-settings-modal');
			run.keys('Escape');
			await run.waitFor((s) => IDLE(s) && !/Settings ›/.test(s), 10000, 'closed');
			mock.push({ type: 'text', text: 'Answer under the notice.' });
			await typePrompt(run, 'Question under the notice');
			await run.waitFor((s) => IDLE(s) && /Answer under the notice\./.test(s) && /Mock suggestion/.test(s), 30000, 'answer');
			await sleep(500);
			save('privacy-notice-after-turn');
		}, { env: { GROK_PRIVACY_NOTICE_ROLLOUT: '1' } });
	},
	/*
	 * The weekly-limit card's words where no card is: an answer quoting its
	 * heading and its dismiss key, and one quoting the card's heading and
	 * footer lines with the composer drawn under them.
	 */
	async quoted() {
		await session('quoted', {}, async (run, mock, save) => {
			await run.waitFor(IDLE, 30000, 'composer');
			mock.push({ type: 'text', text: 'When credits run out Grok says "You hit your weekly limit." and Shift+x:dismiss closes it.' });
			await typePrompt(run, 'What does the limit card say?');
			await run.waitFor((s) => IDLE(s) && /Shift\+x:dismiss closes it/.test(s) && /Mock suggestion/.test(s), 30000, 'answer');
			await sleep(500);
			save('weekly-limit-words');
			mock.push({ type: 'text', text: 'It looks like this:\n\n┃  You hit your weekly limit.\n┃\n┃  ↑/↓ navigate · y copy   Enter:submit\n\nTab:next answer  │  Esc:scrollback  │  Shift+x:dismiss' });
			await typePrompt(run, 'Draw it');
			await run.waitFor((s) => IDLE(s) && /Draw it/.test(s) && /It looks like this/.test(s) && /Mock suggestion/.test(s), 30000, 'drawn');
			await sleep(500);
			save('weekly-limit-card-in-log');
		});
	},
	async splash() {
		await session('splash', {}, async (run, mock, save) => {
			await run.waitFor(/Login with Grok/, 30000, 'splash');
			await sleep(2000);
			save('login-splash');
		}, { seed: { noKey: true }, noKey: true });
	},
	/* GROK_SANDBOX=read-only where bubblewrap is missing: Grok refuses to start. */
	async sandbox() {
		await session('sandbox', {}, async (run, mock, save) => {
			await run.waitFor(/Refusing to start/, 30000, 'refusal');
			await sleep(500);
			save('sandbox-refused');
		}, { env: { GROK_SANDBOX: 'read-only' } });
	},
	async longcwd() {
		let layout = '';
		await session('longcwd', {}, async (run, mock) => {
			await run.waitFor(IDLE, 30000, 'composer');
			await typePrompt(run, 'Hello from a long cwd');
			await run.waitFor((s) => IDLE(s) && /Default answer\./.test(s), 30000, 'answer');
			const base = path.join(run.dirs.home, '.grok', 'sessions');
			for (const d of fs.readdirSync(base)) {
				if (!fs.statSync(path.join(base, d)).isDirectory())
					continue;
				layout += `sessions/${d}/\n`;
				for (const f of fs.readdirSync(path.join(base, d)).sort())
					layout += `sessions/${d}/${f}${f === '.cwd' ? ` = ${fs.readFileSync(path.join(base, d, f), 'utf8')}` : ''}\n`;
			}
			layout = sanitize(run, mock, layout);
			layout += `cwd length ${run.dirs.work.length} (${sanitize(run, mock, run.dirs.work)})\n`;
		}, { cwd: (run) => {
			const p = path.join(run.dirs.root, 'd'.repeat(120), 'e'.repeat(120), 'tail');
			fs.mkdirSync(p, { recursive: true });
			return p;
		} });
		fs.writeFileSync(path.join(FIX, 'layout-longcwd.txt'), layout);
	},
};

(async () => {
	const want = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(cases);
	for (const c of want) {
		process.stdout.write(`${c} ... `);
		await cases[c]();
		process.stdout.write('ok\n');
	}
})().catch((e) => {
	console.error(e);
	process.exit(1);
});
