#!/bin/sh
# tests/abi/layers.sh: the core's folders are layers, and a layer
# includes only the layers below it (issue 31).  Reads the #include
# lines of every .c and .h under core/ and fails on each file of
# core/<X>/ that includes a header of core/<Y>/ when the table below
# does not let X include Y.  Headers of include/ ("aiterm/...") and the
# system's are allowed everywhere, as is the build's config.h;
# core/main.c is the top and may include anything.  A folder of core/
# that the table does not name is an error: a new folder must be placed.
# Prints each violation as file:line, the two layers and the header.
set -eu
: "${top_srcdir:?}"

# The layers, top to bottom.  One line per layer: the layer, then the
# layers it may include besides itself ("*": any).  reduce, shell and
# observe share a rank and may not include each other.
layers='
mcp      tools remote deliver agent pty reduce shell observe plugin state proc util
tools    remote deliver agent pty reduce shell observe plugin state proc util
remote   deliver agent pty reduce shell observe plugin state proc util
deliver  agent pty reduce shell observe plugin state proc util
agent    pty reduce shell observe plugin state proc util
pty      reduce shell observe plugin state proc util
reduce   plugin state proc util
shell    plugin state proc util
observe  plugin state proc util
plugin   state proc util
state    proc util
proc     util
util
'

cd "$top_srcdir"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find core include -type f \( -name '*.c' -o -name '*.h' \) | sort \
    >"$tmp/files"
echo "$layers" >"$tmp/layers"
grep '^core/' "$tmp/files" >"$tmp/sources"

# shellcheck disable=SC2046 # file names have no blanks (core/ is ours)
awk -v files="$tmp/files" -v table="$tmp/layers" '
function norm(p,    n, i, a, out, k, parts) {
	n = split(p, a, "/")
	k = 0
	for (i = 1; i <= n; i++) {
		if (a[i] == "" || a[i] == ".")
			continue
		if (a[i] == ".." && k > 0 && parts[k] != "..") {
			k--
			continue
		}
		parts[++k] = a[i]
	}
	out = ""
	for (i = 1; i <= k; i++)
		out = out (i > 1 ? "/" : "") parts[i]
	return out
}
function layer_of(path,    a) {
	split(path, a, "/")
	return a[2]
}
BEGIN {
	while ((getline line < files) > 0)
		exists[line] = 1
	while ((getline line < table) > 0) {
		if (line ~ /^[ \t]*(#|$)/)
			continue
		n = split(line, w, /[ \t]+/)
		known[w[1]] = 1
		for (i = 2; i <= n; i++)
			may[w[1], w[i]] = 1
	}
	bad = 0
}
FNR == 1 {
	file = FILENAME
	dir = file
	sub(/\/[^\/]*$/, "", dir)
	top = (file == "core/main.c")
	if (!top && file ~ /^core\/[^\/]*$/) {
		printf "%s: not in a layer (only core/main.c is)\n", file
		bad = 1
		top = 1
	}
	from = layer_of(file)
	if (!top && file ~ /^core\/[^\/]*\// && !(from in known)) {
		printf "%s: core/%s is in no layer: place it in the table " \
		    "of tests/abi/layers.sh\n", file, from
		bad = 1
		known[from] = 1
		may[from, "*"] = 1
	}
}
/^[ \t]*#[ \t]*include[ \t]*["<]/ {
	if (top)
		next
	quoted = ($0 ~ /include[ \t]*"/)
	name = $0
	sub(/^[^"<]*["<]/, "", name)
	sub(/[">].*$/, "", name)
	path = ""
	if (quoted && exists[norm(dir "/" name)])
		path = norm(dir "/" name)
	else if (exists["include/" name])
		next
	else if (exists["core/" name])
		path = "core/" name
	else if (!quoted || name == "config.h")
		next
	if (path == "") {
		printf "%s:%d: %s includes \"%s\", which is not in core/ " \
		    "or include/\n", file, FNR, from, name
		bad = 1
		next
	}
	if (path !~ /^core\//)
		next
	to = layer_of(path)
	if (to == from || may[from, "*"] || may[from, to])
		next
	printf "%s:%d: %s includes %s (%s)\n", file, FNR, from, to, name
	bad = 1
}
END { exit bad }
' $(cat "$tmp/sources") >"$tmp/out" || rc=$?
rc=${rc:-0}
if [ "$rc" != 0 ]; then
	cat "$tmp/out"
	echo "FAIL: layers: $(grep -c . "$tmp/out") lines above break the" \
	    "core's layers" >&2
	exit 1
fi
echo "layers: every include under core/ goes down the layers"
