# tests/unit/red-props: RED-FAITHFUL as properties over every reducer a
# command reaches (generated and mutated outputs), and reduce/shape.c.
check_PROGRAMS += tests/unit/check_red_props
TESTS += tests/unit/check_red_props
tests_unit_check_red_props_SOURCES = tests/unit/check_red_props.c \
	tests/unit/redtest.c tests/unit/redtest.h
tests_unit_check_red_props_CFLAGS = $(unit_cflags)
tests_unit_check_red_props_LDADD = $(unit_ldadd)
