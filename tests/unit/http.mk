# tests/unit/http: the secret page's HTTP reader and password prompts (issue 36, ADR 0037).
check_PROGRAMS += tests/unit/check_http
TESTS += tests/unit/check_http
tests_unit_check_http_SOURCES = tests/unit/check_http.c
tests_unit_check_http_CFLAGS = $(unit_cflags)
tests_unit_check_http_LDADD = $(unit_ldadd)
