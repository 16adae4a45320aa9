core_libaiterm_la_SOURCES += \
	core/remote/askpass.c core/remote/askpass.h \
	core/remote/records.c core/remote/records.h \
	core/remote/relay.c core/remote/relay.h \
	core/remote/family.c core/remote/family.h \
	core/remote/farcmd.c core/remote/farcmd.h \
	core/remote/handover.c core/remote/handover.h
