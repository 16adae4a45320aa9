# core/observe: pty_observe's process identities, activity cursor and
# on-screen token figure.
core_libaiterm_la_SOURCES += \
	core/observe/cursor.c core/observe/cursor.h \
	core/observe/identity.c core/observe/identity.h \
	core/observe/token-hint.c core/observe/token-hint.h
