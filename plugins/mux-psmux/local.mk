# plugins/mux-psmux: the psmux multiplexer plugin for native Windows
# (ADR 0024).  The core does not build on Windows yet, so here it is
# built for the tests only (tests/integration/check_mux_psmux points it
# at tmux), never installed or packaged; tests/integration/psmux-mingw.sh
# cross-compiles it to a Windows DLL with mingw-w64.
check_LTLIBRARIES += plugins/mux-psmux/mux_psmux.la
plugins_mux_psmux_mux_psmux_la_SOURCES = plugins/mux-psmux/mux-psmux.c \
	plugins/mux-psmux/mux-psmux.h plugins/mux-psmux/ps-cmd.c \
	plugins/mux-psmux/ps-conf.c plugins/mux-psmux/ps-pane.c
plugins_mux_psmux_mux_psmux_la_CPPFLAGS = $(plugin_cppflags)
plugins_mux_psmux_mux_psmux_la_CFLAGS = $(AM_CFLAGS)
plugins_mux_psmux_mux_psmux_la_LDFLAGS = $(test_plugin_ldflags)
EXTRA_DIST += plugins/mux-psmux/mux-psmux.yaml
PLUGIN_MANIFESTS += plugins/mux-psmux/mux-psmux.yaml
