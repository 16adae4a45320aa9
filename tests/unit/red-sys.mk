# tests/unit/red-sys: the system reducers (plugin reducers-sys) through
# the real dispatch, and the fixture corpus beside the project root
# (tests/fixtures).
check_PROGRAMS += tests/unit/check_red_sys
TESTS += tests/unit/check_red_sys
tests_unit_check_red_sys_SOURCES = tests/unit/check_red_sys.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_sys_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)"'
tests_unit_check_red_sys_LDADD = $(unit_ldadd)
