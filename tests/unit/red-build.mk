# tests/unit/red-build: the build reducers (plugin reducers-build) through
# the real dispatch, and the fixture corpus beside the project root
# (tests/fixtures).
check_PROGRAMS += tests/unit/check_red_build
TESTS += tests/unit/check_red_build
tests_unit_check_red_build_SOURCES = tests/unit/check_red_build.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_build_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)"'
tests_unit_check_red_build_LDADD = $(unit_ldadd)
