'use strict';
/*
 * EVERY screen of the Cursor stand-in, in one file.  ALL OF THEM ARE
 * ASSUMED: no capture of the real `cursor-agent` / `agent` TUI was found
 * (issue 13), so the words, boxes and hints below were written for this
 * stand-in, not copied from Cursor.  A person with the real CLI should
 * capture its screens (`tmux capture-pane -p`), replace these functions
 * with what it really draws, and then make plugins/harness-cursor/cursor.c
 * (its table of known screens and its composer parser) match.  Nothing
 * outside this file draws text; agent.cjs only calls these.
 *
 * Each function returns the rows of one frame (an array of strings); the
 * TUI clears the screen and writes them.
 */

const WIDTH = 78;

function boxLine(text) {
	const inner = WIDTH - 4;
	const t = text.length > inner ? text.slice(0, inner) : text;
	return `│ ${t}${' '.repeat(inner - t.length)} │`;
}

/* ASSUMED: the sign-in screen shown with no CURSOR_API_KEY and no login. */
function login() {
	return [
		' Cursor Agent',
		'',
		' You are not signed in.',
		' Press any key to sign in with your browser, or set CURSOR_API_KEY.',
		'',
		' ctrl+c to quit',
	];
}

/* STAND-IN ONLY: what a slow start shows (CURSOR_STANDIN_LOADING_MS). */
function loading() {
	return [' Cursor Agent', '', ' Loading…'];
}

/* ASSUMED: the workspace-trust prompt (no --trust on the command line). */
function trust(cwd) {
	return [
		' Cursor Agent',
		'',
		' Do you trust the contents of this directory?',
		` ${cwd}`,
		'',
		' ▶ [a] Trust this workspace',
		'   [q] Quit',
	];
}

/* ASSUMED: the composer's placeholder when it is empty. */
const PLACEHOLDER = 'Plan, search, build anything';

/*
 * ASSUMED: the composer (input box) with its prompt arrow "→"; the text's
 * first line after the arrow, further lines indented; the model and cwd
 * below the box.
 */
function composer(input, model, cwd) {
	const lines = input.length ? input.split('\n') : [PLACEHOLDER];
	const rows = ['┌' + '─'.repeat(WIDTH - 2) + '┐'];
	lines.forEach((l, i) => rows.push(boxLine((i === 0 ? '→ ' : '  ') + l)));
	rows.push('└' + '─'.repeat(WIDTH - 2) + '┘');
	rows.push(`  ${model} · ${cwd}`);
	return rows;
}

const SPIN = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/*
 * ASSUMED: the running indicator, and the follow-up queue: text submitted
 * while a turn runs waits under "Follow-ups (n)"; the hint "enter steer"
 * says Enter on an empty composer moves it into the running turn.
 */
function running(tick, followups) {
	const rows = [` ${SPIN[tick % SPIN.length]} Generating…  ctrl+c to stop`];
	if (followups.length) {
		rows.push('', ` Follow-ups (${followups.length})`);
		for (const f of followups)
			rows.push(`   › ${f.split('\n')[0]}`);
		rows.push('   enter steer · ctrl+c to stop');
	}
	return rows;
}

/*
 * ASSUMED: the usage-limit screen, drawn instead of the composer after a
 * turn ended on the limit: a box headed "Usage limit reached", the
 * vendor's words, and its keys ("u" upgrade, Esc dismiss) as its last
 * line.
 */
function limit(words, model, cwd) {
	const rows = ['┌─ Usage limit reached ' + '─'.repeat(WIDTH - 24) + '┐'];
	for (let w = words; w.length; w = w.slice(WIDTH - 4))
		rows.push(boxLine(w.slice(0, WIDTH - 4)));
	rows.push(boxLine(''), boxLine('u upgrade · esc dismiss'));
	rows.push('└' + '─'.repeat(WIDTH - 2) + '┘');
	rows.push(`  ${model} · ${cwd}`);
	return rows;
}

/*
 * ASSUMED (issue 33): the picker `/model` opens, the catalog's ids
 * numbered, "→" at the selected one, the current one marked; Enter takes
 * it, Escape closes it.  Cursor names an effort in its model ids.
 */
function modelPicker(ids, at, current) {
	const rows = [' Cursor Agent', '', ' Select a model', ''];
	ids.forEach((id, i) => rows.push(`${i === at ? ' → ' : '   '}${i + 1}. ${id.padEnd(16)}  ` +
		`${id.replace(/-/g, ' ')}${id === current ? ' (current)' : ''}`));
	rows.push('', ' ↑/↓ to move · enter to select · esc to cancel');
	return rows;
}

/*
 * ASSUMED: the conversation above the composer (prompts and answers,
 * notes such as "· Model set to <id>" after a /model pick); a notice (a
 * hook's refusal, issue 33: the words after "Hook blocked with message:"
 * are the CLI's documented ones) under a "! ".
 */
function history(entries, height) {
	const rows = [' Cursor Agent (stand-in)', ''];
	for (const e of entries) {
		if (e.role === 'user')
			rows.push(`> ${e.text.split('\n')[0]}`);
		else if (e.role === 'notice')
			rows.push(`! ${e.text}`);
		else if (e.role === 'note')
			rows.push(`· ${e.text}`);
		else
			for (const l of e.text.split('\n'))
				rows.push(`  ${l}`);
		rows.push('');
	}
	return rows.length > height ? rows.slice(rows.length - height) : rows;
}

/* One idle or running frame. */
function main(st, rows) {
	const bottom = st.limit ? limit(st.limit, st.model, st.cwd) : composer(st.input, st.model, st.cwd);
	const mid = st.running ? running(st.tick, st.followups) : [];
	const top = history(st.history, Math.max(2, rows - bottom.length - mid.length - 1));
	return [...top, ...mid, ...bottom];
}

module.exports = { loading, login, trust, composer, limit, running, history, main, modelPicker, PLACEHOLDER };
