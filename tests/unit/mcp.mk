check_PROGRAMS += tests/unit/check_mcp
TESTS += tests/unit/check_mcp
tests_unit_check_mcp_SOURCES = tests/unit/check_mcp.c
tests_unit_check_mcp_CFLAGS = $(unit_cflags)
tests_unit_check_mcp_LDADD = $(unit_ldadd)
