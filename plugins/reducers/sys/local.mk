# plugins/reducers/sys: the system reducers (logs: journalctl, dmesg, log
# files; docker ps, kubectl get, df, free, ps, systemctl status, dd).
pluginexec_LTLIBRARIES += plugins/reducers/sys/reducers_sys.la
plugins_reducers_sys_reducers_sys_la_SOURCES = \
	plugins/reducers/sys/family.c plugins/reducers/sys/sys.h \
	plugins/reducers/sys/log.c \
	plugins/reducers/sys/table.c \
	plugins/reducers/sys/df.c \
	plugins/reducers/sys/ps.c \
	plugins/reducers/sys/systemctl.c \
	plugins/reducers/sys/dd.c
plugins_reducers_sys_reducers_sys_la_CPPFLAGS = $(reducer_cppflags)
plugins_reducers_sys_reducers_sys_la_CFLAGS = $(AM_CFLAGS)
plugins_reducers_sys_reducers_sys_la_LDFLAGS = $(plugin_ldflags)
plugins_reducers_sys_reducers_sys_la_LIBADD = \
	plugins/reducers/lib/libredlib.la
dist_pluginexec_DATA += plugins/reducers/sys/reducers-sys.yaml
PLUGIN_MANIFESTS += plugins/reducers/sys/reducers-sys.yaml
TEST_PLUGIN_PATH += $(abs_top_builddir)/plugins/reducers/sys
