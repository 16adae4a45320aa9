core_libaiterm_la_SOURCES += \
	core/plugin/host.c core/plugin/host.h core/plugin/host-deliver.c \
	core/plugin/loader.c core/plugin/loader.h \
	core/plugin/registry.c core/plugin/registry.h
include $(srcdir)/core/plugin/manifest.mk
