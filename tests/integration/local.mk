# tests/integration
include $(srcdir)/tests/integration/mux.mk

# RED-CMD for third parties: an out-of-tree reducer against the installed
# aiterm-plugin.pc, loaded and run by the installed server.
TESTS += tests/integration/oot-plugin.sh tests/integration/oot-harness.sh \
	tests/integration/oot-sdk.sh
EXTRA_DIST += tests/integration/oot-plugin.sh tests/integration/oot-harness.sh \
	tests/integration/oot-install.sh tests/integration/oot-sdk.sh
