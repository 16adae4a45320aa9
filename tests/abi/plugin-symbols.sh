#!/bin/sh
# tests/abi/plugin-symbols.sh: a plugin reaches the core only through the
# host table (include/aiterm/plugin.h), never through the program that
# loads it (issue 31).  For every plugin module in the build tree (the
# .la files libtool marks shouldnotlink=yes under plugins/ and tests/:
# mux, reducers, harnesses, receivers and the check-only test plugins):
#   - each undefined dynamic symbol of its .so must be defined by one of
#     the .so's own DT_NEEDED libraries (libc, libjansson, ...), found
#     where ldd finds them;
#   - it exports aiterm_plugin_describe (or libltdl's
#     <module>_LTX_aiterm_plugin_describe) and nothing else of its own.
# Fails naming each plugin and symbol.  Needs readelf, nm and ldd.
set -eu
: "${top_builddir:?}"

# Plugins that export something else on purpose: the .la, from the build
# root, and the one symbol it exports instead of the descriptor.
exceptions='
tests/plugins/missing_symbol.la aiterm_plugin_other
'
# Weak references every toolchain leaves in a shared object; nothing
# needs to define them.
toolchain_weak='__gmon_start__ _ITM_deregisterTMCloneTable
_ITM_registerTMCloneTable __cxa_finalize'
# The sanitizer runtime: clang links it into the program, not into a
# library the plugin needs (configure drops -Wl,-z,defs there).
sanitizer_re='^__(asan|ubsan|lsan|msan|tsan|sanitizer|sancov)_'
describe_re='^([A-Za-z0-9_]+_LTX_)?aiterm_plugin_describe$'

for t in readelf nm ldd; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "FAIL: plugin-symbols: $t is not installed" >&2; exit 1; }
done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top_builddir"

find plugins tests -name '*.la' ! -path '*/.libs/*' 2>/dev/null | sort \
    >"$tmp/la"
count=0
bad=0
fail() {
	echo "FAIL: plugin-symbols: $*" >&2
	bad=1
}

while read -r la; do
	grep -q "^shouldnotlink=yes" "$la" || continue
	dlname=$(sed -n "s/^dlname='\(.*\)'$/\1/p" "$la")
	[ -n "$dlname" ] || continue
	so=$(dirname "$la")/.libs/$dlname
	[ -f "$so" ] || { fail "$la: $so was not built"; continue; }
	count=$((count + 1))

	# What its own libraries define.
	readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]$/\1/p' \
	    >"$tmp/needed"
	ldd "$so" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }
	    $1 ~ /^\// { n = $1; sub(/.*\//, "", n); print n, $1 }' \
	    >"$tmp/paths"
	: >"$tmp/defs"
	while read -r lib; do
		path=$(awk -v l="$lib" '$1 == l { print $2; exit }' \
		    "$tmp/paths")
		if [ -z "$path" ]; then
			fail "$so: needs $lib, which ldd does not find"
			continue
		fi
		nm -D --defined-only "$path" | awk 'NF >= 3 { print $3 }' |
		    sed 's/@.*//' >>"$tmp/defs"
	done <"$tmp/needed"
	sort -u "$tmp/defs" -o "$tmp/defs"

	# What it leaves for someone else to define.
	nm -D --undefined-only "$so" | awk '{ print $1, $2 }' |
	    sed 's/@.*//' >"$tmp/undef"
	while read -r type sym; do
		if grep -qxF "$sym" "$tmp/defs"; then
			continue
		fi
		case $type in
		w | v)
			case " $(echo $toolchain_weak) " in
			*" $sym "*) continue ;;
			esac ;;
		esac
		if echo "$sym" | grep -qE "$sanitizer_re"; then
			continue
		fi
		fail "$so: $sym is defined by none of its libraries" \
		    "($(tr '\n' ' ' <"$tmp/needed" | sed 's/ $//')):" \
		    "it would come from the program that loads it"
	done <"$tmp/undef"

	# What it exports of its own.
	nm -D --defined-only "$so" | awk 'NF >= 3 { print $3 }' |
	    sed 's/@.*//' | sort -u >"$tmp/exports"
	want=$(echo "$exceptions" | awk -v l="$la" '$1 == l { print $2 }')
	n=$(grep -c . "$tmp/exports" || :)
	if [ -n "$want" ]; then
		if [ "$n" != 1 ] || ! grep -qxF "$want" "$tmp/exports"; then
			fail "$so: exports '$(tr '\n' ' ' <"$tmp/exports" |
			    sed 's/ $//')', not '$want' alone"
		fi
	elif [ "$n" != 1 ] || ! grep -qE "$describe_re" "$tmp/exports"; then
		fail "$so: exports '$(tr '\n' ' ' <"$tmp/exports" |
		    sed 's/ $//')', not aiterm_plugin_describe alone"
	fi
done <"$tmp/la"

if [ "$count" = 0 ]; then
	echo "FAIL: plugin-symbols: no plugin module under $top_builddir" >&2
	exit 1
fi
if [ "$bad" != 0 ]; then
	exit 1
fi
echo "plugin-symbols: $count plugins need nothing from the program" \
    "and export their descriptor alone (or their listed exception)"
