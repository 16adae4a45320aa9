/* Line counting, the output-to-source line map and log line numbers. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "reduce/lines.h"
#include "util/xmalloc.h"

size_t
red_line_past_middle(const char *in, size_t len)
{
	const char *nl = len > 0 ? memchr(in + len / 2, '\n', len - len / 2) :
	    NULL;

	return nl != NULL && nl + 1 < in + len ? (size_t)(nl + 1 - in) : 0;
}

size_t
red_line_count(const char *in, size_t len)
{
	const char *p = in, *end = in + len, *nl;
	size_t n = 0;

	while (p < end && (nl = memchr(p, '\n', (size_t)(end - p))) != NULL) {
		n++;
		p = nl + 1;
	}
	if (p < end)
		n++;
	return n;
}

/* The CPUs online, asked once (a read of sysfs each time would cost). */
static long
cpus_online(void)
{
	static atomic_long cpus;
	long n = atomic_load(&cpus);

	if (n == 0) {
#ifdef _SC_NPROCESSORS_ONLN
		n = sysconf(_SC_NPROCESSORS_ONLN);
#endif
		if (n < 1)
			n = 1;
		atomic_store(&cpus, n);
	}
	return n;
}

size_t
red_split_at(size_t split)
{
	if (split != 0)
		return split;
	return cpus_online() > 1 ? RED_SPLIT : SIZE_MAX;
}

void
red_linemap_push(struct red_linemap *m, size_t start)
{
	if (m->n == m->cap) {
		m->cap = m->cap == 0 ? 256 : m->cap * 2;
		m->start = xrealloc(m->start, m->cap * sizeof *m->start);
	}
	m->start[m->n++] = start;
}

size_t
red_linemap_first(const struct red_linemap *m, size_t k)
{
	return m->start[k];
}

size_t
red_linemap_last(const struct red_linemap *m, size_t k)
{
	size_t next = k + 1 < m->n ? m->start[k + 1] : m->total;

	return next > m->start[k] ? next - 1 : m->start[k];
}

void
red_linemap_free(struct red_linemap *m)
{
	free(m->start);
	m->start = NULL;
	m->n = m->cap = m->total = 0;
}

void
red_lineno_init(struct red_lineno *ln, unsigned long long base,
    const unsigned long long *line_of, size_t nline_of, size_t nlines)
{
	ln->line_of = line_of != NULL && nline_of == nlines ? line_of : NULL;
	ln->base = base;
}
