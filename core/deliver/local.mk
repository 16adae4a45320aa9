core_libaiterm_la_SOURCES += \
	core/deliver/store.c core/deliver/store.h \
	core/deliver/observe.c core/deliver/observe.h \
	core/deliver/expire.c core/deliver/expire.h \
	core/deliver/parent.c core/deliver/parent.h \
	core/deliver/receiver.c core/deliver/receiver.h core/deliver/origin.h \
	core/deliver/child.c core/deliver/child.h \
	core/deliver/claim.c core/deliver/claim.h \
	core/deliver/codexhook.c core/deliver/codexhook.h \
	core/deliver/waiter.c core/deliver/waiter.h
