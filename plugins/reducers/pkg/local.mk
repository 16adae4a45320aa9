# plugins/reducers/pkg: the package-manager reducers (apt/apt-get, apt
# list, npm/yarn/pnpm, pip, dpkg -l), one file each.
pluginexec_LTLIBRARIES += plugins/reducers/pkg/reducers_pkg.la
plugins_reducers_pkg_reducers_pkg_la_SOURCES = \
	plugins/reducers/pkg/family.c plugins/reducers/pkg/pkg.h \
	plugins/reducers/pkg/lines.c plugins/reducers/pkg/apt.c \
	plugins/reducers/pkg/npm.c plugins/reducers/pkg/pip.c \
	plugins/reducers/pkg/dpkg.c plugins/reducers/pkg/aptlist.c
plugins_reducers_pkg_reducers_pkg_la_CPPFLAGS = $(reducer_cppflags) \
	-D_GNU_SOURCE
plugins_reducers_pkg_reducers_pkg_la_CFLAGS = $(AM_CFLAGS)
plugins_reducers_pkg_reducers_pkg_la_LDFLAGS = $(plugin_ldflags)
plugins_reducers_pkg_reducers_pkg_la_LIBADD = \
	plugins/reducers/lib/libredlib.la
dist_pluginexec_DATA += plugins/reducers/pkg/reducers-pkg.yaml
PLUGIN_MANIFESTS += plugins/reducers/pkg/reducers-pkg.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/reducers/pkg
