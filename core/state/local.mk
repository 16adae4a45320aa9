# core/state: the state root, atomic files and owner locks.
core_libaiterm_la_SOURCES += \
	core/state/stateroot.c core/state/stateroot.h \
	core/state/atomic.c core/state/atomic.h \
	core/state/lock.c core/state/lock.h \
	core/state/errtally.c core/state/errtally.h \
	core/state/format.c core/state/format.h
