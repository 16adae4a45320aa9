#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/xmalloc.h"

static void
buf_reserve(struct aiterm_buf *b, size_t more)
{
	size_t need = b->len + more + 1;
	size_t cap;

	if (need <= b->cap)
		return;
	cap = b->cap == 0 ? 64 : b->cap;
	while (cap < need)
		cap *= 2;
	b->data = xrealloc(b->data, cap);
	b->cap = cap;
}

void
buf_init_large(struct aiterm_buf *b, size_t cap)
{
	b->data = xmalloc_large(cap + 1);
	b->data[0] = '\0';
	b->cap = cap + 1;
	b->len = 0;
}

void
buf_add(struct aiterm_buf *b, const void *data, size_t len)
{
	buf_reserve(b, len);
	if (len > 0)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

void
buf_adds(struct aiterm_buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_addc(struct aiterm_buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_vprintf(struct aiterm_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	int n;

	va_copy(ap2, ap);
	n = vsnprintf(NULL, 0, fmt, ap2);
	va_end(ap2);
	if (n < 0)
		return;
	buf_reserve(b, (size_t)n);
	vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
	b->len += (size_t)n;
}

void
buf_printf(struct aiterm_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

const char *
buf_str(const struct aiterm_buf *b)
{
	return b->data == NULL ? "" : b->data;
}

void
buf_reset(struct aiterm_buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

char *
buf_steal(struct aiterm_buf *b, size_t *len)
{
	char *p;

	if (b->data == NULL)
		buf_reserve(b, 0), b->data[0] = '\0';
	p = b->data;
	if (len != NULL)
		*len = b->len;
	b->data = NULL;
	b->len = b->cap = 0;
	return p;
}

void
buf_free(struct aiterm_buf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->cap = 0;
}

void
buf_add_sq(struct aiterm_buf *b, const char *s)
{
	buf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
}

void
buf_add_word(struct aiterm_buf *b, const char *s)
{
	size_t n = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_./:@%+=,-");

	if (n > 0 && s[n] == '\0')
		buf_adds(b, s);
	else
		buf_add_sq(b, s);
}
