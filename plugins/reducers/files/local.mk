# plugins/reducers/files: the file-listing reducers (grep and rg, find,
# ls -l, tree, du, tar listings), one file each.
pluginexec_LTLIBRARIES += plugins/reducers/files/reducers_files.la
plugins_reducers_files_reducers_files_la_SOURCES = \
	plugins/reducers/files/family.c plugins/reducers/files/files.h \
	plugins/reducers/files/lines.c plugins/reducers/files/grep.c \
	plugins/reducers/files/find.c plugins/reducers/files/ls.c \
	plugins/reducers/files/tree.c plugins/reducers/files/du.c \
	plugins/reducers/files/json.c plugins/reducers/files/tar.c
plugins_reducers_files_reducers_files_la_CPPFLAGS = $(reducer_cppflags)
plugins_reducers_files_reducers_files_la_CFLAGS = $(AM_CFLAGS)
plugins_reducers_files_reducers_files_la_LDFLAGS = $(plugin_ldflags)
plugins_reducers_files_reducers_files_la_LIBADD = \
	plugins/reducers/lib/libredlib.la
dist_pluginexec_DATA += plugins/reducers/files/reducers-files.yaml
PLUGIN_MANIFESTS += plugins/reducers/files/reducers-files.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/reducers/files
