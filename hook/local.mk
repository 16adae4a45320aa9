# aiterm-hook: the command the agent clients' hooks run (installed in
# their settings by aiterm-setup) and receiver plugins spawn.  It holds no
# harness: "aiterm-hook CLI-WHAT ..." execs aiterm-hook-CLI, which each
# harness builds in its own folder (plugins/harness-*/hook.c, ADR 0015,
# 0016, 0017) and its package installs.
bin_PROGRAMS += aiterm-hook
aiterm_hook_SOURCES = hook/main.c
aiterm_hook_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_hook_LDADD = core/libaiterm.la $(DEP_LIBS)

# libhook: what the hook programs share (their command line, the hook's
# JSON on stdin); nothing of a harness.
noinst_LTLIBRARIES += hook/libhook.la
hook_libhook_la_SOURCES = hook/common.c hook/hook.h
hook_libhook_la_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
