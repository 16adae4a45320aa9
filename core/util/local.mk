core_libaiterm_la_SOURCES += \
	core/util/xmalloc.c core/util/xmalloc.h \
	core/util/buf.c core/util/buf.h \
	core/util/error.c core/util/error.h \
	core/util/sha256.c core/util/sha256.h \
	core/util/path.c core/util/path.h \
	core/util/stdfd.c core/util/stdfd.h \
	core/util/names.c core/util/names.h \
	core/util/linerpc.c core/util/linerpc.h \
	core/util/envnum.c core/util/envnum.h \
	core/util/loop.c core/util/loop.h \
	core/util/child.c core/util/child.h \
	core/util/watch.c core/util/watch.h \
	core/util/jsonschema.c core/util/jsonschema.h \
	core/util/yamldoc.c core/util/yamldoc.h \
	core/util/memback.c core/util/memback.h \
	core/util/http.c core/util/http.h \
	core/util/wipe.c core/util/wipe.h
