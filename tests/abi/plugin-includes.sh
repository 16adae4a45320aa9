#!/bin/sh
# tests/abi/plugin-includes.sh: a plugin sees nothing of the core but the
# installed header (issue 31, ADR 0001).  Every quoted #include of a
# plugin's source must name a header of include/ ("aiterm/..."), of the
# source's own folder, or of a plugin helper library (plugins/harness-lib,
# plugins/reducers/lib).  The hook programs (plugins/harness-*/hook.c and
# the hook-*.c, hook-*.h beside it) are programs beside aiterm-hook,
# linked with the core: not plugins.
# The build enforces the same with each plugin's include path; this
# holds it for a new plugin target that forgets its _CPPFLAGS.
set -eu
: "${top_srcdir:?}"
cd "$top_srcdir"

helpers='plugins/harness-lib plugins/reducers/lib'
bad=0
for f in $(find plugins -type f \( -name '*.c' -o -name '*.h' \) \
    ! -path 'plugins/harness-*/hook.c' ! -path 'plugins/harness-*/hook-*' | sort); do
	dir=$(dirname "$f")
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		case "$line" in
		'#include "'*) ;;
		*) continue ;;
		esac
		inc=${line#'#include "'}
		inc=${inc%%'"'*}
		case "$inc" in
		aiterm/*) [ -f "include/$inc" ] && continue ;;
		*/*) ;;
		*)
			[ -f "$dir/$inc" ] && continue
			found=
			for h in $helpers; do
				[ -f "$h/$inc" ] && found=1
			done
			[ -n "$found" ] && continue
			;;
		esac
		echo "$f:$n: includes \"$inc\": a plugin includes only" \
		    "include/, its own folder and the plugin helper libraries"
		bad=1
	done <"$f"
done
[ "$bad" -eq 0 ] || exit 1
echo "plugin-includes: every plugin source includes only include/, its" \
    "folder and the helper libraries"
