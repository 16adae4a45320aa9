'use strict';
/*
 * bench/tasks/ways.cjs: how each way turns a task's commands into tool
 * calls of the scripted model (tests/clients/lib/script.cjs steps).  Every
 * tool argument a task script uses is built here, so a change of the
 * server's tools (say a pty_open that also starts a command) is a change
 * of this table and of the task tables that use it.
 *
 *   aiterm  the MCP tools, one session "s";
 *   shell   the client's own tool: Claude Code's Bash, Codex's exec_command
 *           (one-shot: no state between calls but the cwd);
 *   tmux    the baseline: a plain tmux session driven through that same
 *           shell tool (send-keys, a fixed sleep, capture-pane), as a
 *           model keeps a terminal without Aiterm.
 *
 * ctx is filled before the task's prepare() and the client start (ctx.work:
 * the client's cwd, ctx.home: the run's HOME, ctx.sock: the run's private
 * tmux socket); arguments
 * that need it are functions, evaluated when the model issues the call.
 */

const SID = 's';

/* A shell word: 'text', with ' written as '\''. */
function shq(s) {
	return `'${String(s).replace(/'/g, `'\\''`)}'`;
}

/* Steps of the MCP tools.  o.timeout in seconds. */
const aiterm = {
	/* o.command: started in the new session, the call replies as a waited send (issue 34). */
	open: (ctx, o = {}) => ({ tool: 'pty_open', args: () => Object.assign({ name: SID, cwd: ctx.work },
		o.command ? { command: o.command } : {}, o.until ? { until: o.until } : {}, o.timeout ? { timeout: o.timeout } : {}) }),
	run: (text, o = {}) => ({ tool: 'pty_send', args: Object.assign({ session_id: SID, text, wait: true },
		o.until ? { until: o.until } : {}, o.timeout ? { timeout: o.timeout } : {}), if: o.if }),
	key: (key, o = {}) => ({ tool: 'pty_key', args: { session_id: SID, key }, if: o.if }),
	read: (o = {}) => ({ tool: 'pty_read', args: Object.assign({ session_id: SID, wait: true },
		o.until ? { until: o.until } : {}, o.timeout ? { timeout: o.timeout } : {}), if: o.if }),
	close: () => ({ tool: 'pty_close', args: { session_id: SID } }),
};

/*
 * One call of the client's own shell tool.  cmd is a string or a function
 * of ctx; o.timeout in seconds (Bash: timeout in ms; exec_command: how long
 * it waits before it yields, at most 30 s).
 */
function shell(client, ctx, cmd, o = {}) {
	const text = () => (typeof cmd === 'function' ? cmd(ctx) : cmd);
	if (client === 'claude') {
		return { tool: 'Bash', native: true, args: () => Object.assign({ command: text(), description: o.what || 'Run the command' },
			o.timeout ? { timeout: o.timeout * 1000 } : {}) };
	}
	return { tool: 'exec_command', native: true, args: () => Object.assign({ cmd: text() },
		o.timeout ? { yield_time_ms: Math.min(30000, o.timeout * 1000) } : {}) };
}

/*
 * Codex's exec_command keeps a process in a PTY of its own when asked
 * (tty: true): the call yields a session ID, and write_stdin types into
 * it.  The REPL task's shell way uses that with Codex.
 */
const codexPty = {
	start: (cmd, ms = 1000) => ({ tool: 'exec_command', native: true, args: { cmd, tty: true, yield_time_ms: ms } }),
	write: (chars, ms = 1000) => ({
		tool: 'write_stdin', native: true,
		args: (prev) => {
			const m = prev.filter(Boolean).map((r) => String(r.seen).match(/session ID (\d+)/)).filter(Boolean).pop();
			if (!m)
				throw new Error('no session ID in an earlier exec_command result');
			return { session_id: Number(m[1]), chars, yield_time_ms: ms };
		},
	}),
};

/*
 * The tmux baseline's commands (strings for shell()): a detached session
 * of 160x50 on the run's private socket, keys typed literally then Enter,
 * a fixed sleep, the visible screen captured.
 */
const tmux = {
	t: (ctx) => `tmux -S ${ctx.sock}`,
	start: (ctx, first) => `${tmux.t(ctx)} new-session -d -s w -x 160 -y 50 -c ${shq(ctx.work)}${first ? ` ${shq(first)}` : ''}`,
	type: (ctx, line) => `${tmux.t(ctx)} send-keys -t w -l ${shq(line)} && ${tmux.t(ctx)} send-keys -t w Enter`,
	look: (ctx, secs) => `sleep ${secs} && ${tmux.t(ctx)} capture-pane -p -t w`,
	/* Lines typed one by one, then the screen after secs. */
	send: (ctx, lines, secs) => [...[].concat(lines).map((l) => tmux.type(ctx, l)), tmux.look(ctx, secs)].join(' && '),
	stop: (ctx) => `${tmux.t(ctx)} kill-server`,
};

/* The tool names each client's shell tool marks its main loop with. */
const NATIVE = { claude: ['Bash'], codex: ['exec_command'] };

module.exports = { aiterm, shell, codexPty, tmux, shq, NATIVE, SID };
