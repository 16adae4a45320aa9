# plugins/harness-cursor: the Cursor CLI agent (cursor-cli; a stand-in in the tests).
pluginexec_LTLIBRARIES += plugins/harness-cursor/harness_cursor.la
plugins_harness_cursor_harness_cursor_la_SOURCES = plugins/harness-cursor/cursor.c \
	plugins/harness-cursor/cursor.h plugins/harness-cursor/model.c
plugins_harness_cursor_harness_cursor_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_cursor_harness_cursor_la_CFLAGS = $(harness_cflags)
plugins_harness_cursor_harness_cursor_la_LDFLAGS = $(plugin_ldflags)
plugins_harness_cursor_harness_cursor_la_LIBADD = $(harness_libadd)
dist_pluginexec_DATA += plugins/harness-cursor/harness-cursor.yaml
PLUGIN_MANIFESTS += plugins/harness-cursor/harness-cursor.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/harness-cursor
# receiver-cursor: the Cursor parent's delivery receiver (DLV-*), beside its harness.
pluginexec_LTLIBRARIES += plugins/harness-cursor/receiver_cursor.la
plugins_harness_cursor_receiver_cursor_la_SOURCES = plugins/harness-cursor/receiver.c
plugins_harness_cursor_receiver_cursor_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_cursor_receiver_cursor_la_CFLAGS = $(harness_cflags)
plugins_harness_cursor_receiver_cursor_la_LDFLAGS = $(plugin_ldflags)
plugins_harness_cursor_receiver_cursor_la_LIBADD = $(harness_libadd)
dist_pluginexec_DATA += plugins/harness-cursor/receiver-cursor.yaml
PLUGIN_MANIFESTS += plugins/harness-cursor/receiver-cursor.yaml
# aiterm-hook-cursor: Cursor's hooks (cursor-after, cursor-post; DLV-CURSOR,
# ADR 0017), run through aiterm-hook.  A program
# beside aiterm-hook, not a plugin: it links the core.
bin_PROGRAMS += aiterm-hook-cursor
aiterm_hook_cursor_SOURCES = plugins/harness-cursor/hook.c
aiterm_hook_cursor_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_hook_cursor_LDADD = hook/libhook.la core/libaiterm.la $(DEP_LIBS)
