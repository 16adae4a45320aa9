core_libaiterm_la_SOURCES += \
	core/agent/harness.c core/agent/harness.h \
	core/agent/probe.c core/agent/probe.h \
	core/agent/catalog.c core/agent/catalog.h \
	core/agent/record.c core/agent/record.h \
	core/agent/transcript.c core/agent/transcript.h \
	core/agent/input.c core/agent/input.h \
	core/agent/image.c core/agent/image.h \
	core/agent/screen.c core/agent/screen.h \
	core/agent/lastwords.c core/agent/lastwords.h \
	core/agent/startup.c core/agent/startup.h \
	core/agent/dispatch.c core/agent/dispatch.h \
	core/agent/refused.c core/agent/refused.h \
	core/agent/steer.c core/agent/steer.h \
	core/agent/configure.c core/agent/configure.h \
	core/agent/answer.c core/agent/answer.h
