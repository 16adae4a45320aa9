# tests/sdk: the plugin test kit (sdk/): its fake host on its own
# (fakehost_test), and the fixture runner on a real CLI's recordings
# (tests/harness/fixtures/codex-cli-0.171.0/expect against the built
# harness-codex plugin).
check_PROGRAMS += tests/sdk/fakehost_test
TESTS += tests/sdk/fakehost_test
tests_sdk_fakehost_test_SOURCES = tests/sdk/fakehost_test.c
tests_sdk_fakehost_test_CPPFLAGS = $(plugin_cppflags)
tests_sdk_fakehost_test_LDADD = sdk/libaiterm-plugin-test.a
check_PROGRAMS += tests/sdk/sdk_fixtures
tests_sdk_sdk_fixtures_SOURCES = tests/sdk/sdk_fixtures.c
tests_sdk_sdk_fixtures_CPPFLAGS = $(plugin_cppflags)
tests_sdk_sdk_fixtures_LDADD = sdk/libaiterm-plugin-test.a $(LTDL_LIBS)
TESTS += tests/sdk/fixtures.sh
EXTRA_DIST += tests/sdk/fixtures.sh
