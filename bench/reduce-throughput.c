/*
 * Reducer throughput: red_strip and red_generic over a large log, in MB/s.
 *
 *	bench/reduce-throughput [fixtures-dir [megabytes [split]]]
 *
 * The log is built in memory by repeating the `out` files of every case of
 * the fixture corpus (tests/fixtures/reduce by default) up to the size
 * asked (200 MB by default): terminal output as captured, escapes and all.
 * A second log of the same size repeats the stripped outputs, which is
 * plain text.  Each run is timed three times; the best is printed.
 *
 * With "split", it then times red_generic over the first 64 KiB to 8 MiB
 * of the terminal log on one thread and on two (cut at the middle,
 * ADR 0047), the median of 31 runs each, interleaved: where two threads
 * start to pay, the figure RED_SPLIT comes from.
 */
#include <dirent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "reduce/pipeline.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures/reduce"
#endif

#define RUNS	3
#define SPLIT_RUNS	31

static int
read_file(const char *path, struct aiterm_buf *into)
{
	FILE *f = fopen(path, "rb");
	char chunk[65536];
	size_t n;

	if (f == NULL)
		return -1;
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(into, chunk, n);
	fclose(f);
	return 0;
}

/* The outputs of every case, one after the other. */
static int
read_corpus(const char *dir, struct aiterm_buf *corpus)
{
	struct dirent **names;
	char *path;
	int n, i, cases = 0;

	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0)
		return -1;
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s/out", dir, names[i]->d_name);
		if (names[i]->d_name[0] != '.' && read_file(path, corpus) == 0)
			cases++;
		free(path);
		free(names[i]);
	}
	free(names);
	return cases;
}

static void
repeat_to(const struct aiterm_buf *unit, size_t size, struct aiterm_buf *log)
{
	while (log->len < size)
		buf_add(log, unit->data, unit->len);
}

static double
now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The best of RUNS runs of one stage over log, in MB/s. */
static double
measure(const struct aiterm_buf *log, bool generic, size_t *out_len)
{
	struct red_headtail_opts opts = RED_HEADTAIL_DEFAULTS;
	struct aiterm_buf out = BUF_INIT;
	double best = 0, t, rate;
	int run;

	for (run = 0; run < RUNS; run++) {
		buf_reset(&out);
		t = now();
		if (generic)
			red_generic(log->data, log->len, &opts, &out, NULL);
		else
			red_strip(log->data, log->len, &out);
		t = now() - t;
		rate = (double)log->len / 1e6 / t;
		if (rate > best)
			best = rate;
	}
	*out_len = out.len;
	buf_free(&out);
	return best;
}

static void
report(const char *what, const struct aiterm_buf *log)
{
	size_t strip_len, generic_len;
	double strip = measure(log, false, &strip_len);
	double generic = measure(log, true, &generic_len);

	printf("%-22s %8.1f MB  red_strip %7.1f MB/s (%zu bytes out)  "
	    "red_generic %7.1f MB/s (%zu bytes out)\n", what,
	    (double)log->len / 1e6, strip, strip_len, generic, generic_len);
}

static int
time_cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* red_generic over len bytes of log, split at split: seconds. */
static double
generic_once(const struct aiterm_buf *log, size_t len, size_t split)
{
	struct red_headtail_opts opts = RED_HEADTAIL_DEFAULTS;
	struct aiterm_buf out = BUF_INIT;
	double t;

	opts.split = split;
	t = now();
	red_generic(log->data, len, &opts, &out, NULL);
	t = now() - t;
	buf_free(&out);
	return t;
}

static void
report_split(const struct aiterm_buf *log)
{
	double one[SPLIT_RUNS], two[SPLIT_RUNS];
	size_t len;
	int run;

	for (len = (size_t)64 << 10; len <= ((size_t)8 << 20) &&
	    len <= log->len; len *= 2) {
		for (run = 0; run < SPLIT_RUNS; run++) {
			one[run] = generic_once(log, len, SIZE_MAX);
			two[run] = generic_once(log, len, 1);
		}
		qsort(one, SPLIT_RUNS, sizeof one[0], time_cmp);
		qsort(two, SPLIT_RUNS, sizeof two[0], time_cmp);
		printf("red_generic %5zu KiB: one thread %8.3f ms, two %8.3f ms "
		    "(median of %d)\n", len >> 10, one[SPLIT_RUNS / 2] * 1e3,
		    two[SPLIT_RUNS / 2] * 1e3, SPLIT_RUNS);
	}
}

int
main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : FIXTURES_DIR;
	size_t size = (argc > 2 ? strtoul(argv[2], NULL, 10) : 200) * 1000000;
	struct aiterm_buf corpus = BUF_INIT, plain = BUF_INIT, log = BUF_INIT;
	int cases, rc = EXIT_FAILURE;

	cases = read_corpus(dir, &corpus);
	if (cases <= 0 || corpus.len == 0) {
		fprintf(stderr, "reduce-throughput: no fixtures in %s\n", dir);
		goto out;
	}
	printf("%d cases, %zu bytes, repeated to %zu MB\n", cases, corpus.len,
	    size / 1000000);
	repeat_to(&corpus, size, &log);
	report("terminal output", &log);
	if (argc > 3 && strcmp(argv[3], "split") == 0)
		report_split(&log);
	red_strip(corpus.data, corpus.len, &plain);
	buf_reset(&log);
	repeat_to(&plain, size, &log);
	report("plain text", &log);
	rc = EXIT_SUCCESS;
out:
	buf_free(&corpus);
	buf_free(&plain);
	buf_free(&log);
	return rc;
}
