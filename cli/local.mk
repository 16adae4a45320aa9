# aiterm: the MCP tools from a shell (CTL-CLI, ADR 0022).  Linked with
# the core library: the call runs the server's tool table in-process.
bin_PROGRAMS += aiterm
aiterm_SOURCES = cli/main.c cli/cli.h cli/commands.c cli/args.c \
	cli/help.c cli/output.c cli/run.c
aiterm_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS)
aiterm_LDADD = core/libaiterm.la $(DEP_LIBS)
# No -export-dynamic, as for aiterm-mcp (issue 31).
