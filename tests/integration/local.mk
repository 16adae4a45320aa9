# tests/integration
