'use strict';
/*
 * What each real AI client hands the model for one MCP tools/call result
 * (ADR 0006), reproduced from the result, so the benchmarks can count it
 * without running the clients.  tests/clients/model-view.test.cjs checks
 * both functions against what the real clients sent to a mock model.
 *
 * Claude Code 2.1.197: structuredContent as JSON text when a successful
 * result has it (the text content dropped); else the text blocks (an
 * error's text too); only empty text: "(mcp__<server>__<tool> completed
 * with no output)".
 * Codex CLI 0.171.0: "Wall time: <s> seconds\nOutput:" and then
 * structuredContent as JSON text when there is one (on an error too),
 * else the non-empty text blocks, each after a newline.  Codex does not
 * tell the model that a result is an error.
 * Where a client sends several parts, they are joined with "\n" (how the
 * model's side joins them cannot be seen from outside).
 */

function texts(result) {
	return (result.content || []).filter((c) => c && c.type === 'text').map((c) => c.text);
}

/*
 * Claude Code 2.1.332 saves a successful result of over 50,000 characters
 * to a file and shows the model its path and the first 2 KB of the
 * content's JSON (measured with the real CLI: 49,930 characters shown,
 * 50,028 saved); the size it names and the path are approximated here.
 */
const CLAUDE_CHARS = 50000;

function claudePersisted(result, shown) {
	if (shown.length <= CLAUDE_CHARS || result.isError)
		return shown;
	return `<persisted-output>\nOutput too large (${(shown.length / 1000).toFixed(1)}KB). Full output saved to: ` +
		`~/.claude/projects/<project>/<session>/tool-results/<call>.json\n\nPreview (first 2KB):\n` +
		`${JSON.stringify(result.content, null, 2).slice(0, 2000)}\n...\n</persisted-output>`;
}

function claudeView(result, tool, server = 'aiterm') {
	if (result.structuredContent && !result.isError)
		return claudePersisted(result, JSON.stringify(result.structuredContent));
	const t = texts(result);
	if (t.every((s) => s === ''))
		return `(mcp__${server}__${tool} completed with no output)`;
	return claudePersisted(result, t.join('\n'));
}

/*
 * Codex 0.171.0 with a model it has no metadata for (the mock's; also the
 * default of its model families) keeps 3,000 approximate tokens of 4
 * bytes of a tool result: the parts in order, each costing its bytes / 4
 * rounded up, while they fit; the part that does not fit keeps its first
 * and last halves of what is left (at character boundaries) around
 * "…N tokens truncated…", and the parts after it become one "[omitted K
 * text items ...]".  With the 33-byte Wall time header, a text over 11,964
 * bytes loses its middle: measured with the real Codex (texts of 10.5 KB
 * whole; of 12.1, 39 and 100 KB, the first and last 5,982 bytes kept).
 * N here is the bytes cut / 4; Codex's own figure is not that (7 or 8 in
 * every cut measured), so a comparison leaves the number out.
 */
const CODEX_TOKENS = 3000;

function codexCut(parts) {
	let left = CODEX_TOKENS;
	let omitted = 0;
	const out = [];
	for (const p of parts) {
		const b = Buffer.from(p, 'utf8');
		const cost = Math.ceil(b.length / 4);
		if (left === 0) {
			omitted++;
		} else if (cost <= left) {
			out.push(p);
			left -= cost;
		} else {
			const keep = 4 * left;
			let h = Math.floor(keep / 2);
			let t = b.length - (keep - h);
			while (h > 0 && (b[h] & 0xc0) === 0x80)
				h--;
			while (t < b.length && (b[t] & 0xc0) === 0x80)
				t++;
			out.push(`${b.subarray(0, h)}…${Math.ceil((b.length - keep) / 4)} tokens truncated…${b.subarray(t)}`);
			left = 0;
		}
	}
	if (omitted > 0)
		out.push(`[omitted ${omitted} text items ...]`);
	return out.join('\n');
}

/* wallSeconds: the call's time as Codex measured it (the figure varies). */
function codexView(result, wallSeconds = 0.01) {
	const head = `Wall time: ${wallSeconds.toFixed(4)} seconds\nOutput:`;
	if (result.structuredContent)
		return codexCut([head, JSON.stringify(result.structuredContent)]);
	return codexCut([head, ...texts(result).filter((s) => s !== '')]);
}

/* A Codex view with the number of its cut marker left out. */
function codexCutless(seen) {
	return String(seen).replace(/…\d+ tokens truncated…/g, '…N tokens truncated…');
}

/*
 * The tool definitions each client puts in its model request, from a
 * tools/list result.  Claude Code: one tool per MCP tool, named
 * mcp__<server>__<tool>, its inputSchema as is (title, annotations and
 * outputSchema not shown; the server instructions go into the system
 * prompt).  Codex: one tool of type "namespace" named mcp__<server> whose
 * description is the server instructions, holding the plain tools with
 * their schemas stripped of the keys Codex drops (properties sorted).
 */
function toolsClaude(tools, server = 'aiterm') {
	return tools.map((t) => ({ name: `mcp__${server}__${t.name}`, description: t.description, input_schema: t.inputSchema }));
}

const CODEX_DROPS = new Set(['$schema', 'title', 'minimum', 'maximum', 'default', 'examples', 'minLength',
	'maxLength', 'pattern', 'format', 'maxItems', 'uniqueItems', 'exclusiveMinimum', 'exclusiveMaximum',
	'multipleOf', 'deprecated', 'readOnly']);

function codexSchema(schema) {
	if (Array.isArray(schema))
		return schema.map(codexSchema);
	if (!schema || typeof schema !== 'object')
		return schema;
	const out = {};
	for (const [k, v] of Object.entries(schema)) {
		if (CODEX_DROPS.has(k))
			continue;
		if (k === 'properties') {
			out.properties = {};
			for (const name of Object.keys(v).sort())
				out.properties[name] = codexSchema(v[name]);
		} else {
			out[k] = typeof v === 'object' ? codexSchema(v) : v;
		}
	}
	/* An object schema always gets its properties, empty if need be. */
	if (out.type === 'object' && out.properties === undefined)
		out.properties = {};
	return out;
}

function toolsCodex(tools, instructions, server = 'aiterm') {
	return {
		type: 'namespace', name: `mcp__${server}`, description: instructions,
		tools: tools.map((t) => ({ type: 'function', name: t.name, description: t.description, strict: false,
			parameters: codexSchema(t.inputSchema) })),
	};
}

module.exports = { claudeView, codexView, codexCutless, toolsClaude, toolsCodex };
