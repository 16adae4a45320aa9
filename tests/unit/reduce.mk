# tests/unit/reduce: the generic reducer stages, and the fixture corpus
# in tests/fixtures/reduce.
check_PROGRAMS += tests/unit/check_reduce
TESTS += tests/unit/check_reduce
tests_unit_check_reduce_SOURCES = tests/unit/check_reduce.c tests/unit/rng.h
tests_unit_check_reduce_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)/reduce"'
tests_unit_check_reduce_LDADD = $(unit_ldadd)
