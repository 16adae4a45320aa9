# plugins/reducers/tests: the test-runner reducers (pytest, cargo test,
# jest, vitest, node --test) and node/python stack traces, one file each.
pluginexec_LTLIBRARIES += plugins/reducers/tests/reducers_tests.la
plugins_reducers_tests_reducers_tests_la_SOURCES = \
	plugins/reducers/tests/family.c plugins/reducers/tests/tests.h \
	plugins/reducers/tests/lines.c plugins/reducers/tests/pytest.c \
	plugins/reducers/tests/cargo.c plugins/reducers/tests/jest.c \
	plugins/reducers/tests/vitest.c plugins/reducers/tests/nodetest.c \
	plugins/reducers/tests/trace.c
plugins_reducers_tests_reducers_tests_la_CPPFLAGS = $(reducer_cppflags)
plugins_reducers_tests_reducers_tests_la_CFLAGS = $(AM_CFLAGS)
plugins_reducers_tests_reducers_tests_la_LDFLAGS = $(plugin_ldflags)
plugins_reducers_tests_reducers_tests_la_LIBADD = \
	plugins/reducers/lib/libredlib.la
dist_pluginexec_DATA += plugins/reducers/tests/reducers-tests.yaml
PLUGIN_MANIFESTS += plugins/reducers/tests/reducers-tests.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/reducers/tests
