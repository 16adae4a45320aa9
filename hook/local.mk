# aiterm-hook: Aiterm's side of Claude Code's hooks for parent delivery
# (DLV-CLAUDE, ADR 0015), installed into the user's settings by
# aiterm-setup.
bin_PROGRAMS += aiterm-hook
aiterm_hook_SOURCES = hook/main.c hook/codex.c hook/cursor.c hook/hook.h
aiterm_hook_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_hook_LDADD = core/libaiterm.la $(DEP_LIBS)
