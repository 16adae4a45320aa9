# aiterm-setup: registers aiterm-mcp with the AI clients installed here
# (SET-RUN, ADR 0013).  Linked with the core library for its buffers,
# atomic files and state root.
bin_PROGRAMS += aiterm-setup
aiterm_setup_SOURCES = setup/main.c setup/setup.h \
	setup/clients.c setup/clients.h setup/jconf.c setup/jconf.h \
	setup/cfile.c setup/cfile.h setup/inpane.c setup/inpane.h \
	setup/hooks.c setup/hooks.h \
	setup/jsonedit.c setup/jsonedit.h setup/prereq.c setup/prereq.h \
	setup/report.c setup/report.h setup/run.c setup/run.h \
	setup/selftest.c setup/selftest.h \
	setup/steer.c setup/steer.h
aiterm_setup_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_setup_LDADD = core/libaiterm.la $(DEP_LIBS)
