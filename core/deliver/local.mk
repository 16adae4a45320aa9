core_libaiterm_la_SOURCES += \
	core/deliver/store.c core/deliver/store.h \
	core/deliver/observe.c core/deliver/observe.h \
	core/deliver/parent.c core/deliver/parent.h \
	core/deliver/claude.c core/deliver/claude.h \
	core/deliver/waiter.c core/deliver/waiter.h \
	core/deliver/codex.c core/deliver/codex.h \
	core/deliver/cursor.c core/deliver/cursor.h
