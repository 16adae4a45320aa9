# plugins/mux-tmux: the tmux multiplexer plugin.
pluginexec_LTLIBRARIES += plugins/mux-tmux/mux_tmux.la
plugins_mux_tmux_mux_tmux_la_SOURCES = \
	plugins/mux-tmux/mux-tmux.c plugins/mux-tmux/mux-tmux.h \
	plugins/mux-tmux/tmux-run.c plugins/mux-tmux/tmux-ctl.c \
	plugins/mux-tmux/tmux-create.c plugins/mux-tmux/tmux-pane.c \
	plugins/mux-tmux/tmux-conf.c plugins/mux-tmux/tmux-lock.c \
	plugins/mux-tmux/tmux-env.c plugins/mux-tmux/keys.c \
	plugins/mux-tmux/tmux-view.c
plugins_mux_tmux_mux_tmux_la_CPPFLAGS = $(plugin_cppflags) -D_GNU_SOURCE
plugins_mux_tmux_mux_tmux_la_CFLAGS = $(AM_CFLAGS)
plugins_mux_tmux_mux_tmux_la_LDFLAGS = $(plugin_ldflags)
dist_pluginexec_DATA += plugins/mux-tmux/mux-tmux.yaml
PLUGIN_MANIFESTS += plugins/mux-tmux/mux-tmux.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/mux-tmux
