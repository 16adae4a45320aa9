# tests/integration/mux: the mux-tmux plugin on a real, private tmux.  The
# plugin's files but mux-tmux.c and keys.c are also compiled in, for the
# "Quoting" unit cases (quoting, argv, the list and pane_info parsers,
# versions); tmux-ctl.c only because tmux-run.c calls it, and tmux-lock.c
# because tmux-ctl.c does.
check_PROGRAMS += tests/integration/check_mux_tmux
TESTS += tests/integration/check_mux_tmux
tests_integration_check_mux_tmux_SOURCES = tests/integration/check_mux_tmux.c \
	plugins/mux-tmux/tmux-run.c plugins/mux-tmux/tmux-ctl.c \
	plugins/mux-tmux/tmux-create.c plugins/mux-tmux/tmux-pane.c \
	plugins/mux-tmux/tmux-conf.c plugins/mux-tmux/tmux-lock.c \
	plugins/mux-tmux/mux-tmux.h
tests_integration_check_mux_tmux_CFLAGS = $(unit_cflags)
tests_integration_check_mux_tmux_LDADD = $(unit_ldadd)

# tests/integration/check_mux_psmux: the mux-psmux plugin's command layer
# on a real tmux standing in for psmux (ADR 0024; what that covers and
# what it does not is at the top of the file).  psmux-mingw.sh, run by
# ./quickstart check, cross-compiles the plugin for Windows.
check_PROGRAMS += tests/integration/check_mux_psmux
TESTS += tests/integration/check_mux_psmux
tests_integration_check_mux_psmux_SOURCES = tests/integration/check_mux_psmux.c
tests_integration_check_mux_psmux_CFLAGS = $(unit_cflags)
tests_integration_check_mux_psmux_LDADD = $(unit_ldadd)
EXTRA_DIST += tests/integration/psmux-mingw.sh
