core_libaiterm_la_SOURCES += \
	core/tools/tool.h core/tools/tools.c \
	core/tools/schema.c core/tools/schema.h \
	core/tools/diagnostics.c \
	core/tools/test-sleep.c
