# Tests.  Every test makes its own state root, tmux socket and HOME; the
# plugin path points at the build tree only.
TEST_EXTENSIONS = .sh
SH_LOG_COMPILER = $(SHELL)
AM_TESTS_ENVIRONMENT = \
	top_srcdir='$(abs_top_srcdir)'; export top_srcdir; \
	top_builddir='$(abs_top_builddir)'; export top_builddir; \
	AITERM_PLUGIN_PATH=$$(echo '$(TEST_PLUGIN_PATH)' | tr -s ' ' ':' | sed 's/^://;s/:$$//'); export AITERM_PLUGIN_PATH; \
	AITERM_SYSTEM_PLUGINDIR=; export AITERM_SYSTEM_PLUGINDIR; \
	AITERM_SHELL_DIR='$(abs_top_srcdir)/core/shell/integration'; export AITERM_SHELL_DIR; \
	CK_DEFAULT_TIMEOUT=60; export CK_DEFAULT_TIMEOUT;


unit_cflags = $(AM_CFLAGS) $(DEP_CFLAGS) $(CHECK_CFLAGS)
unit_ldadd = core/libaiterm.la $(DEP_LIBS) $(CHECK_LIBS)

# Nothing the build, tests or benchmarks use lies outside the repository.
TESTS += tests/self-contained.sh
EXTRA_DIST += tests/self-contained.sh

# What a runner does with the tests it skipped (AITERM_ALLOW_SKIPS).
EXTRA_DIST += tests/skips.sh

include $(srcdir)/tests/unit/local.mk
include $(srcdir)/tests/plugins/local.mk
include $(srcdir)/tests/mcp/local.mk
include $(srcdir)/tests/clients/local.mk
include $(srcdir)/tests/harness/local.mk
include $(srcdir)/tests/integration/local.mk
include $(srcdir)/tests/pkg/local.mk
include $(srcdir)/tests/abi/local.mk
include $(srcdir)/tests/sdk/local.mk
