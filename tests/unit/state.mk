# tests/unit/state: state root, atomic files, owner locks, process start ids.
check_PROGRAMS += tests/unit/check_state
TESTS += tests/unit/check_state
tests_unit_check_state_SOURCES = tests/unit/check_state.c
tests_unit_check_state_CFLAGS = $(unit_cflags)
tests_unit_check_state_LDADD = $(unit_ldadd)
