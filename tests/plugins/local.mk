# tests/plugins
