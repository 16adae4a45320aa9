# tests/clients: aiterm-mcp under the real Claude Code and Codex CLIs, each
# against a scripted mock model on 127.0.0.1 (what the model receives: ADR
# 0006).  Not part of make check (it installs ~700 MB of npm packages);
# ./quickstart check runs `make check-clients`.
EXTRA_DIST += tests/clients/run.sh tests/clients/package.json \
	tests/clients/package-lock.json tests/clients/model-view.test.cjs \
	tests/clients/lib/claude.cjs tests/clients/lib/codex.cjs \
	tests/clients/lib/common.cjs tests/clients/lib/mock-anthropic.cjs \
	tests/clients/lib/mock-openai.cjs tests/clients/lib/script.cjs \
	tests/clients/lib/tee.cjs tests/clients/setup.test.cjs \
	tests/clients/stdin.test.cjs tests/clients/tasks.test.cjs tests/suite-files.sh \
	tests/clients/secrets.test.cjs

check-clients: all
	$(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/clients/run.sh </dev/null

distclean-local: distclean-clients
distclean-clients:
	-rm -rf tests/clients/node_modules
	-if test "$(srcdir)" != "."; then \
	  rm -f tests/clients/package.json tests/clients/package-lock.json; fi
.PHONY: check-clients distclean-clients
