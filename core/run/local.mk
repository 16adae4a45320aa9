# core/run: the supervisor of one-shot CLI runs (SUP-RUN, ADR 0023).
core_libaiterm_la_SOURCES += \
	core/run/record.c core/run/record.h \
	core/run/killtree.c core/run/killtree.h \
	core/run/scope.c core/run/scope.h \
	core/run/supervisor.c core/run/supervisor.h
