# plugins/harness-claude: Claude Code (claude-code).
pluginexec_LTLIBRARIES += plugins/harness-claude/harness_claude.la
plugins_harness_claude_harness_claude_la_SOURCES = \
	plugins/harness-claude/claude.c plugins/harness-claude/claude.h \
	plugins/harness-claude/screen.c plugins/harness-claude/transcript.c \
	plugins/harness-claude/model.c
plugins_harness_claude_harness_claude_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_claude_harness_claude_la_CFLAGS = $(harness_cflags)
plugins_harness_claude_harness_claude_la_LDFLAGS = $(plugin_ldflags)
plugins_harness_claude_harness_claude_la_LIBADD = $(harness_libadd)
dist_pluginexec_DATA += plugins/harness-claude/harness-claude.yaml
PLUGIN_MANIFESTS += plugins/harness-claude/harness-claude.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/harness-claude
# receiver-claude: the Claude Code parent's delivery receiver (DLV-*), beside its harness.
pluginexec_LTLIBRARIES += plugins/harness-claude/receiver_claude.la
plugins_harness_claude_receiver_claude_la_SOURCES = plugins/harness-claude/receiver.c
plugins_harness_claude_receiver_claude_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_claude_receiver_claude_la_CFLAGS = $(harness_cflags)
plugins_harness_claude_receiver_claude_la_LDFLAGS = $(plugin_ldflags)
plugins_harness_claude_receiver_claude_la_LIBADD = $(harness_libadd)
dist_pluginexec_DATA += plugins/harness-claude/receiver-claude.yaml
PLUGIN_MANIFESTS += plugins/harness-claude/receiver-claude.yaml
# The aiterm run backend of this CLI (ADR 0023), beside the others in
# $(pkgdatadir)/backends.
dist_backend_DATA += plugins/harness-claude/backends/claude.yaml
# aiterm-hook-claude: Claude Code's hooks (claude-pre, claude-post, claude-end;
# DLV-CLAUDE, ADR 0015), run through aiterm-hook.  A program
# beside aiterm-hook, not a plugin: it links the core.
bin_PROGRAMS += aiterm-hook-claude
aiterm_hook_claude_SOURCES = plugins/harness-claude/hook.c \
	plugins/harness-claude/parent-hooks.h
aiterm_hook_claude_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_hook_claude_LDADD = hook/libhook.la core/libaiterm.la $(DEP_LIBS)
