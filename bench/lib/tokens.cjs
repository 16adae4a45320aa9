'use strict';
/*
 * bench/lib/tokens.cjs: token counts with the o200k_base encoding (GPT-4o
 * and later) of the pinned npm package gpt-tokenizer (bench/package.json;
 * `npm ci` in bench/ installs it).  Special-token text such as
 * "<|endoftext|>" in terminal output is counted as ordinary text.
 */
let enc;
try {
	enc = require('gpt-tokenizer/encoding/o200k_base');
} catch (e) {
	const err = new Error('gpt-tokenizer is not installed: run `npm ci` in bench/ (' + e.message + ')');
	err.code = 'NO_TOKENIZER';
	throw err;
}

const OPTS = { disallowedSpecial: new Set() };

function count(text) {
	if (!text)
		return 0;
	return enc.encode(String(text), OPTS).length;
}

module.exports = { count, encoding: 'o200k_base' };
