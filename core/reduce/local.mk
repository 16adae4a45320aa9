# core/reduce: the generic reducer stages (RED-STRIP, RED-REPEAT,
# RED-HEADTAIL), the pipeline that runs them, and the choice of a
# command reducer plugin (RED-CMD).
core_libaiterm_la_SOURCES += \
	core/reduce/u8.h \
	core/reduce/lines.c core/reduce/lines.h \
	core/reduce/strip.c core/reduce/strip.h \
	core/reduce/repeat.c core/reduce/repeat.h \
	core/reduce/headtail.c core/reduce/headtail.h \
	core/reduce/shape.c core/reduce/shape.h core/reduce/shapechar.h \
	core/reduce/shapehash.c \
	core/reduce/pipeline.c core/reduce/pipeline.h \
	core/reduce/cmdline.c core/reduce/cmd.c core/reduce/cmd.h
