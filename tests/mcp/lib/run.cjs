'use strict';
/*
 * Runs a program (argv, env; stdin closed) and resolves {code, stdout,
 * stderr} when it ends, killing it after ms: how the suites run a
 * receipt's waiter (aiterm-wait) and the like.
 */
const { spawn } = require('node:child_process');

function run(argv, env, ms = 30000) {
	return new Promise((resolve) => {
		const child = spawn(argv[0], argv.slice(1), { env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '', stderr = '';
		child.stdout.on('data', (b) => { stdout += b; });
		child.stderr.on('data', (b) => { stderr += b; });
		const timer = setTimeout(() => child.kill('SIGKILL'), ms);
		child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
	});
}

module.exports = { run };
