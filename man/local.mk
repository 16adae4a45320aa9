# man/: the manual pages, mdoc source (issue 19).  Installed by make
# install; checked by tests/man (mandoc -Tlint, and against the code).
dist_man_MANS = man/aiterm.1 man/aiterm-mcp.1 man/aiterm-setup.1 \
	man/aiterm-wait.1 man/aiterm-hook.1 man/aiterm-askpass.1 \
	man/aiterm-manifest.5 man/aiterm-plugin.7
TESTS += tests/man/lint.sh tests/man/options.sh
EXTRA_DIST += tests/man/lint.sh tests/man/options.sh tests/man/render.sh
