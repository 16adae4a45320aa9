# tests/unit
