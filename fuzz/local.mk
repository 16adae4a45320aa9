# fuzz: libFuzzer harnesses, one per target (fuzz/README.md).  They are
# EXTRA_PROGRAMS, so a normal build and distcheck never build them; a
# build configured with CC=clang --enable-fuzz builds them with "make"
# (or "make fuzz"), and fuzz/run.sh does that and runs each for a few
# seconds.  The corpora and crash reproducers are distributed.
fuzz_harnesses = fuzz/fuzz-strip \
	fuzz/fuzz-repeat \
	fuzz/fuzz-headtail \
	fuzz/fuzz-faithful \
	fuzz/fuzz-generic \
	fuzz/fuzz-cmd-argv \
	fuzz/fuzz-cmd-reduce \
	fuzz/fuzz-manifest \
	fuzz/fuzz-mcp \
	fuzz/fuzz-schema \
	fuzz/fuzz-eval-posix \
	fuzz/fuzz-pwsh \
	fuzz/fuzz-sanitize
EXTRA_PROGRAMS += $(fuzz_harnesses)
CLEANFILES += $(fuzz_harnesses:=$(EXEEXT))

fuzz_sources = fuzz/common.c fuzz/common.h
fuzz_cflags = $(AM_CFLAGS) $(DEP_CFLAGS) $(FUZZ_CFLAGS)
fuzz_ldadd = core/libaiterm.la $(DEP_LIBS)

fuzz_fuzz_strip_SOURCES = fuzz/fuzz-strip.c $(fuzz_sources)
fuzz_fuzz_strip_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_strip_LDADD = $(fuzz_ldadd)

fuzz_fuzz_repeat_SOURCES = fuzz/fuzz-repeat.c $(fuzz_sources)
fuzz_fuzz_repeat_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_repeat_LDADD = $(fuzz_ldadd)

fuzz_fuzz_headtail_SOURCES = fuzz/fuzz-headtail.c $(fuzz_sources)
fuzz_fuzz_headtail_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_headtail_LDADD = $(fuzz_ldadd)

fuzz_fuzz_faithful_SOURCES = fuzz/fuzz-faithful.c $(fuzz_sources)
fuzz_fuzz_faithful_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_faithful_LDADD = $(fuzz_ldadd)

fuzz_fuzz_generic_SOURCES = fuzz/fuzz-generic.c $(fuzz_sources)
fuzz_fuzz_generic_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_generic_LDADD = $(fuzz_ldadd)

fuzz_fuzz_cmd_argv_SOURCES = fuzz/fuzz-cmd-argv.c $(fuzz_sources)
fuzz_fuzz_cmd_argv_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_cmd_argv_LDADD = $(fuzz_ldadd)

fuzz_fuzz_cmd_reduce_SOURCES = fuzz/fuzz-cmd-reduce.c $(fuzz_sources)
fuzz_fuzz_cmd_reduce_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_cmd_reduce_LDADD = $(fuzz_ldadd)

fuzz_fuzz_manifest_SOURCES = fuzz/fuzz-manifest.c $(fuzz_sources)
fuzz_fuzz_manifest_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_manifest_LDADD = $(fuzz_ldadd)

fuzz_fuzz_mcp_SOURCES = fuzz/fuzz-mcp.c $(fuzz_sources)
fuzz_fuzz_mcp_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_mcp_LDADD = $(fuzz_ldadd)

fuzz_fuzz_schema_SOURCES = fuzz/fuzz-schema.c $(fuzz_sources)
fuzz_fuzz_schema_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_schema_LDADD = $(fuzz_ldadd)

fuzz_fuzz_eval_posix_SOURCES = fuzz/fuzz-eval-posix.c $(fuzz_sources)
fuzz_fuzz_eval_posix_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_eval_posix_LDADD = $(fuzz_ldadd)

fuzz_fuzz_pwsh_SOURCES = fuzz/fuzz-pwsh.c $(fuzz_sources)
fuzz_fuzz_pwsh_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_pwsh_LDADD = $(fuzz_ldadd)

fuzz_fuzz_sanitize_SOURCES = fuzz/fuzz-sanitize.c $(fuzz_sources)
fuzz_fuzz_sanitize_CFLAGS = $(fuzz_cflags)
fuzz_fuzz_sanitize_LDADD = $(fuzz_ldadd)

if ENABLE_FUZZ
all_local_deps += $(fuzz_harnesses)
fuzz: $(fuzz_harnesses)
else
fuzz:
	@echo "fuzz: configure with CC=clang --enable-fuzz (or run fuzz/run.sh)" >&2
	@exit 1
endif
.PHONY: fuzz

# The plugin folders of this build, colon-separated, for fuzz-cmd-reduce.
fuzz-plugin-path:
	@echo '$(TEST_PLUGIN_PATH)' | tr -s ' ' ':' | sed 's/^://;s/:$$//'
.PHONY: fuzz-plugin-path

# The harness sources are distributed as sources of EXTRA_PROGRAMS.
EXTRA_DIST += fuzz/README.md fuzz/run.sh fuzz/make-seeds.py fuzz/corpus \
	fuzz/crashes
