#!/bin/sh
# tests/harness/run.sh: the agent tools on the real agent CLIs (the pinned
# npm packages of tests/clients/package-lock.json) in private tmux servers,
# against mock model servers on 127.0.0.1 (tests/harness/*.test.cjs).
# HARNESS_TESTS="grok codex" runs those suites only (<name>.test.cjs),
# HARNESS_PATTERN those tests whose names match; HARNESS_JOBS suites run
# at once (default 2: the tests wait on real CLIs far more than they
# compute, and each has its own tmux server, state root and HOME);
# cursor.test.cjs runs a stand-in of Cursor's CLI (cursor-standin/), not
# the real one, which no package ships.
# ./quickstart check runs it through `make check-harness`, after the
# client suite has installed the packages; run by hand it installs them.
# Exit 99 for a broken set-up (no node, npm, tmux or server): never a
# silent skip.
set -eu

# Nothing the suite starts reads the caller's stdin (issue 37).
exec </dev/null

here=$(cd "$(dirname "$0")" && pwd -P)
: "${top_srcdir:=$(cd "$here/../.." && pwd -P)}"
: "${top_builddir:=$top_srcdir/build}"
export top_srcdir top_builddir

fail() {
	echo "tests/harness: $*" >&2
	exit 99
}

command -v node >/dev/null 2>&1 || fail "node is not installed"
command -v tmux >/dev/null 2>&1 || fail "tmux is not installed"
server=${AITERM_MCP:-$top_builddir/aiterm-mcp}
test -x "$server" || fail "$server is missing; build it first"
test -n "${AITERM_PLUGIN_PATH:-}" ||
	fail "AITERM_PLUGIN_PATH is not set: run it with make check-harness"

. "$top_srcdir/tests/npm-ci.sh"
npm_ci_locked tests/harness "$top_srcdir/tests/clients" \
    "$top_builddir/tests/clients" @openai/codex @anthropic-ai/claude-code \
    @xai-official/grok @google/gemini-cli gpt-tokenizer
# The official MCP SDK, for the suites whose parent is a generic client.
npm_ci_locked tests/harness "$top_srcdir/tests/mcp" "$top_builddir/tests/mcp" \
    @modelcontextprotocol/sdk

NODE_PATH=$top_builddir/tests/clients/node_modules:$top_builddir/tests/mcp/node_modules
AITERM_MCP=$server
export NODE_PATH AITERM_MCP

. "$top_srcdir/tests/suite-files.sh"
suite_files "$here" "${HARNESS_TESTS:-}"

# HARNESS_PATTERN runs the tests whose names match it (a regular
# expression), for a developer chasing one test.
# shellcheck disable=SC2086 # the file list is split on purpose
exec node --test --test-concurrency=${HARNESS_JOBS:-2} --test-timeout=600000 \
	${HARNESS_PATTERN:+--test-name-pattern="$HARNESS_PATTERN"} \
	--test-reporter=spec $files
