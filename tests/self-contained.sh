#!/bin/sh
# tests/self-contained.sh: the build, the tests and the benchmarks read
# nothing from beside the repository (a clone from a public host has no
# folder next to it).  Fails on a reference to the folder the project was
# developed beside ("shared", one level up) or to an absolute path of the
# development machine, in any build file, test, benchmark or script.
set -eu
: "${top_srcdir:?}"
cd "$top_srcdir"
# Spelled in parts, so that this file does not name what it looks for.
up='\.\.'
beside="$up/shared"
machine='/work/(main|shared)'
found=$(find configure.ac Makefile.am quickstart .ci core plugins tests bench \
    fuzz demo -type f \( -name '*.c' -o -name '*.h' -o -name '*.am' \
    -o -name '*.mk' -o -name '*.ac' -o -name '*.cjs' -o -name '*.js' \
    -o -name '*.sh' -o -name '*.py' -o -name run -o -name quickstart \) \
    ! -path '*/node_modules/*' ! -path 'tests/fixtures/*' 2>/dev/null |
    xargs grep -nE "$beside|$machine" 2>/dev/null || :)
if test -n "$found"; then
	echo "self-contained: these read outside the repository:" >&2
	echo "$found" >&2
	exit 1
fi
echo "self-contained: no build file, test or benchmark reads outside the repository"
