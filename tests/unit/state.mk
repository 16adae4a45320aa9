# tests/unit/state
