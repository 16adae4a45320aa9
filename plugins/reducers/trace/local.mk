# plugins/reducers/trace: the trace reducers (valgrind, strace, ltrace,
# tcpdump; issue 35).
pluginexec_LTLIBRARIES += plugins/reducers/trace/reducers_trace.la
plugins_reducers_trace_reducers_trace_la_SOURCES = \
	plugins/reducers/trace/family.c plugins/reducers/trace/trace.h \
	plugins/reducers/trace/tally.c plugins/reducers/trace/shapes.c \
	plugins/reducers/trace/valgrind.c \
	plugins/reducers/trace/calls.c plugins/reducers/trace/calls.h \
	plugins/reducers/trace/strace.c \
	plugins/reducers/trace/ltrace.c \
	plugins/reducers/trace/tcpdump.c
plugins_reducers_trace_reducers_trace_la_CPPFLAGS = $(reducer_cppflags)
plugins_reducers_trace_reducers_trace_la_CFLAGS = $(AM_CFLAGS)
plugins_reducers_trace_reducers_trace_la_LDFLAGS = $(plugin_ldflags)
plugins_reducers_trace_reducers_trace_la_LIBADD = \
	plugins/reducers/lib/libredlib.la
dist_pluginexec_DATA += plugins/reducers/trace/reducers-trace.yaml
PLUGIN_MANIFESTS += plugins/reducers/trace/reducers-trace.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/reducers/trace
