/*
 * struct aiterm_buf: a growable byte buffer, always NUL-terminated so its
 * data can be used as a string.  Also the buffer plugins fill through the
 * host table.
 */
#ifndef AITERM_BUF_H
#define AITERM_BUF_H

#include <stdarg.h>
#include <stddef.h>

struct aiterm_buf {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

#define BUF_INIT { NULL, 0, 0 }

void	 buf_add(struct aiterm_buf *b, const void *data, size_t len);
void	 buf_adds(struct aiterm_buf *b, const char *s);
void	 buf_addc(struct aiterm_buf *b, char c);
/* s quoted for a POSIX shell: in single quotes, a quote as '\''. */
void	 buf_add_sq(struct aiterm_buf *b, const char *s);
/* s as one shell word: bare when it is all [A-Za-z0-9_./:@%+=,-], else quoted. */
void	 buf_add_word(struct aiterm_buf *b, const char *s);
void	 buf_printf(struct aiterm_buf *b, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
void	 buf_vprintf(struct aiterm_buf *b, const char *fmt, va_list ap)
	    __attribute__((format(printf, 2, 0)));
/*
 * An empty buffer with room for cap bytes at once, taken as a large block
 * (xmalloc_large: huge pages where they help): for a text the size of
 * what it is made from, which then rarely grows.
 */
void	 buf_init_large(struct aiterm_buf *b, size_t cap);
const char *buf_str(const struct aiterm_buf *b);
void	 buf_reset(struct aiterm_buf *b);
/* Hand the data to the caller (who frees it); the buffer is emptied. */
char	*buf_steal(struct aiterm_buf *b, size_t *len);
void	 buf_free(struct aiterm_buf *b);

#endif
