'use strict';
/*
 * bench/tasks/report.cjs: the goals of issue 34 checked on the rows of
 * bench/tasks.cjs, and the table.  A goal whose rows are missing (a task
 * or way not run) is reported as not measured, never as met.
 */

/*
 * Goals: on every task no more result tokens with aiterm than with the
 * client's own shell tool; the ssh session in at most 12 calls and 1,500
 * result tokens with every fact kept; the REPL task with no wait that
 * runs out its timeout.  Per client; Claude Code's aiterm row is the
 * default (tool search on; its ToolSearch call counts as a call).
 */
function goals(rows) {
	const find = (task, client, way) => rows.find((r) => r.task === task && r.client === client && r.way === way);
	const out = [];
	const add = (goal, client, row, pass, detail) => out.push({ goal, client, status: row ? (pass ? 'pass' : 'FAIL') : 'not measured', detail: row ? detail : '' });
	for (const client of [...new Set(rows.map((r) => r.client))]) {
		const shellWay = client === 'claude' ? 'bash' : 'exec';
		for (const task of [...new Set(rows.map((r) => r.task))]) {
			const a = find(task, client, 'aiterm');
			const s = find(task, client, shellWay);
			add(`${task}: aiterm tokens <= ${shellWay}`, client, a && s, a && s && a.tokens <= s.tokens,
				a && s ? `${a.tokens} vs ${s.tokens}` : '');
		}
		const ssh = find('ssh', client, 'aiterm');
		add('ssh: <= 12 calls', client, ssh, ssh && ssh.calls <= 12, ssh ? `${ssh.calls} calls` : '');
		add('ssh: <= 1500 result tokens', client, ssh, ssh && ssh.tokens <= 1500, ssh ? `${ssh.tokens} tokens` : '');
		add('ssh: every fact kept', client, ssh, ssh && ssh.kept === ssh.facts, ssh ? `${ssh.kept}/${ssh.facts}${ssh.lost.length ? ` lost: ${ssh.lost.join(' | ')}` : ''}` : '');
		const repl = find('repl', client, 'aiterm');
		add('repl: no wait runs out its timeout', client, repl, repl && repl.waits_ran_out === 0, repl ? `${repl.waits_ran_out} ran out` : '');
	}
	return out;
}

function pad(s, n, right) {
	s = String(s);
	return right ? s.padStart(n) : s.padEnd(n);
}

function print(rows, g, notes) {
	const head = ['task', 'client', 'way', 'calls', 'result tok', 'defs tok up/full', 'facts', 'task s', 'waits out'];
	const w = [8, 7, 16, 5, 10, 16, 6, 7, 9];
	const line = (cells) => cells.map((c, i) => pad(c, w[i], i >= 3)).join('  ');
	console.log('Whole tasks through the real clients, scripted mock model (o200k_base tokens of what the model received)');
	console.log(line(head));
	for (const r of rows) {
		console.log(line([r.task, r.client, r.way, r.calls, r.tokens, `${r.defs_upfront}/${r.defs_full}`, `${r.kept}/${r.facts}`,
			r.task_ms === null ? '-' : (r.task_ms / 1000).toFixed(1), r.way.startsWith('aiterm') ? r.waits_ran_out : '-']));
	}
	console.log('\ngoals (issue 34):');
	for (const x of g)
		console.log(`  ${pad(x.status, 12)} ${pad(x.client, 7)} ${x.goal}${x.detail ? `: ${x.detail}` : ''}`);
	const lost = rows.filter((r) => r.lost.length);
	if (lost.length) {
		console.log('\nfacts not seen:');
		for (const r of lost)
			console.log(`  ${r.task} ${r.client} ${r.way}: ${r.lost.join(' | ')}`);
	}
	const probs = rows.filter((r) => r.problems.length);
	if (probs.length || notes.length) {
		console.log('\nnotes:');
		for (const r of probs)
			console.log(`  ${r.task} ${r.client} ${r.way}: ${r.problems.join('; ')}`);
		for (const n of notes)
			console.log(`  ${n}`);
	}
}

module.exports = { goals, print };
