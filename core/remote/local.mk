core_libaiterm_la_SOURCES += \
	core/remote/relay.c core/remote/relay.h
