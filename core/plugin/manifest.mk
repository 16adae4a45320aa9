# core/plugin/manifest: the strict plugin manifest reader.
core_libaiterm_la_SOURCES += core/plugin/manifest.c core/plugin/manifest.h
