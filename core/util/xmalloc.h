/* Allocation that never returns NULL: out of memory aborts. */
#ifndef AITERM_XMALLOC_H
#define AITERM_XMALLOC_H

#include <stdarg.h>
#include <stddef.h>

void	*xmalloc(size_t size);
void	*xcalloc(size_t n, size_t size);
void	*xrealloc(void *ptr, size_t size);
/*
 * xmalloc for a large buffer that is about to be filled: from
 * XMALLOC_LARGE bytes on, Linux is asked to back it with huge pages
 * (madvise MADV_HUGEPAGE; elsewhere, or when refused, plain pages), which
 * saves most of the page faults and TLB misses of the passes over it.
 */
#define XMALLOC_LARGE	((size_t)8 << 20)
void	*xmalloc_large(size_t size);
char	*xstrdup(const char *s);
char	*xstrndup(const char *s, size_t n);
char	*xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
char	*xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
