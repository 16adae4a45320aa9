# core/pty/logread: reading a session's append-only output log in bounded chunks.
core_libaiterm_la_SOURCES += core/pty/logread.c core/pty/logread.h
