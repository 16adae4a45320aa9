# tests/unit/red-trace: the trace reducers (plugin reducers-trace) through
# the real dispatch, and the fixture corpus beside the project root
# (tests/fixtures).
check_PROGRAMS += tests/unit/check_red_trace
TESTS += tests/unit/check_red_trace
tests_unit_check_red_trace_SOURCES = tests/unit/check_red_trace.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_trace_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)"'
tests_unit_check_red_trace_LDADD = $(unit_ldadd)
