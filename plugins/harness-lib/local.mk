# plugins/harness-lib: helpers every harness plugin links in (screens,
# JSONL transcripts, versions); not a plugin itself.  Harness plugins see
# the ABI header and this folder, never core/.
harness_cppflags = $(plugin_cppflags) -I$(top_srcdir)/plugins/harness-lib \
	-D_GNU_SOURCE
harness_cflags = $(AM_CFLAGS) $(JANSSON_CFLAGS)
harness_libadd = plugins/harness-lib/libhlib.la $(JANSSON_LIBS)

noinst_LTLIBRARIES += plugins/harness-lib/libhlib.la
plugins_harness_lib_libhlib_la_SOURCES = \
	plugins/harness-lib/hlib.c plugins/harness-lib/hlib.h \
	plugins/harness-lib/hlib-receiver.c plugins/harness-lib/hlib-block.c \
	plugins/harness-lib/hlib-model.c
plugins_harness_lib_libhlib_la_CPPFLAGS = $(harness_cppflags)
plugins_harness_lib_libhlib_la_CFLAGS = $(harness_cflags)
