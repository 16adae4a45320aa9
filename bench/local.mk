# bench
# Benchmarks are EXTRA_PROGRAMS: built only when asked for by name.
EXTRA_PROGRAMS =

# bench/reduce-throughput: MB/s of red_strip and red_generic over a large
# log made of the fixture outputs.  Not built by default:
# make bench/reduce-throughput && bench/reduce-throughput [dir [MB]]
EXTRA_PROGRAMS += bench/reduce-throughput
bench_reduce_throughput_SOURCES = bench/reduce-throughput.c
bench_reduce_throughput_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS) \
	-DFIXTURES_DIR='"$(FIXTURES)/reduce"'
bench_reduce_throughput_LDADD = core/libaiterm.la $(DEP_LIBS)
CLEANFILES += bench/reduce-throughput$(EXEEXT)

# bench/reduce-case: what the command reducers make of recorded cases
# (<case>/cmd, <case>/out), and why a result was refused, for reducer
# authors (doc/reducers.md): make bench/reduce-case &&
# bench/reduce-case tests/fixtures/unseen/<case> [--quiet]
EXTRA_PROGRAMS += bench/reduce-case
bench_reduce_case_SOURCES = bench/reduce-case.c
bench_reduce_case_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS) \
	-DPLUGIN_PATH='"$(TEST_PLUGIN_PATH)"'
bench_reduce_case_LDADD = core/libaiterm.la $(DEP_LIBS)
CLEANFILES += bench/reduce-case$(EXEEXT)

# bench/mux-ops: latency of the mux-tmux ops (send_text with Enter,
# pane_info, list, capture), one-shot tmux clients against the control
# client.  Loads the plugin from the build tree; needs tmux:
# make bench/mux-ops && bench/mux-ops [runs [sessions]]
EXTRA_PROGRAMS += bench/mux-ops
bench_mux_ops_SOURCES = bench/mux-ops.c
bench_mux_ops_CFLAGS = $(AM_CFLAGS) $(DEP_CFLAGS) \
	-DPLUGIN_DIR='"$(abs_top_builddir)/plugins/mux-tmux"'
bench_mux_ops_LDADD = core/libaiterm.la $(DEP_LIBS)
EXTRA_bench_mux_ops_DEPENDENCIES = plugins/mux-tmux/mux_tmux.la
CLEANFILES += bench/mux-ops$(EXEEXT)

# Node benchmarks (print figures; not run by make check): see bench/README.md.
EXTRA_DIST += bench/README.md bench/package.json bench/package-lock.json bench/agent.cjs \
	bench/latency.cjs bench/latency-breakdown.cjs bench/tokens.cjs bench/observe.cjs bench/lib/mcp.cjs \
	bench/scale.cjs bench/pipeline.cjs bench/soak-2h.sh bench/tmux-baseline.py \
	bench/lib/strip.cjs bench/lib/tokens.cjs bench/tasks.cjs bench/tasks/run.cjs \
	bench/tasks/report.cjs bench/tasks/ways.cjs bench/tasks/ssh.cjs bench/tasks/build.cjs \
	bench/tasks/repl.cjs bench/tasks/longjob.cjs
