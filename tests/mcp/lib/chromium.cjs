'use strict';
/*
 * Debian's headless Chromium, driven over the DevTools protocol on
 * --remote-debugging-pipe (fd 3 in, fd 4 out, NUL-separated JSON): no
 * npm dependency, no port.  One browser per test file (start() once);
 * each page() is a fresh target.  Skipped where chromium is absent
 * (./quickstart check installs it).
 */
const { spawn, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const CHROMIUM = 'chromium';

function chromiumUnavailable() {
	try {
		execFileSync('sh', ['-c', `command -v ${CHROMIUM}`], { stdio: 'ignore' });
		return null;
	} catch {
		return `${CHROMIUM} is not installed (Debian package chromium)`;
	}
}

class Browser {
	constructor(dir) {
		fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
		this.proc = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--remote-debugging-pipe',
			`--user-data-dir=${path.join(dir, 'profile')}`, '--no-first-run', '--disable-gpu',
			'--disable-extensions', '--disable-background-networking', '--disable-sync',
			'--no-default-browser-check', '--password-store=basic', 'about:blank'],
		{ stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
		this.stderr = '';
		this.proc.stdio[2].setEncoding('utf8');
		this.proc.stdio[2].on('data', (s) => { this.stderr += s.slice(0, 20000); });
		this.next = 1;
		this.waiting = new Map();
		this.events = [];
		let buf = '';
		this.proc.stdio[4].setEncoding('utf8');
		this.proc.stdio[4].on('data', (d) => {
			buf += d;
			let i;
			while ((i = buf.indexOf('\0')) >= 0) {
				const m = JSON.parse(buf.slice(0, i));
				buf = buf.slice(i + 1);
				if (m.id && this.waiting.has(m.id)) {
					const { resolve, reject } = this.waiting.get(m.id);
					this.waiting.delete(m.id);
					if (m.error)
						reject(new Error(`${JSON.stringify(m.error)}`));
					else
						resolve(m.result);
				} else
					this.events.push(m);
			}
		});
		this.exited = new Promise((resolve) => this.proc.once('exit', resolve));
	}

	send(method, params = {}, sessionId) {
		const id = this.next++;
		const msg = { id, method, params };
		if (sessionId)
			msg.sessionId = sessionId;
		return new Promise((resolve, reject) => {
			this.waiting.set(id, { resolve, reject });
			this.proc.stdio[3].write(JSON.stringify(msg) + '\0');
		});
	}

	/* A new tab: { go(url), eval(js), text() }. */
	async page() {
		const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
		const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
		const b = this;
		await b.send('Page.enable', {}, sessionId);
		return {
			async go(url) {
				const before = b.events.length;
				await b.send('Page.navigate', { url }, sessionId);
				await b.waitEvent('Page.loadEventFired', sessionId, before);
			},
			async eval(expression) {
				const r = await b.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId);
				if (r.exceptionDetails)
					throw new Error(`page script: ${JSON.stringify(r.exceptionDetails).slice(0, 500)}`);
				return r.result.value;
			},
			/* Submit the form and wait for the answer page. */
			async submit(selector) {
				const before = b.events.length;
				await this.eval(`document.querySelector(${JSON.stringify(selector)}).click(), true`);
				await b.waitEvent('Page.loadEventFired', sessionId, before);
			},
			text() {
				return this.eval('document.body ? document.body.innerText : ""');
			},
			close() {
				return b.send('Target.closeTarget', { targetId });
			},
		};
	}

	async waitEvent(method, sessionId, from, ms = 15000) {
		const deadline = Date.now() + ms;
		for (;;) {
			const i = this.events.findIndex((e, k) => k >= from && e.method === method && e.sessionId === sessionId);
			if (i >= 0)
				return this.events[i];
			if (Date.now() > deadline)
				throw new Error(`no ${method} within ${ms} ms; chromium stderr:\n${this.stderr.slice(-2000)}`);
			await new Promise((r) => setTimeout(r, 25));
		}
	}

	async close() {
		if (this.proc.exitCode !== null || this.proc.signalCode !== null)
			return;
		this.send('Browser.close').catch(() => {});
		const t = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
		await this.exited;
		clearTimeout(t);
	}
}

module.exports = { chromiumUnavailable, Browser };
