# libaiterm: the core, as a convenience library linked into aiterm-mcp and
# into the unit tests.
noinst_LTLIBRARIES += core/libaiterm.la
core_libaiterm_la_SOURCES =
core_libaiterm_la_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
core_libaiterm_la_LIBADD = $(DEP_LIBS)

include $(srcdir)/core/util/local.mk
include $(srcdir)/core/state/local.mk
include $(srcdir)/core/proc/local.mk
include $(srcdir)/core/observe/local.mk
include $(srcdir)/core/plugin/local.mk
include $(srcdir)/core/mcp/local.mk
include $(srcdir)/core/tools/local.mk
include $(srcdir)/core/shell/local.mk
include $(srcdir)/core/pty/local.mk
include $(srcdir)/core/reduce/local.mk
include $(srcdir)/core/agent/local.mk
include $(srcdir)/core/deliver/local.mk
include $(srcdir)/core/remote/local.mk

bin_PROGRAMS += aiterm-mcp
aiterm_mcp_SOURCES = core/main.c
aiterm_mcp_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_mcp_LDADD = core/libaiterm.la $(DEP_LIBS)
# No -export-dynamic: plugins reach the core only through the host table
# (include/aiterm/plugin.h), never through the program's symbols (issue 31).
