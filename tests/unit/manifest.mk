# tests/unit/manifest
