# tests/unit/manifest
check_PROGRAMS += tests/unit/check_manifest
TESTS += tests/unit/check_manifest
tests_unit_check_manifest_SOURCES = tests/unit/check_manifest.c
tests_unit_check_manifest_CFLAGS = $(unit_cflags) -DMANIFEST_FIXTURES='"$(abs_top_srcdir)/tests/unit/manifests"'
tests_unit_check_manifest_LDADD = $(unit_ldadd)
EXTRA_DIST += tests/unit/manifests
