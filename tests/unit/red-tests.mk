# tests/unit/red-tests: the test-runner reducers (plugin reducers-tests)
# through the real dispatch, the rtk pytest pairs and the fixture corpus
# in tests/fixtures.
check_PROGRAMS += tests/unit/check_red_tests
TESTS += tests/unit/check_red_tests
tests_unit_check_red_tests_SOURCES = tests/unit/check_red_tests.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_tests_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)"'
tests_unit_check_red_tests_LDADD = $(unit_ldadd)
