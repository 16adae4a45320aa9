# tests/unit/logpipe: the output log's writer on a full log (issue 17).
check_PROGRAMS += tests/unit/check_logpipe
TESTS += tests/unit/check_logpipe
tests_unit_check_logpipe_SOURCES = tests/unit/check_logpipe.c
tests_unit_check_logpipe_CFLAGS = $(unit_cflags)
tests_unit_check_logpipe_LDADD = $(unit_ldadd)
