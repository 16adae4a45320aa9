# tests/unit/check_observe: PTY-OBSERVE's launch rules on synthetic process
# tables, the activity cursor, token hints, SHA-256, and the process table
# on real processes the test starts.
check_PROGRAMS += tests/unit/check_observe
TESTS += tests/unit/check_observe
tests_unit_check_observe_SOURCES = tests/unit/check_observe.c
tests_unit_check_observe_CFLAGS = $(unit_cflags)
tests_unit_check_observe_LDADD = $(unit_ldadd)
