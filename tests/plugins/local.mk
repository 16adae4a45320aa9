# Test-only plugins for the loader suite: one source, one variant per
# case, all in tests/plugins/ beside their manifests (never installed).
# Built like real plugins: the ABI header alone, no symbol left undefined.
check_LTLIBRARIES += tests/plugins/good_mux.la
tests_plugins_good_mux_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_good_mux_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_MUX -DTP_NAME=\"good-mux\"
tests_plugins_good_mux_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/good-mux.yaml
EXTRA_DIST += tests/plugins/good-mux.yaml

check_LTLIBRARIES += tests/plugins/good_harness.la
tests_plugins_good_harness_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_good_harness_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_HARNESS -DTP_NAME=\"good-harness\"
tests_plugins_good_harness_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/good-harness.yaml
EXTRA_DIST += tests/plugins/good-harness.yaml

check_LTLIBRARIES += tests/plugins/good_reducer.la
tests_plugins_good_reducer_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_good_reducer_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_REDUCER -DTP_NAME=\"good-reducer\"
tests_plugins_good_reducer_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/good-reducer.yaml
EXTRA_DIST += tests/plugins/good-reducer.yaml

check_LTLIBRARIES += tests/plugins/good_receiver.la
tests_plugins_good_receiver_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_good_receiver_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_RECEIVER -DTP_NAME=\"good-receiver\"
tests_plugins_good_receiver_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/good-receiver.yaml
EXTRA_DIST += tests/plugins/good-receiver.yaml

check_LTLIBRARIES += tests/plugins/old_receiver.la
tests_plugins_old_receiver_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_old_receiver_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_RECEIVER -DTP_NAME=\"old-receiver\" -DTP_ABI_MINOR=0
tests_plugins_old_receiver_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/old-receiver.yaml
EXTRA_DIST += tests/plugins/old-receiver.yaml

check_LTLIBRARIES += tests/plugins/abi_too_new.la
tests_plugins_abi_too_new_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_abi_too_new_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_MUX -DTP_NAME=\"abi-too-new\" -DTP_ABI_MINOR=99
tests_plugins_abi_too_new_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/abi-too-new.yaml
EXTRA_DIST += tests/plugins/abi-too-new.yaml

check_LTLIBRARIES += tests/plugins/abi_major.la
tests_plugins_abi_major_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_abi_major_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_MUX -DTP_NAME=\"abi-major\" -DTP_ABI_MAJOR=1
tests_plugins_abi_major_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/abi-major.yaml
EXTRA_DIST += tests/plugins/abi-major.yaml

check_LTLIBRARIES += tests/plugins/wrong_kind.la
tests_plugins_wrong_kind_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_wrong_kind_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_MUX -DTP_NAME=\"wrong-kind\"
tests_plugins_wrong_kind_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/wrong-kind.yaml
EXTRA_DIST += tests/plugins/wrong-kind.yaml

check_LTLIBRARIES += tests/plugins/missing_symbol.la
tests_plugins_missing_symbol_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_missing_symbol_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_MUX -DTP_NO_DESCRIBE
tests_plugins_missing_symbol_la_LDFLAGS = $(plugin_link_ldflags) -rpath /nowhere
PLUGIN_MANIFESTS += tests/plugins/missing-symbol.yaml
EXTRA_DIST += tests/plugins/missing-symbol.yaml

check_LTLIBRARIES += tests/plugins/name_mismatch.la
tests_plugins_name_mismatch_la_SOURCES = tests/plugins/test-plugin.c
tests_plugins_name_mismatch_la_CPPFLAGS = $(plugin_cppflags) -DTP_KIND=AITERM_KIND_HARNESS -DTP_NAME=\"other-name\"
tests_plugins_name_mismatch_la_LDFLAGS = $(test_plugin_ldflags)
PLUGIN_MANIFESTS += tests/plugins/name-mismatch.yaml
EXTRA_DIST += tests/plugins/name-mismatch.yaml

PLUGIN_MANIFESTS += tests/plugins/abi-manifest-new.yaml
EXTRA_DIST += tests/plugins/abi-manifest-new.yaml
PLUGIN_MANIFESTS += tests/plugins/bad-yaml.yaml
EXTRA_DIST += tests/plugins/bad-yaml.yaml
PLUGIN_MANIFESTS += tests/plugins/no-module.yaml
EXTRA_DIST += tests/plugins/no-module.yaml
PLUGIN_MANIFESTS += tests/plugins/shadow.yaml
EXTRA_DIST += tests/plugins/shadow.yaml
