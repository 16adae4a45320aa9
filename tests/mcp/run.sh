#!/bin/sh
# tests/mcp/run.sh: the MCP black-box suite (the official SDK client and a
# raw-wire client, tests/mcp/*.test.cjs) against $top_builddir/aiterm-mcp.
#
# make check runs it with top_srcdir, top_builddir (absolute) and
# AITERM_PLUGIN_PATH set.  The pinned SDK is installed into
# $top_builddir/tests/mcp by tests/npm-ci.sh (`npm ci`, skipped while
# node_modules matches the lock file).
# Two test files run at once (MCP_TEST_JOBS, default 2): each test has
# its own state root, tmux socket and HOME, and most of a test's time is
# waiting on real processes; the suite took 5.2 minutes one file at a
# time, 2.7 two at a time (three times in CI: make check, ASan,
# distcheck).
# Exit 77 (skip) when node is not installed; 99 for a broken set-up; 1
# when a test fails or is skipped without AITERM_ALLOW_SKIPS allowing it
# (tests/skips.sh).

set -eu

# Nothing the suite starts reads the caller's stdin (issue 37).
exec </dev/null

: "${top_srcdir:?top_srcdir is not set}"
: "${top_builddir:?top_builddir is not set}"

if ! command -v node >/dev/null 2>&1; then
	. "$top_srcdir/tests/skips.sh"
	reasons=$(mktemp)
	echo "no-node: node is not installed; the MCP suite did not run" >"$reasons"
	rc=77
	skips_check tests/mcp "$reasons" || rc=1
	rm -f "$reasons"
	exit "$rc"
fi

src=$top_srcdir/tests/mcp
dst=$top_builddir/tests/mcp
server=${AITERM_MCP:-$top_builddir/aiterm-mcp}

if ! test -x "$server"; then
	echo "tests/mcp: $server is missing; build it first" >&2
	exit 99
fi

. "$top_srcdir/tests/npm-ci.sh"
npm_ci_locked tests/mcp "$src" "$dst" @modelcontextprotocol/sdk

NODE_PATH=$dst/node_modules
AITERM_MCP=$server
export NODE_PATH AITERM_MCP top_srcdir top_builddir
export AITERM_PLUGIN_PATH="${AITERM_PLUGIN_PATH-}"

# The spec report on stdout, a TAP copy to count the skips from.
tap=$dst/run.tap
skips=$dst/run.skips
rm -f "$tap" "$skips"
rc=0
node --test --test-concurrency="${MCP_TEST_JOBS:-2}" --test-timeout=120000 \
	--test-reporter=spec --test-reporter-destination=stdout \
	--test-reporter=tap --test-reporter-destination="$tap" \
	"$src"/*.test.cjs || rc=$?

# A skipped test is a test that did not run: it fails the suite unless
# AITERM_ALLOW_SKIPS names it (tests/skips.sh).  Tests left out by
# --test-name-pattern (someone running a few by hand) do not count.
. "$top_srcdir/tests/skips.sh"
sed -n 's/^ *ok [0-9][0-9]* - .* # SKIP *//p' "$tap" |
	grep -v '^test name does not match pattern$' >"$skips" || :
skips_check tests/mcp "$skips" || { [ "$rc" -ne 0 ] || rc=1; }
exit "$rc"
