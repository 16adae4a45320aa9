# plugins/harness-gemini: the Gemini CLI (gemini-cli), built as a third
# party builds a harness: the installed <aiterm/plugin.h> alone (no
# harness-lib, no jansson; issue 39).
pluginexec_LTLIBRARIES += plugins/harness-gemini/harness_gemini.la
plugins_harness_gemini_harness_gemini_la_SOURCES = \
	plugins/harness-gemini/gemini.c plugins/harness-gemini/gemini.h \
	plugins/harness-gemini/screen.c plugins/harness-gemini/chat.c \
	plugins/harness-gemini/json.c plugins/harness-gemini/json.h
plugins_harness_gemini_harness_gemini_la_CPPFLAGS = $(plugin_cppflags) \
	-D_GNU_SOURCE
plugins_harness_gemini_harness_gemini_la_CFLAGS = $(AM_CFLAGS)
plugins_harness_gemini_harness_gemini_la_LDFLAGS = $(plugin_ldflags)
dist_pluginexec_DATA += plugins/harness-gemini/harness-gemini.yaml
PLUGIN_MANIFESTS += plugins/harness-gemini/harness-gemini.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/harness-gemini
