# tests/unit/shell
