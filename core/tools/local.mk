core_libaiterm_la_SOURCES += \
	core/tools/tool.h core/tools/tools.c \
	core/tools/diagnostics.c core/tools/diag-agents.c core/tools/diag-agents.h core/tools/parent-deliveries.c \
	core/tools/pty-common.c core/tools/pty-common.h \
	core/tools/pty-open.c core/tools/pty-send.c core/tools/pty-read.c \
	core/tools/pty-key.c core/tools/pty-close.c core/tools/pty-list.c \
	core/tools/on-mux.c core/tools/on-mux.h \
	core/tools/pty-observe.c core/tools/pty-ready.c core/tools/pty-ready.h \
	core/tools/agent-common.c core/tools/agent-common.h \
	core/tools/agent-launch.c core/tools/agent-read.c \
	core/tools/agent-approval.c core/tools/agent-configure.c \
	core/tools/agent-images.c core/tools/agent-images.h \
	core/tools/agent-read.h core/tools/agent-schema.h \
	core/tools/test-sleep.c
