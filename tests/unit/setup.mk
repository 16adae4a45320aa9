# tests/unit/setup: aiterm-setup's byte-minimal JSON edit (SET-RUN) on
# layouts a person writes by hand.
check_PROGRAMS += tests/unit/check_setup_jsonedit
TESTS += tests/unit/check_setup_jsonedit
tests_unit_check_setup_jsonedit_SOURCES = tests/unit/check_setup_jsonedit.c \
	setup/jsonedit.c
tests_unit_check_setup_jsonedit_CPPFLAGS = $(AM_CPPFLAGS) -I$(top_srcdir)/setup
tests_unit_check_setup_jsonedit_CFLAGS = $(unit_cflags)
tests_unit_check_setup_jsonedit_LDADD = $(unit_ldadd)
