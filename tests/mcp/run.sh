#!/bin/sh
# tests/mcp/run.sh: the MCP black-box suite (the official SDK client and a
# raw-wire client, tests/mcp/*.test.cjs) against $top_builddir/aiterm-mcp.
#
# make check runs it with top_srcdir, top_builddir (absolute) and
# AITERM_PLUGIN_PATH set.  The source tree may be read-only (distcheck):
# the npm manifest and lock file are copied to $top_builddir/tests/mcp and
# the SDK is installed there with `npm ci`, which is skipped while
# node_modules matches the lock file (a stamp holds the lock's sha256).
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

mkdir -p "$dst"
if test "$(cd "$src" && pwd -P)" != "$(cd "$dst" && pwd -P)"; then
	for f in package.json package-lock.json; do
		if ! cmp -s "$src/$f" "$dst/$f"; then
			# The copy of a read-only source file is read-only too.
			rm -f "$dst/$f"
			cp "$src/$f" "$dst/$f"
			chmod u+w "$dst/$f"
		fi
	done
fi

sha256() {
	node -e 'process.stdout.write(require("crypto").createHash("sha256").update(require("fs").readFileSync(process.argv[1])).digest("hex"))' "$1"
}

stamp=$dst/node_modules/.aiterm-lock-sha256
want=$(sha256 "$dst/package-lock.json")
have=
if test -f "$stamp" && test -f "$dst/node_modules/@modelcontextprotocol/sdk/package.json"; then
	have=$(cat "$stamp")
fi
if test "$have" != "$want"; then
	if ! command -v npm >/dev/null 2>&1; then
		echo "tests/mcp: npm is not installed; cannot install the MCP SDK" >&2
		exit 99
	fi
	echo "tests/mcp: npm ci in $dst"
	# --ignore-scripts: the SDK needs no install scripts, and make check
	# runs no code from the registry beyond what the tests require().
	if ! (cd "$dst" && npm ci --no-audit --no-fund --prefer-offline \
	    --ignore-scripts); then
		echo "tests/mcp: npm ci failed" >&2
		exit 99
	fi
	printf '%s\n' "$want" >"$stamp"
fi

NODE_PATH=$dst/node_modules
AITERM_MCP=$server
export NODE_PATH AITERM_MCP top_srcdir top_builddir
export AITERM_PLUGIN_PATH="${AITERM_PLUGIN_PATH-}"

exec node --test --test-concurrency=1 --test-timeout=120000 \
	--test-reporter=spec "$src"/*.test.cjs
