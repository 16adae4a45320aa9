'use strict';
/*
 * bench/lib/strip.cjs: the reference stripper the token benchmark measures
 * against.  It is deliberately simple and independent of the server's own
 * reducer (a benchmark must not grade the server with the server's code):
 *
 *   - escape sequences are removed: CSI (ESC [ ... final, and the 8-bit
 *     CSI U+009B), OSC (ESC ] ... BEL or ST), DCS/SOS/PM/APC (ESC P/X/^/_
 *     ... ST) and every other ESC sequence (ESC, intermediates, final);
 *   - a cursor move to column 1 (CSI G / CSI 1 G, as npm's spinner uses
 *     with ESC[0K) counts as a bare CR, since that is what it does;
 *   - other C0 controls but TAB and LF are removed (BEL, BS, ...), after
 *     CRs are resolved;
 *   - lines end at LF; a CR right before the LF (CRLF) is dropped; of each
 *     line only the text after its last bare CR is kept (the state a
 *     progress line redrawn with CR is left in).
 *
 * Cursor-up redraws (jest, vitest) and scroll regions are not replayed:
 * every frame they drew stays, which is what a plain log of the bytes holds.
 */

/* Marks a "go to column 1" with a private char before the CR pass. */
const CR_MARK = '\r';

function stripEscapes(s) {
	let out = '';
	const n = s.length;
	for (let i = 0; i < n; i++) {
		const c = s.charCodeAt(i);
		if (c === 0x1b || c === 0x9b) {
			let j;
			let isCsi = c === 0x9b;
			if (!isCsi && i + 1 < n && s[i + 1] === '[') {
				isCsi = true;
				j = i + 2;
			} else if (isCsi) {
				j = i + 1;
			}
			if (isCsi) {
				const start = j;
				while (j < n && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x3f)
					j++;	/* parameters and intermediates */
				if (j < n && s.charCodeAt(j) >= 0x40 && s.charCodeAt(j) <= 0x7e) {
					const params = s.slice(start, j);
					if (s[j] === 'G' && (params === '' || params === '1'))
						out += CR_MARK;
					i = j;
				} else {
					i = j - 1;	/* broken sequence: drop what was read */
				}
				continue;
			}
			if (i + 1 >= n)
				continue;	/* lone ESC at the end */
			const k = s[i + 1];
			if (k === ']' || k === 'P' || k === 'X' || k === '^' || k === '_') {
				/* string until BEL (OSC only) or ST (ESC \) */
				j = i + 2;
				while (j < n) {
					if (k === ']' && s.charCodeAt(j) === 0x07) break;
					if (s.charCodeAt(j) === 0x1b && s[j + 1] === '\\') { j++; break; }
					if (s.charCodeAt(j) === 0x9c) break;
					j++;
				}
				i = j;
				continue;
			}
			/* ESC, intermediates 0x20-0x2f, final 0x30-0x7e */
			j = i + 1;
			while (j < n && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f)
				j++;
			i = j;	/* the final byte (or whatever stands there) is dropped */
			continue;
		}
		out += s[i];
	}
	return out;
}

/* Resolves CRLF and bare-CR overwrites; drops the remaining controls. */
function resolveLines(s) {
	return s.split('\n').map((line) => {
		if (line.endsWith('\r'))
			line = line.replace(/\r+$/, '');
		const k = line.lastIndexOf('\r');
		if (k >= 0)
			line = line.slice(k + 1);
		/* eslint-disable-next-line no-control-regex */
		return line.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '');
	}).join('\n');
}

function strip(s) {
	return resolveLines(stripEscapes(s));
}

module.exports = { strip, stripEscapes, resolveLines };
