# sdk: the plugin test kit installed with the plugin header
# (libaiterm-plugin-dev): libaiterm-plugin-test.a, a fake host and the
# harness fixture runner, for a plugin's own unit tests, and its
# pkg-config file.  Built as a plugin is (the installed headers alone);
# position-independent, so it links into PIE test programs.
lib_LIBRARIES = sdk/libaiterm-plugin-test.a
sdk_libaiterm_plugin_test_a_SOURCES = sdk/fakehost.c sdk/fixtures.c
sdk_libaiterm_plugin_test_a_CPPFLAGS = $(plugin_cppflags)
sdk_libaiterm_plugin_test_a_CFLAGS = $(AM_CFLAGS) -fPIC
aiterminclude_HEADERS += include/aiterm/plugin-test.h \
	include/aiterm/harness-util.h
pkgconfig_DATA += aiterm-plugin-test.pc
