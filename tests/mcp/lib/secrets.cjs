'use strict';
/*
 * Where a secret must never be (REM-AUTH, issue 36): files under a
 * directory, the argv and environment of every process.  And raw
 * requests to the secret page (issue 36), headers as given.
 */
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');

/* Every file under dir whose bytes hold secret. */
function filesHolding(dir, secret) {
	const hits = [];
	const walk = (d) => {
		let ents;
		try {
			ents = fs.readdirSync(d, { withFileTypes: true });
		} catch {
			return;
		}
		for (const e of ents) {
			const p = path.join(d, e.name);
			if (e.isDirectory())
				walk(p);
			else if (e.isFile()) {
				try {
					if (fs.readFileSync(p).includes(secret))
						hits.push(p);
				} catch { /* gone */ }
			}
		}
	};
	walk(dir);
	return hits;
}

/* Every process whose argv or environment holds secret (and how many looked). */
function procsHolding(secret) {
	const hits = [];
	let seen = 0;
	for (const p of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(p))
			continue;
		for (const f of ['cmdline', 'environ']) {
			try {
				const b = fs.readFileSync(`/proc/${p}/${f}`);
				seen++;
				if (b.includes(secret))
					hits.push(`${p}/${f}: ${fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').replace(/\0/g, ' ')}`);
			} catch { /* gone, or not ours to read */ }
		}
	}
	return { hits, seen };
}

/* A raw request: { status, body }. */
function request(url, opts = {}) {
	const u = new URL(url);
	return new Promise((resolve, reject) => {
		const headers = Object.assign({ Host: u.host }, opts.headers || {});
		for (const k of Object.keys(headers))
			if (headers[k] === undefined)
				delete headers[k];
		const req = http.request({
			host: u.hostname, port: u.port, path: opts.path || u.pathname, method: opts.method || 'GET',
			headers, setHost: false, localAddress: opts.localAddress, agent: false,
		}, (res) => {
			let body = '';
			res.setEncoding('utf8');
			res.on('data', (s) => { body += s; });
			res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
		});
		req.on('error', reject);
		if (opts.body)
			req.write(opts.body);
		req.end();
	});
}

function post(url, token, secret, extra = {}) {
	const u = new URL(url);
	const body = `token=${token}&secret=${encodeURIComponent(secret)}`;
	return request(url, Object.assign({
		method: 'POST', body,
		headers: Object.assign({
			Origin: u.origin, 'Content-Type': 'application/x-www-form-urlencoded',
			'Content-Length': Buffer.byteLength(body),
		}, extra.headers || {}),
	}, extra.opts || {}));
}

module.exports = { filesHolding, procsHolding, request, post };
