# tests/unit/red-files: the file-listing reducers (plugin reducers-files)
# through the real dispatch, and the fixture corpus beside the project
# (tests/fixtures).
check_PROGRAMS += tests/unit/check_red_files
TESTS += tests/unit/check_red_files
tests_unit_check_red_files_SOURCES = tests/unit/check_red_files.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_files_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)"'
tests_unit_check_red_files_LDADD = $(unit_ldadd)
