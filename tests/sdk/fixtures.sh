#!/bin/sh
# tests/sdk/fixtures.sh: the test kit's fixture runner on Codex 0.171.0's
# recordings against the built harness-codex (issue 39): the same cases
# as tests/unit/check_harness.c's, from an expect file.  A wrong
# expectation must fail it.
set -eu
: "${top_srcdir:?}" "${top_builddir:?}"
run=$top_builddir/tests/sdk/sdk_fixtures
plugin=$top_builddir/plugins/harness-codex/harness_codex.la
fx=$top_srcdir/tests/harness/fixtures/codex-cli-0.171.0
"$run" "$plugin" "$fx"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/aiterm-sdkfx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/fx"
ln -s "$fx/screens" "$tmp/fx/screens"
ln -s "$fx/rollouts" "$tmp/fx/rollouts"
sed 's/^screen running running esc_to_interrupt$/screen running input_ready composer_empty/' \
	"$fx/expect" >"$tmp/fx/expect"
if "$run" "$plugin" "$tmp/fx" >"$tmp/out" 2>&1; then
	echo "sdk/fixtures: a wrong expectation passed" >&2
	exit 1
fi
grep -q '^not ok 11 - screen running: running/esc_to_interrupt, want input_ready/composer_empty$' \
	"$tmp/out" || { cat "$tmp/out" >&2; exit 1; }
echo "sdk/fixtures: a wrong expectation fails: ok"
