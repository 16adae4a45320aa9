# tests/unit/logread: byte ranges, line ranges and tails of output logs,
# up to a 3 GB sparse log.
check_PROGRAMS += tests/unit/check_logread
TESTS += tests/unit/check_logread
tests_unit_check_logread_SOURCES = tests/unit/check_logread.c
tests_unit_check_logread_CFLAGS = $(unit_cflags)
tests_unit_check_logread_LDADD = $(unit_ldadd)
