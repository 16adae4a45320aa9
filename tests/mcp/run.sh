#!/bin/sh
# tests/mcp/run.sh: the MCP black-box suite (the official SDK client and a
# raw-wire client, tests/mcp/*.test.cjs) against $top_builddir/aiterm-mcp.
#
# make check runs it with top_srcdir, top_builddir (absolute) and
# AITERM_PLUGIN_PATH set.  The pinned SDK is installed into
# $top_builddir/tests/mcp by tests/npm-ci.sh (`npm ci`, skipped while
# node_modules matches the lock file).
# Exit 77 (skip) when node is not installed; 99 for a broken set-up.

set -eu

: "${top_srcdir:?top_srcdir is not set}"
: "${top_builddir:?top_builddir is not set}"

if ! command -v node >/dev/null 2>&1; then
	echo "tests/mcp: node is not installed; skipping the MCP suite"
	exit 77
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

exec node --test --test-concurrency=1 --test-timeout=120000 \
	--test-reporter=spec "$src"/*.test.cjs
