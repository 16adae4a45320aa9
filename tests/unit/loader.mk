# tests/unit/loader
