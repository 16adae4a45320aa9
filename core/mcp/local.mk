# core/mcp: sources are added here.
