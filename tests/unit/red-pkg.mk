# tests/unit/red-pkg: the package-manager reducers (plugin reducers-pkg)
# through the real dispatch, and the fixture corpus beside the project
# (tests/fixtures).
check_PROGRAMS += tests/unit/check_red_pkg
TESTS += tests/unit/check_red_pkg
tests_unit_check_red_pkg_SOURCES = tests/unit/check_red_pkg.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_pkg_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)"'
tests_unit_check_red_pkg_LDADD = $(unit_ldadd)
