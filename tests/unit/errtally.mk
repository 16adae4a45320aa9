# tests/unit/errtally: the runtime error aggregate (OPS-DIAG, ADR 0021).
check_PROGRAMS += tests/unit/check_errtally
TESTS += tests/unit/check_errtally
tests_unit_check_errtally_SOURCES = tests/unit/check_errtally.c
tests_unit_check_errtally_CFLAGS = $(unit_cflags)
tests_unit_check_errtally_LDADD = $(unit_ldadd)
