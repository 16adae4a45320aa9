# tests/integration
include $(srcdir)/tests/integration/mux.mk
