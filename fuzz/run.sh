#!/bin/sh
# fuzz/run.sh: the bounded fuzz run for CI (./quickstart check runs it).
#
#   fuzz/run.sh [SECONDS] [TARGET...]
#
# Builds the libFuzzer harnesses with clang in a build folder of their own
# (configure CC=clang --enable-fuzz: coverage, AddressSanitizer with leak
# checks, UBSan), replays every seed of fuzz/corpus/<target>/ and every
# reproducer fuzz/crashes/<target>-*, runs the POSIX eval corpus through
# real shells, then fuzzes each target for SECONDS (default 5), as many at
# once as there are CPUs.  New inputs go to a scratch corpus in the build
# folder, never into the source tree; a crash leaves its input in
# BUILD/fuzz/artifacts/ (copy it to fuzz/crashes/<target>-<what> and fix
# the bug).  Exits non-zero on any crash, leak, timeout or broken property.
#
# Environment: FUZZ_BUILD (build folder, default ./build-fuzz), FUZZ_CC
# (clang), FUZZ_JOBS (parallel runs, default nproc), FUZZ_MAX_LEN (the
# longest input the fuzzer makes, default 8192: short inputs run faster;
# the large seeds are still replayed whole), AITERM_ALLOW_SKIPS (a shell
# that is not installed fails the run unless this allows its skip,
# "no-<shell>": tests/skips.sh).
set -eu

src=$(cd "$(dirname "$0")/.." && pwd)
build=${FUZZ_BUILD:-$src/build-fuzz}
secs=${1:-5}
[ $# -gt 0 ] && shift
all="strip repeat headtail faithful generic cmd-argv cmd-reduce manifest mcp schema
eval-posix pwsh sanitize"
# One line, blank-separated, so that " $targets " can be matched.
# shellcheck disable=SC2048,SC2086,SC2116
targets=$(echo ${*:-$all})
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 2)}
max_len=${FUZZ_MAX_LEN:-8192}

say() { printf '\033[1m==> fuzz: %s\033[0m\n' "$*" >&2; }
die() { printf 'fuzz/run.sh: %s\n' "$*" >&2; exit 1; }

command -v "${FUZZ_CC:-clang}" >/dev/null 2>&1 ||
	die "${FUZZ_CC:-clang} not found (apt-get install clang libclang-rt-dev)"
[ -x "$src/configure" ] || die "no configure: run autoreconf -fi in $src"
mkdir -p "$build"
cd "$build"
if [ ! -f Makefile ]; then
	say "configure ($build)"
	"$src/configure" -q CC="${FUZZ_CC:-clang}" --enable-fuzz \
	    --enable-werror ||
		die "configure failed (see $build/config.log)"
fi
say "build the harnesses"
make -j"$jobs" fuzz >fuzz-build.log 2>&1 ||
	{ tail -n 40 fuzz-build.log >&2; die "the harnesses did not build"; }
# The reducer plugins, for fuzz-cmd-reduce: it fuzzes those that built.
make -j"$jobs" >fuzz-plugins.log 2>&1 ||
	{ tail -n 40 fuzz-plugins.log >&2; die "the clang build failed"; }
AITERM_PLUGIN_PATH=$(make -s fuzz-plugin-path)
AITERM_SYSTEM_PLUGINDIR=
export AITERM_PLUGIN_PATH AITERM_SYSTEM_PLUGINDIR
# A small quarantine keeps the RSS of a run well under -rss_limit_mb.
ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS UBSAN_OPTIONS

logs=$build/fuzz/logs
art=$build/fuzz/artifacts
rm -rf "$logs"
mkdir -p "$logs" "$art"
: >"$logs/skips"
failed=

say "replay the corpora and the crash reproducers"
for t in $targets; do
	[ -x "fuzz/fuzz-$t" ] || die "no harness fuzz-$t"
	set -- "$src/fuzz/corpus/$t"/*
	for c in "$src/fuzz/crashes/$t"-*; do
		[ -f "$c" ] && set -- "$@" "$c"
	done
	if ! "fuzz/fuzz-$t" -rss_limit_mb=512 -timeout=5 "$@" \
	    >"$logs/$t.replay" 2>&1; then
		tail -n 30 "$logs/$t.replay" >&2
		failed="$failed $t(replay)"
	fi
done

# The slow check of the eval property: real shells, one per seed.
case " $targets " in
*" eval-posix "*)
	for sh in dash bash zsh; do
		if ! command -v "$sh" >/dev/null 2>&1; then
			echo "no-$sh: $sh is not installed; the eval corpus did not run through it" >>"$logs/skips"
			continue
		fi
		if ! AITERM_FUZZ_SHELL=$sh fuzz/fuzz-eval-posix \
		    "$src/fuzz/corpus/eval-posix"/* >"$logs/eval-$sh.replay" 2>&1
		then
			tail -n 30 "$logs/eval-$sh.replay" >&2
			failed="$failed eval-posix($sh)"
		fi
	done ;;
esac

say "fuzz each target for ${secs}s, $jobs at a time"
run_one() {
	t=$1
	work=$build/fuzz/work/$t
	mkdir -p "$work"
	"fuzz/fuzz-$t" -max_total_time="$secs" -rss_limit_mb=512 -timeout=5 \
	    -max_len="$max_len" -print_final_stats=1 \
	    -artifact_prefix="$art/$t-" "$work" "$src/fuzz/corpus/$t" \
	    >"$logs/$t.log" 2>&1 || echo "$t" >>"$logs/FAILED"
}
# $jobs lanes, each running its share of the targets one after another.
lane=0
while [ "$lane" -lt "$jobs" ]; do
	(
		n=0
		for t in $targets; do
			[ $((n % jobs)) -eq "$lane" ] && run_one "$t"
			n=$((n + 1))
		done
	) &
	lane=$((lane + 1))
done
wait
[ -f "$logs/FAILED" ] && failed="$failed $(tr '\n' ' ' <"$logs/FAILED")"

printf '%-12s %10s %8s %6s %6s\n' target execs exec/s cov ft >&2
for t in $targets; do
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$logs/$t.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$logs/$t.log")
	last=$(grep -E '^#[0-9]+' "$logs/$t.log" | tail -n 1)
	cov=$(printf '%s\n' "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(printf '%s\n' "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	printf '%-12s %10s %8s %6s %6s\n' "$t" "${execs:--}" "${rate:--}" \
	    "${cov:--}" "${ft:--}" >&2
done

# A shell that is missing is a skip: it fails the run unless
# AITERM_ALLOW_SKIPS allows it (tests/skips.sh, README).
. "$src/tests/skips.sh"
skips_check fuzz "$logs/skips" >&2 || failed="$failed skips"

if [ -n "$failed" ]; then
	for t in $failed; do
		t=${t%%(*}
		[ -f "$logs/$t.log" ] && grep -E -A12 \
		    'ERROR|property failed|runtime error|Test unit written' \
		    "$logs/$t.log" | head -n 40 >&2
	done
	ls -l "$art" >&2
	die "failed:$failed (logs in $logs)"
fi
say "no crash, leak, timeout or broken property"
