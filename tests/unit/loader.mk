check_PROGRAMS += tests/unit/check_loader
TESTS += tests/unit/check_loader
tests_unit_check_loader_SOURCES = tests/unit/check_loader.c
tests_unit_check_loader_CFLAGS = $(unit_cflags)
tests_unit_check_loader_LDADD = $(unit_ldadd)
