#!/bin/sh
# tests/integration/oot-sdk.sh: the plugin test kit for third parties
# (issue 39, AGT-LAUNCH, doc/harness.md "Testing a harness").  Install the
# build into a scratch DESTDIR, then build doc/examples/harness-mycli and
# its unit tests (test-mycli.c) out of tree with nothing but the installed
# aiterm-plugin-test.pc: the plugin against the fake host, the example's
# own recordings replayed by the fixture runner.  A wrong expectation
# must fail it, and a malformed expect file must be refused.
set -eu

: "${top_srcdir:?}" "${top_builddir:?}"
if ! command -v pkg-config >/dev/null 2>&1; then
	echo "oot-sdk: pkg-config is not installed" >&2
	exit 99
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aiterm-oots.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

name=oot-sdk
. "$top_srcdir/tests/integration/oot-install.sh"

kit="--define-variable=prefix=$inst$prefix"
tcflags=$(pkg-config "$kit" --cflags aiterm-plugin-test)
tlibs=$(pkg-config "$kit" --libs aiterm-plugin-test)
case $tlibs in *"$inst"*) ;; *) echo "oot-sdk: libs '$tlibs' do not point into DESTDIR" >&2; exit 1 ;; esac
for h in plugin.h plugin-test.h harness-util.h; do
	test -f "$inst$prefix/include/aiterm/$h" || {
		echo "oot-sdk: aiterm/$h is not installed" >&2
		exit 1
	}
done

# Out of tree: a copy of the example, nothing of the source tree on the
# include path.
ex=$tmp/harness-mycli
cp -R "$top_srcdir/doc/examples/harness-mycli" "$ex"
chmod -R u+w "$ex"
cd "$ex"
# A sanitizer build (quickstart's build-asan) installs an instrumented
# kit: the program that links it takes the same runtimes.
san=
for a in $(find "$inst" -name libaiterm-plugin-test.a); do
	if nm "$a" 2>/dev/null | grep -q __asan_init; then
		san="-fsanitize=address,undefined"
	fi
done
# shellcheck disable=SC2086
${CC:-cc} $tcflags $san -std=c11 -Wall -Wextra -Werror -o test-mycli \
	test-mycli.c mycli.c $tlibs
./test-mycli fixtures/mycli-1.2.3 >"$tmp/out" 2>&1 || {
	cat "$tmp/out" >&2
	echo "oot-sdk: test-mycli failed on its own recordings" >&2
	exit 1
}
cat "$tmp/out"
grep -q '^ok 9 - turn turn-running turn 2$' "$tmp/out" || {
	echo "oot-sdk: the fixture runner did not run every check" >&2
	exit 1
}

# A wrong expectation fails, and says which and why.
cp -R fixtures/mycli-1.2.3 "$tmp/wrong"
sed 's/^screen running running esc_to_stop$/screen running input_ready composer_empty/' \
	fixtures/mycli-1.2.3/expect >"$tmp/wrong/expect"
if ./test-mycli "$tmp/wrong" >"$tmp/out" 2>&1; then
	echo "oot-sdk: a wrong expectation passed" >&2
	exit 1
fi
grep -q '^not ok 4 - screen running: running/esc_to_stop, want input_ready/composer_empty$' \
	"$tmp/out" || { cat "$tmp/out" >&2; exit 1; }

# A line that is no check is refused with its place.
printf 'screen ready\n' >"$tmp/wrong/expect"
if ./test-mycli "$tmp/wrong" >"$tmp/out" 2>&1; then
	echo "oot-sdk: a malformed expect file passed" >&2
	exit 1
fi
grep -q "wrong/expect:1: not a check" "$tmp/out" || { cat "$tmp/out" >&2; exit 1; }

# The fake host shows a plugin's log lines as the server does.
AITERM_PLUGIN_LOG=debug ./test-mycli 2>"$tmp/err" >/dev/null
grep -q '^aiterm-plugin-test: debug: harness-mycli: launch ' "$tmp/err" || {
	cat "$tmp/err" >&2
	echo "oot-sdk: AITERM_PLUGIN_LOG=debug showed no debug line" >&2
	exit 1
}
echo "oot-sdk: the installed test kit builds and tests harness-mycli: ok"
