# tests/unit/mcp
