#!/bin/sh
# tests/integration/psmux-mingw.sh: the mux-psmux plugin cross-compiles
# to a Windows DLL with Debian's mingw-w64 (ADR 0024).  Not in make check;
# ./quickstart check runs it.  What it shows: the plugin's sources build
# for x86_64 Windows warning-free (-Wall -Wextra -Werror), and the DLL
# exports aiterm_plugin_describe alone and imports only Windows' own
# libraries.  What it does not: nothing here runs the DLL, psmux or
# PowerShell 7, and the core itself does not build for Windows yet.
# A missing cross compiler is a failure, not a skip.
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
cc=${MINGW_CC:-x86_64-w64-mingw32-gcc}
objdump=${MINGW_OBJDUMP:-x86_64-w64-mingw32-objdump}
for t in "$cc" "$objdump"; do
	command -v "$t" >/dev/null 2>&1 || {
		echo "FAIL: psmux-mingw: $t is not installed" \
		    "(apt-get install gcc-mingw-w64-x86-64, or ./quickstart check)" >&2
		exit 1
	}
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf 'EXPORTS\n\taiterm_plugin_describe\n' >"$tmp/exports.def"
"$cc" -std=c11 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wpointer-arith -Wformat=2 -Wno-unused-parameter \
	-Werror -O2 -shared -I"$here/include" -o "$tmp/mux_psmux.dll" \
	"$here"/plugins/mux-psmux/*.c "$tmp/exports.def"
"$objdump" -p "$tmp/mux_psmux.dll" >"$tmp/pe.txt"
grep -q 'PE32+' "$tmp/pe.txt" || grep -q 'pei-x86-64' "$tmp/pe.txt" || {
	echo "FAIL: psmux-mingw: not a 64-bit PE file" >&2; exit 1; }
exports=$(sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' "$tmp/pe.txt" |
	sed -n 's/^[[:space:]]*\[ *[0-9]*\] //p' | tr '\n' ' ')
[ "$exports" = "aiterm_plugin_describe " ] || {
	echo "FAIL: psmux-mingw: the DLL exports '$exports'" >&2; exit 1; }
imports=$(sed -n 's/^[[:space:]]*DLL Name: //p' "$tmp/pe.txt" | sort -u |
	tr '\n' ' ')
for dll in $imports; do
	case $dll in
	KERNEL32.dll|msvcrt.dll|api-ms-win-crt-*.dll|ucrtbase.dll) ;;
	*) echo "FAIL: psmux-mingw: the DLL needs $dll" >&2; exit 1 ;;
	esac
done
echo "psmux-mingw: mux_psmux.dll ($(wc -c <"$tmp/mux_psmux.dll") bytes)" \
    "exports: $exports; imports: $imports"
