# core/proc: one backend per platform behind proc.h, chosen by configure.
core_libaiterm_la_SOURCES += core/proc/proc.h \
	core/proc/launch.c core/proc/launch.h \
	core/proc/family.c core/proc/family.h
if PROC_LINUX
core_libaiterm_la_SOURCES += core/proc/proc-linux.c
endif
if PROC_DARWIN
core_libaiterm_la_SOURCES += core/proc/proc-darwin.c
endif
