'use strict';
/* until(what, f, ms): f() polled every 200 ms until truthy; throws naming what after ms. */
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, f, ms = 60000) {
	const t0 = Date.now();
	for (;;) {
		const v = await f();
		if (v)
			return v;
		if (Date.now() - t0 > ms)
			throw new Error(`timed out waiting for ${what}`);
		await sleep(200);
	}
}

module.exports = { until, sleep };
