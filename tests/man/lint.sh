#!/bin/sh
# tests/man/lint.sh: every manual page passes mandoc -Tlint with no
# warning or error (issue 19).  A missing mandoc is a failure, not a skip.
set -eu
: "${top_srcdir:?}"
. "$top_srcdir/tests/man/render.sh"
man_need_mandoc
bad=0
n=0
for page in $(man_pages); do
	n=$((n + 1))
	out=$(mandoc -Tlint -W warning "$page" 2>&1) || {
		echo "FAIL: ${page##*/}:" >&2
		echo "$out" >&2
		bad=1
		continue
	}
	echo "ok: ${page##*/}: no mandoc warning"
done
test "$bad" -eq 0 || exit 1
echo "lint: $n pages, no warning"
