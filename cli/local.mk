# aiterm: the MCP tools from a shell (CTL-CLI, ADR 0022).  Linked with
# the core library: the call runs the server's tool table in-process.
bin_PROGRAMS += aiterm
aiterm_SOURCES = cli/main.c cli/cli.h cli/commands.c cli/args.c \
	cli/help.c cli/output.c cli/run.c
aiterm_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_LDADD = core/libaiterm.la $(DEP_LIBS)
# No -export-dynamic, as for aiterm-mcp (issue 31).

# cli/run: the supervisor of one-shot CLI runs (SUP-RUN, ADR 0023), used
# by aiterm run alone (cli/run.c).
aiterm_SOURCES += \
	cli/run/record.c cli/run/record.h \
	cli/run/killtree.c cli/run/killtree.h \
	cli/run/scope.c cli/run/scope.h \
	cli/run/prune.c cli/run/prune.h \
	cli/run/supervisor.c cli/run/supervisor.h \
	cli/run/yamljson.c cli/run/yamljson.h \
	cli/run/backend.c cli/run/backend.h cli/run/parse.c \
	cli/run/pty.c cli/run/pty.h

# The built-in backends (ADR 0023), installed where backend_load looks:
# the generic one here, each CLI's with its harness (plugins/harness-*).
backenddir = $(pkgdatadir)/backends
dist_backend_DATA = cli/run/backends/generic.yaml
