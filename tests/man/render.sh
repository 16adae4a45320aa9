# tests/man/render.sh: sourced by the man page tests (POSIX sh).
#
#   man_pages            the pages, one a line (paths in the source tree)
#   man_render PAGE      the page as plain text, on stdout
#   man_need_mandoc      fail, loudly, when mandoc is not installed: these
#                        checks are never skipped (./quickstart installs it)
man_pages() {
	for p in aiterm.1 aiterm-mcp.1 aiterm-setup.1 aiterm-wait.1 \
	    aiterm-hook.1 aiterm-askpass.1 \
	    aiterm-manifest.5 aiterm-plugin.7; do
		echo "$top_srcdir/man/$p"
	done
}

man_need_mandoc() {
	if ! command -v mandoc >/dev/null 2>&1; then
		echo "FAIL: mandoc is not installed, so the manual pages cannot" \
		    "be checked (apt-get install mandoc, or run ./quickstart check)" >&2
		exit 1
	fi
}

# Plain text: the overstrike (X BS X, _ BS X) taken out, and lines wide
# enough that no option is split over two.
man_render() {
	bs=$(printf '\b')
	mandoc -Tascii -Owidth=400 "$1" | sed "s/.$bs//g"
}
