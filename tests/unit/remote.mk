# tests/unit/remote: a relayed receipt's waiter through ssh (REM-RELAY,
# DLV-WAIT, ADR 0026).
check_PROGRAMS += tests/unit/check_remote
TESTS += tests/unit/check_remote
tests_unit_check_remote_SOURCES = tests/unit/check_remote.c
tests_unit_check_remote_CFLAGS = $(unit_cflags)
tests_unit_check_remote_LDADD = $(unit_ldadd)
