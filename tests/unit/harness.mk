# tests/unit/harness: the harness plugins on the recorded screens and
# transcripts of the real CLIs (tests/harness/fixtures).
check_PROGRAMS += tests/unit/check_harness
TESTS += tests/unit/check_harness
tests_unit_check_harness_SOURCES = tests/unit/check_harness.c
tests_unit_check_harness_CFLAGS = $(unit_cflags) \
	-DHARNESS_FIXTURES='"$(abs_top_srcdir)/tests/harness/fixtures"'
tests_unit_check_harness_LDADD = $(unit_ldadd)

check_PROGRAMS += tests/unit/check_gemini
TESTS += tests/unit/check_gemini
tests_unit_check_gemini_SOURCES = tests/unit/check_gemini.c
tests_unit_check_gemini_CFLAGS = $(unit_cflags) \
	-DHARNESS_FIXTURES='"$(abs_top_srcdir)/tests/harness/fixtures"'
tests_unit_check_gemini_LDADD = $(unit_ldadd)
