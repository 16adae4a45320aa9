# tests/mcp: the MCP black-box suite (official SDK client + raw wire).
# run.sh installs the pinned SDK (package-lock.json) with npm ci into
# $(top_builddir)/tests/mcp/node_modules and runs node --test.
TESTS += tests/mcp/run.sh
EXTRA_DIST += tests/mcp/run.sh tests/npm-ci.sh tests/mcp/package.json \
	tests/mcp/package-lock.json \
	tests/mcp/lib/server.cjs tests/mcp/lib/sdk.cjs \
	tests/mcp/sdk.test.cjs tests/mcp/wire.test.cjs \
	tests/mcp/lib/pty.cjs tests/mcp/lib/sshd.cjs tests/mcp/lib/textview.cjs tests/mcp/lib/views.cjs \
	tests/mcp/lib/skip.cjs tests/mcp/lib/run.cjs tests/mcp/lib/cursor-rig.cjs \
	tests/mcp/pty.test.cjs tests/mcp/pty-persist.test.cjs \
	tests/mcp/pty-scale.test.cjs tests/mcp/pty-ssh.test.cjs \
	tests/mcp/pty-list-view.test.cjs \
	tests/mcp/pty-secret.test.cjs tests/mcp/pty-secret-page.test.cjs \
	tests/mcp/lib/chromium.cjs tests/mcp/lib/secrets.cjs \
	tests/mcp/pty-repl.test.cjs \
	tests/mcp/pty-nested-exact.test.cjs \
	tests/mcp/remote.test.cjs tests/mcp/remote-auth.test.cjs \
	tests/mcp/remote-shell.test.cjs tests/mcp/remote-start.test.cjs \
	tests/mcp/lib/remote.cjs \
	tests/mcp/pty-errors.test.cjs tests/mcp/pty-observe.test.cjs \
	tests/mcp/faults.test.cjs tests/mcp/security.test.cjs \
	tests/mcp/soak.test.cjs tests/mcp/model-view.test.cjs \
	tests/mcp/mux-stall.test.cjs \
	tests/mcp/cli.test.cjs tests/mcp/cli-run.test.cjs tests/mcp/lib/cli.cjs \
	tests/mcp/multi-server.test.cjs tests/mcp/diag-errors.test.cjs \
	tests/mcp/state-format.test.cjs tests/mcp/upgrade.test.cjs \
	tests/mcp/delivery-expiry.test.cjs \
	tests/mcp/delivery-handover.test.cjs tests/mcp/delivery-remote.test.cjs \
	tests/mcp/delivery-codex-steer.test.cjs \
	tests/mcp/pty-concurrent.test.cjs \
	tests/mcp/schema-both.test.cjs \
	tests/mcp/pane-env.test.cjs tests/mcp/agent-images.test.cjs \
	tests/mcp/pty-close.test.cjs \
	tests/mcp/pty-tasks.test.cjs \
	tests/mcp/setup-files.test.cjs \
	tests/mcp/integral.test.cjs \
	tests/mcp/sockpath.test.cjs \
	tests/mcp/agent-launch.test.cjs
# run.sh keeps node's TAP output and the skips it counted from it.
CLEANFILES += tests/mcp/run.tap tests/mcp/run.skips

# node_modules is a directory, which CLEANFILES (rm -f) cannot remove; it
# survives make clean (no new download) and goes with make distclean.  In a
# VPATH build the manifest copies go too (never the source files).
distclean-local: distclean-mcp
distclean-mcp:
	-rm -rf tests/mcp/node_modules
	-if test "$(srcdir)" != "."; then \
	  rm -f tests/mcp/package.json tests/mcp/package-lock.json; fi
.PHONY: distclean-mcp
