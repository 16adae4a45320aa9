# tests/unit/redcmd: RED-CMD command words and reducer choice.
check_PROGRAMS += tests/unit/check_redcmd
TESTS += tests/unit/check_redcmd
tests_unit_check_redcmd_SOURCES = tests/unit/check_redcmd.c
tests_unit_check_redcmd_CFLAGS = $(unit_cflags)
tests_unit_check_redcmd_LDADD = $(unit_ldadd)
