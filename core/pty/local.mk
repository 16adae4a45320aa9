core_libaiterm_la_SOURCES += \
	core/pty/session.c core/pty/session.h \
	core/pty/muxjob.c core/pty/muxjob.h \
	core/pty/render.c core/pty/render.h \
	core/pty/waiter.c core/pty/waiter.h \
	core/pty/send.c core/pty/send.h \
	core/pty/sendq.c core/pty/sendq.h \
	core/pty/echo.c core/pty/echo.h \
	core/pty/replwait.c core/pty/replwait.h \
	core/pty/output.c core/pty/output.h \
	core/pty/paneenv.c core/pty/paneenv.h \
	core/pty/treekill.c core/pty/treekill.h \
	core/pty/logpipe.c core/pty/logpipe.h \
	core/pty/secret.c core/pty/secret.h \
	core/pty/secretpage.c core/pty/secretpage.h
include $(srcdir)/core/pty/logread.mk
