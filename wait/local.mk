# aiterm-wait: prints a child agent's answer for a parent that has no
# receiver of its own (DLV-WAIT, ADR 0014).
bin_PROGRAMS += aiterm-wait
aiterm_wait_SOURCES = wait/main.c
aiterm_wait_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_wait_LDADD = core/libaiterm.la $(DEP_LIBS)
