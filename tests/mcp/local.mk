# tests/mcp
