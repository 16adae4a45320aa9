# plugins/reducers: the command reducers (RED-CMD), one module per family
# so that each ships and versions on its own.  Each family folder holds
# its manifest (which commands each reducer claims), a descriptor file
# with the reducer table, and one file per reducer.  lib/ is a small
# convenience library of text helpers linked into every family module; it
# uses only the plugin ABI header.
noinst_LTLIBRARIES += plugins/reducers/lib/libredlib.la
plugins_reducers_lib_libredlib_la_SOURCES = \
	plugins/reducers/lib/redlib.c plugins/reducers/lib/redlib.h
plugins_reducers_lib_libredlib_la_CPPFLAGS = $(reducer_cppflags)
plugins_reducers_lib_libredlib_la_CFLAGS = $(AM_CFLAGS)

# CPPFLAGS for family modules: the ABI header and lib/, never core/.
reducer_cppflags = $(plugin_cppflags) -I$(top_srcdir)/plugins/reducers/lib \
	-D_GNU_SOURCE

include $(srcdir)/plugins/reducers/git/local.mk
include $(srcdir)/plugins/reducers/files/local.mk
include $(srcdir)/plugins/reducers/tests/local.mk
include $(srcdir)/plugins/reducers/build/local.mk
include $(srcdir)/plugins/reducers/pkg/local.mk
include $(srcdir)/plugins/reducers/sys/local.mk
include $(srcdir)/plugins/reducers/trace/local.mk
