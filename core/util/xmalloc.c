#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/xmalloc.h"

static void
oom(size_t size)
{
	fprintf(stderr, "aiterm: out of memory allocating %zu bytes\n", size);
	abort();
}

void *
xmalloc(size_t size)
{
	void *p = malloc(size == 0 ? 1 : size);

	if (p == NULL)
		oom(size);
	return p;
}

void *
xcalloc(size_t n, size_t size)
{
	void *p = calloc(n == 0 ? 1 : n, size == 0 ? 1 : size);

	if (p == NULL)
		oom(n * size);
	return p;
}

void *
xrealloc(void *ptr, size_t size)
{
	void *p = realloc(ptr, size == 0 ? 1 : size);

	if (p == NULL)
		oom(size);
	return p;
}

/* The huge page size of x86-64 and arm64 Linux. */
#define HUGE_PAGE	((uintptr_t)2 << 20)

void *
xmalloc_large(size_t size)
{
	void *p = xmalloc(size);
#ifdef MADV_HUGEPAGE
	uintptr_t from, to;

	if (size >= XMALLOC_LARGE) {
		from = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
		to = ((uintptr_t)p + size) & ~(HUGE_PAGE - 1);
		if (to > from)
			(void)madvise((void *)from, to - from, MADV_HUGEPAGE);
	}
#endif
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		oom(strlen(fmt));
	return s;
}

char *
xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvasprintf(fmt, ap);
	va_end(ap);
	return s;
}
