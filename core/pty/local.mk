# core/pty: sessions, sending, reading and completion.
include $(srcdir)/core/pty/logread.mk
