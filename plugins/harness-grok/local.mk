# plugins/harness-grok: the Grok Build CLI (grok-cli).
pluginexec_LTLIBRARIES += plugins/harness-grok/harness_grok.la
plugins_harness_grok_harness_grok_la_SOURCES = plugins/harness-grok/grok.c \
	plugins/harness-grok/grok.h plugins/harness-grok/screen.c \
	plugins/harness-grok/model.c
plugins_harness_grok_harness_grok_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_grok_harness_grok_la_CFLAGS = $(harness_cflags)
plugins_harness_grok_harness_grok_la_LDFLAGS = $(plugin_ldflags)
plugins_harness_grok_harness_grok_la_LIBADD = $(harness_libadd)
dist_pluginexec_DATA += plugins/harness-grok/harness-grok.yaml
PLUGIN_MANIFESTS += plugins/harness-grok/harness-grok.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/harness-grok
