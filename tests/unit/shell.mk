# tests/unit/check_shell: core/shell builders and parsers, with round trips
# through real dash, bash, zsh and fish (each skipped when not installed).
check_PROGRAMS += tests/unit/check_shell
TESTS += tests/unit/check_shell
tests_unit_check_shell_SOURCES = tests/unit/check_shell.c
tests_unit_check_shell_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSHELL_INTEGRATION_DIR='"$(abs_top_srcdir)/core/shell/integration"'
tests_unit_check_shell_CFLAGS = $(unit_cflags)
tests_unit_check_shell_LDADD = $(unit_ldadd)
