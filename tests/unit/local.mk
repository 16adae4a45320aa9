# Unit suites (Check): one tests/unit/<unit>.mk per suite.
include $(srcdir)/tests/unit/state.mk
include $(srcdir)/tests/unit/manifest.mk
include $(srcdir)/tests/unit/shell.mk
include $(srcdir)/tests/unit/mcp.mk
include $(srcdir)/tests/unit/loader.mk
include $(srcdir)/tests/unit/logread.mk
include $(srcdir)/tests/unit/reduce.mk
include $(srcdir)/tests/unit/redcmd.mk
include $(srcdir)/tests/unit/red-corpus.mk
include $(srcdir)/tests/unit/red-git.mk
include $(srcdir)/tests/unit/red-files.mk
include $(srcdir)/tests/unit/red-tests.mk
include $(srcdir)/tests/unit/red-build.mk
include $(srcdir)/tests/unit/red-pkg.mk
include $(srcdir)/tests/unit/red-sys.mk
include $(srcdir)/tests/unit/observe.mk
include $(srcdir)/tests/unit/harness.mk
