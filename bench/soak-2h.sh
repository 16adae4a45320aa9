#!/bin/sh
# The 2-hour soak (issue 17; by hand, not in CI): 8 aiterm-mcp servers on
# one state root, each opening its share of 50 bash sessions at once and
# then sending unique-marker commands round robin for SECONDS (7200),
# each session pausing PAUSE_MS (20) between its commands.  Checked at
# the end (tests/mcp/soak.test.cjs): every command complete with exit 0
# and its own marker only, every marker once and in order in its
# session's whole log (0 lost), every server's RSS within 4 MiB of its
# start; the RSS of all 8 is printed every SAMPLE_S (300) seconds.
#
#   cd build && sh ../bench/soak-2h.sh [SECONDS] [PAUSE_MS]
#
# Run from the build tree (it needs tests/mcp/node_modules: make check
# installs it once).  Agent-free: only shells.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(pwd)
[ -x "$build/aiterm-mcp" ] || { echo "soak-2h: run it from the build tree" >&2; exit 2; }
plugins=$(ls -d "$build"/plugins/*/ "$build"/plugins/reducers/*/ 2>/dev/null |
    sed 's:/$::' | tr '\n' ':')
export NODE_PATH="$build/tests/mcp/node_modules" AITERM_MCP="$build/aiterm-mcp" \
    top_srcdir="$here" top_builddir="$build" AITERM_PLUGIN_PATH="$plugins" \
    AITERM_SHELL_DIR="$here/core/shell/integration" \
    AITERM_SOAK_SECONDS="${1:-7200}" AITERM_SOAK_PAUSE_MS="${2:-20}" \
    AITERM_SOAK_SAMPLE_S="${SAMPLE_S:-300}"
exec node --test --test-concurrency=1 "$here/tests/mcp/soak.test.cjs"
