core_libaiterm_la_SOURCES += \
	core/mcp/framing.c core/mcp/framing.h \
	core/mcp/jsonrpc.c core/mcp/jsonrpc.h core/mcp/recover.c \
	core/mcp/server.c core/mcp/server.h core/mcp/server-int.h \
	core/mcp/methods.c core/mcp/lifecycle.c core/mcp/calls.c \
	core/mcp/once.c core/mcp/elicit.c
