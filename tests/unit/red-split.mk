# tests/unit/red-split: the passes that read a long text with two threads
# (strip, repeats, head and tail's shapes) give what one thread gives.
check_PROGRAMS += tests/unit/check_red_split
TESTS += tests/unit/check_red_split
tests_unit_check_red_split_SOURCES = tests/unit/check_red_split.c \
	tests/unit/rng.h
tests_unit_check_red_split_CFLAGS = $(unit_cflags)
tests_unit_check_red_split_LDADD = $(unit_ldadd)
