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
