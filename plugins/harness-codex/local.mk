# plugins/harness-codex: the Codex CLI (codex-cli).
pluginexec_LTLIBRARIES += plugins/harness-codex/harness_codex.la
plugins_harness_codex_harness_codex_la_SOURCES = plugins/harness-codex/codex.c \
	plugins/harness-codex/codex.h plugins/harness-codex/model.c
plugins_harness_codex_harness_codex_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_codex_harness_codex_la_CFLAGS = $(harness_cflags)
plugins_harness_codex_harness_codex_la_LDFLAGS = $(plugin_ldflags)
plugins_harness_codex_harness_codex_la_LIBADD = $(harness_libadd)
dist_pluginexec_DATA += plugins/harness-codex/harness-codex.yaml
PLUGIN_MANIFESTS += plugins/harness-codex/harness-codex.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/harness-codex
# receiver-codex: the Codex parent's delivery receiver (DLV-*), beside its harness.
pluginexec_LTLIBRARIES += plugins/harness-codex/receiver_codex.la
plugins_harness_codex_receiver_codex_la_SOURCES = plugins/harness-codex/receiver.c
plugins_harness_codex_receiver_codex_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_codex_receiver_codex_la_CFLAGS = $(harness_cflags)
plugins_harness_codex_receiver_codex_la_LDFLAGS = $(plugin_ldflags)
plugins_harness_codex_receiver_codex_la_LIBADD = $(harness_libadd)
dist_pluginexec_DATA += plugins/harness-codex/receiver-codex.yaml
PLUGIN_MANIFESTS += plugins/harness-codex/receiver-codex.yaml
# The aiterm run backend of this CLI (ADR 0023), beside the others in
# $(pkgdatadir)/backends.
dist_backend_DATA += plugins/harness-codex/backends/codex.yaml
# aiterm-hook-codex: the Codex parent's queue (codex-queue, spawned by
# receiver-codex) and Steer hooks (codex-post, codex-stop, which Codex
# runs; DLV-CODEX, ADR 0016), run through aiterm-hook.  A program beside
# aiterm-hook, not a plugin: it links the core.
bin_PROGRAMS += aiterm-hook-codex
aiterm_hook_codex_SOURCES = plugins/harness-codex/hook.c \
	plugins/harness-codex/hook-appserver.c plugins/harness-codex/hook-appserver.h \
	plugins/harness-codex/hook-steer.c
aiterm_hook_codex_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_hook_codex_LDADD = hook/libhook.la core/libaiterm.la $(DEP_LIBS)
