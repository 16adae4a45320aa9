#!/bin/sh
# tests/man/options.sh: the manual pages against the code (issue 19).
#  - every option a program's --help prints appears in its page;
#  - every key the manifest reader accepts (core/plugin/manifest.c)
#    appears in aiterm-manifest(5);
#  - every function of the host and of each ops table in the ABI header
#    (include/aiterm/plugin.h) appears in aiterm-plugin(7).
# A missing mandoc is a failure, not a skip.
set -eu
: "${top_srcdir:?}" "${top_builddir:?}"
. "$top_srcdir/tests/man/render.sh"
man_need_mandoc
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# --help must not read or make anyone's state.
HOME=$tmp/home AITERM_STATE_DIR=$tmp/state XDG_STATE_HOME=
export HOME AITERM_STATE_DIR XDG_STATE_HOME
mkdir "$tmp/home"
bad=0

# check WHAT PAGE WORD...: each WORD occurs in PAGE's text.
check() {
	what=$1 page=$2
	shift 2
	man_render "$top_srcdir/man/$page" >"$tmp/page.txt"
	k=0
	for w in "$@"; do
		k=$((k + 1))
		if ! grep -qF -e "$w" "$tmp/page.txt"; then
			echo "FAIL: $page does not mention $what '$w'" >&2
			bad=1
		fi
	done
	test "$k" -gt 0 || { echo "FAIL: no $what found for $page" >&2; bad=1; }
	echo "checked $k ${what}s against $page"
}

for prog in aiterm-mcp aiterm-setup aiterm-wait aiterm-hook; do
	"$top_builddir/$prog" --help >"$tmp/help.txt" 2>&1 || {
		echo "FAIL: $prog --help exited non-zero" >&2
		bad=1
	}
	# shellcheck disable=SC2046
	check option "$prog.1" $(grep -oE -- '--[a-z][a-z0-9-]*' \
	    "$tmp/help.txt" | sort -u)
done

# aiterm: its own options and those of aiterm run (the other commands'
# options are their tools' schemas, listed by "aiterm COMMAND --help").
{ "$top_builddir/aiterm" --help && "$top_builddir/aiterm" run --help; } \
    >"$tmp/help.txt" 2>&1 || {
	echo "FAIL: aiterm --help or aiterm run --help exited non-zero" >&2
	bad=1
}
# shellcheck disable=SC2046
check option aiterm.1 $(grep -oE -- '--[a-z][a-z0-9-]*' "$tmp/help.txt" |
    sort -u)

# The keys of manifest_keys[] and reducer_keys[].
# shellcheck disable=SC2046
check "manifest key" aiterm-manifest.5 $(sed -nE \
    's/^[[:space:]]*(\[RK_[A-Z]+\] = )?\{ "([a-z-]+)", VALUE_.*/\2/p' \
    "$top_srcdir/core/plugin/manifest.c" | sort -u)

# The function pointers of struct aiterm_host and every ops table.
# shellcheck disable=SC2046
check "ABI function" aiterm-plugin.7 $(grep -oE '\(\*[a-z_]+\)' \
    "$top_srcdir/include/aiterm/plugin.h" | tr -d '(*)' | sort -u)
# The ABI version the page states is the header's.
maj=$(sed -n 's/^#define AITERM_ABI_MAJOR //p' "$top_srcdir/include/aiterm/plugin.h")
min=$(sed -n 's/^#define AITERM_ABI_MINOR //p' "$top_srcdir/include/aiterm/plugin.h")
check "ABI version" aiterm-plugin.7 "are $maj and $min"

test "$bad" -eq 0 || exit 1
echo "options: every --help option, manifest key and ABI function is documented"
