# core/run: the supervisor of one-shot CLI runs (SUP-RUN, ADR 0023).
core_libaiterm_la_SOURCES += \
	core/run/record.c core/run/record.h \
	core/run/killtree.c core/run/killtree.h \
	core/run/scope.c core/run/scope.h \
	core/run/supervisor.c core/run/supervisor.h \
	core/run/yamljson.c core/run/yamljson.h \
	core/run/backend.c core/run/backend.h core/run/parse.c \
	core/run/pty.c core/run/pty.h

# The built-in backends (ADR 0023), installed where backend_load looks.
backenddir = $(pkgdatadir)/backends
dist_backend_DATA = core/run/backends/claude.yaml \
	core/run/backends/codex.yaml core/run/backends/generic.yaml
