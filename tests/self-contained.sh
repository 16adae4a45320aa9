#!/bin/sh
# tests/self-contained.sh: the build, the tests and the benchmarks read
# nothing from beside the repository (a clone from a public host has no
# ../shared next to it).  Fails on a reference to ../shared or to an
# absolute path of the machine the project was developed on, in any build
# file, test, benchmark or script of the source tree.
set -eu
: "${top_srcdir:?}"
cd "$top_srcdir"
found=$(find configure.ac Makefile.am quickstart .ci core plugins tests bench \
    fuzz demo -type f \( -name '*.c' -o -name '*.h' -o -name '*.am' \
    -o -name '*.mk' -o -name '*.ac' -o -name '*.cjs' -o -name '*.js' \
    -o -name '*.sh' -o -name '*.py' -o -name run -o -name quickstart \) \
    ! -path '*/node_modules/*' ! -path 'tests/fixtures/*' \
    ! -path 'tests/self-contained.sh' 2>/dev/null |
    xargs grep -nE '\.\./shared|/work/(main|shared)' 2>/dev/null || :)
if test -n "$found"; then
	echo "self-contained: these read outside the repository:" >&2
	echo "$found" >&2
	exit 1
fi
echo "self-contained: no build file, test or benchmark reads outside the repository"
