# plugins/reducers/build: the build reducers (make/ninja, C/C++ and rustc
# diagnostics, tsc), one file each.
pluginexec_LTLIBRARIES += plugins/reducers/build/reducers_build.la
plugins_reducers_build_reducers_build_la_SOURCES = \
	plugins/reducers/build/family.c plugins/reducers/build/build.h \
	plugins/reducers/build/diag.c \
	plugins/reducers/build/tsc.c \
	plugins/reducers/build/rustc.c
plugins_reducers_build_reducers_build_la_CPPFLAGS = $(reducer_cppflags)
plugins_reducers_build_reducers_build_la_CFLAGS = $(AM_CFLAGS)
plugins_reducers_build_reducers_build_la_LDFLAGS = $(plugin_ldflags)
plugins_reducers_build_reducers_build_la_LIBADD = \
	plugins/reducers/lib/libredlib.la
dist_pluginexec_DATA += plugins/reducers/build/reducers-build.yaml
PLUGIN_MANIFESTS += plugins/reducers/build/reducers-build.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/reducers/build
