# plugins/reducers/git: the git reducers (status, log, diff, show, merge), one
# file each, with the diff reduction shared by diff, show and log -p.
pluginexec_LTLIBRARIES += plugins/reducers/git/reducers_git.la
plugins_reducers_git_reducers_git_la_SOURCES = \
	plugins/reducers/git/family.c plugins/reducers/git/git.h \
	plugins/reducers/git/lines.c plugins/reducers/git/status.c \
	plugins/reducers/git/log.c plugins/reducers/git/diff.c \
	plugins/reducers/git/show.c plugins/reducers/git/merge.c
plugins_reducers_git_reducers_git_la_CPPFLAGS = $(reducer_cppflags)
plugins_reducers_git_reducers_git_la_CFLAGS = $(AM_CFLAGS)
plugins_reducers_git_reducers_git_la_LDFLAGS = $(plugin_ldflags)
plugins_reducers_git_reducers_git_la_LIBADD = \
	plugins/reducers/lib/libredlib.la
dist_pluginexec_DATA += plugins/reducers/git/reducers-git.yaml
PLUGIN_MANIFESTS += plugins/reducers/git/reducers-git.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/reducers/git
