'use strict';
/*
 * Runs the aiterm command (CTL-CLI, SUP-RUN) as a real program for the
 * tests: $AITERM_CLI, else the aiterm beside the server under test.
 */
const path = require('node:path');
const { spawn } = require('node:child_process');
const { serverBinary, SANITIZER_RE } = require('./server.cjs');

function aitermBinary() {
	return process.env.AITERM_CLI || path.join(path.dirname(serverBinary()), 'aiterm');
}

/*
 * aiterm args in env and cwd; resolves { code, signal, stdout, stderr },
 * rejects on a sanitizer report or after opts.ms (default 30 s, then the
 * process is killed).  opts.started(child) is called once it is spawned.
 */
function runAiterm(args, env, cwd, opts = {}) {
	const ms = opts.ms || 30000;
	return new Promise((resolve, reject) => {
		const p = spawn(aitermBinary(), args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '', stderr = '';
		p.stdout.setEncoding('utf8');
		p.stderr.setEncoding('utf8');
		p.stdout.on('data', (s) => { stdout += s; });
		p.stderr.on('data', (s) => { stderr += s; });
		const timer = setTimeout(() => {
			try { p.kill('SIGKILL'); } catch { /* gone */ }
			reject(new Error(`aiterm ${args.join(' ')} took more than ${ms} ms`));
		}, ms);
		if (opts.started)
			opts.started(p);
		p.on('error', (err) => { clearTimeout(timer); reject(err); });
		p.on('close', (code, signal) => {
			clearTimeout(timer);
			if (SANITIZER_RE.test(stderr))
				reject(new Error(`aiterm ${args.join(' ')}: a sanitizer report:\n${stderr}`));
			else
				resolve({ code, signal, stdout, stderr });
		});
	});
}

module.exports = { aitermBinary, runAiterm };
