# tests/unit/red-git: the git reducers (plugin reducers-git) through the
# real dispatch, and the fixture corpus beside the project root
# (tests/fixtures).
check_PROGRAMS += tests/unit/check_red_git
TESTS += tests/unit/check_red_git
tests_unit_check_red_git_SOURCES = tests/unit/check_red_git.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_git_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)"'
tests_unit_check_red_git_LDADD = $(unit_ldadd)
