'use strict';
/*
 * What the Cursor stand-in writes to disk: its transcript and its hooks.
 *
 * DOCUMENTED (third-party descriptions of the real CLI's files; Cursor's
 * own docs at cursor.com/docs/agent/hooks for hooks):
 *   - transcripts at
 *     ~/.cursor/projects/<project-id>/agent-transcripts/<uuid>/<uuid>.jsonl,
 *     Anthropic-style lines {role, message: {content: [{type:"text", text}]}}
 *     with no timestamps;
 *   - ~/.cursor/hooks.json {"version": 1, "hooks": {"<event>": [{"command":
 *     ...}]}}; each hook gets a JSON object on stdin (hook_event_name,
 *     conversation_id, generation_id, workspace_roots, transcript_path,
 *     plus the event's own fields) and may print JSON on stdout; the
 *     `stop` hook (status, loop_count) may print {"followup_message": "..."}
 *     which the agent submits as the next prompt.
 * ASSUMED (marked where used):
 *   - <project-id> is the real cwd with every byte but A-Z a-z 0-9 made
 *     "-" and the leading "-" dropped ("/home/u/app" -> "home-u-app");
 *   - the line that ends a turn: {"type":"turn_ended","status":
 *     "completed"|"error"|"aborted"[,"error": text]} (issue 13 says a turn
 *     ends with a `turn_ended` line; its fields are this stand-in's);
 *   - text steered into a running turn is a user line with "steer": true.
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

/* ASSUMED derivation of the project id (see above). */
function projectId(realCwd) {
	return realCwd.replace(/[^A-Za-z0-9]/g, '-').replace(/^-+/, '');
}

class Transcript {
	constructor(home, realCwd, uuid) {
		this.dir = path.join(home, '.cursor', 'projects', projectId(realCwd), 'agent-transcripts', uuid);
		this.file = path.join(this.dir, `${uuid}.jsonl`);
	}

	/*
	 * ASSUMED: the agent holds its transcript open while it runs (as
	 * Codex --no-daemon, Claude Code and Grok Build do); Aiterm binds a
	 * launch to the file its own process holds open (AGT-JOB).
	 */
	append(obj) {
		if (this.fd === undefined) {
			fs.mkdirSync(this.dir, { recursive: true });
			this.fd = fs.openSync(this.file, 'a');
		}
		fs.writeSync(this.fd, JSON.stringify(obj) + '\n');
	}

	user(text, steer) {
		const o = { role: 'user', message: { content: [{ type: 'text', text }] } };
		if (steer)
			o.steer = true;
		this.append(o);
	}

	assistant(text) {
		this.append({ role: 'assistant', message: { content: [{ type: 'text', text }] } });
	}

	/* ASSUMED shape (see above). */
	ended(status, error) {
		const o = { type: 'turn_ended', status };
		if (error)
			o.error = error;
		this.append(o);
	}
}

/*
 * Runs the hooks of ~/.cursor/hooks.json for event (documented format,
 * version 1) with input on stdin; the last JSON object a hook printed, or
 * null.  Hooks are run one after the other, each with its timeout
 * (seconds in the docs; 10 s when not given).
 */
function runHooks(home, event, input) {
	let cfg;
	try {
		cfg = JSON.parse(fs.readFileSync(path.join(home, '.cursor', 'hooks.json'), 'utf8'));
	} catch {
		return null;
	}
	if (!cfg || cfg.version !== 1 || !cfg.hooks || !Array.isArray(cfg.hooks[event]))
		return null;
	let out = null;
	for (const h of cfg.hooks[event]) {
		if (!h || typeof h.command !== 'string')
			continue;
		const r = spawnSync('/bin/sh', ['-c', h.command], {
			input: JSON.stringify(Object.assign({ hook_event_name: event }, input)),
			encoding: 'utf8', timeout: (h.timeout || 10) * 1000,
		});
		try {
			const o = JSON.parse((r.stdout || '').trim() || 'null');
			if (o && typeof o === 'object')
				out = o;
		} catch { /* not JSON: ignored */ }
	}
	return out;
}

module.exports = { projectId, Transcript, runHooks };
