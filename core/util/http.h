/*
 * A strict, tiny HTTP/1.1 request reader for the secret page (issue 36,
 * ADR 0037): one request per connection, no keep-alive, no chunked
 * bodies, small limits.  Anything else is refused, never guessed at.
 */
#ifndef AITERM_HTTP_H
#define AITERM_HTTP_H

#include <stddef.h>

#define HTTP_HEAD_MAX	8192	/* request line and headers */
#define HTTP_BODY_MAX	4096
#define HTTP_HEADERS	32

struct http_header {
	const char	*name;		/* lower-cased in place */
	const char	*value;		/* blanks around it cut */
};

struct http_request {
	const char		*method;
	const char		*target;
	struct http_header	 headers[HTTP_HEADERS];
	size_t			 nheaders;
	const char		*body;		/* NUL-terminated, len bytes */
	size_t			 body_len;
};

/*
 * Parse buf[0..len) (buf holds one spare byte past len; the parser writes
 * NULs into it).  0: more bytes are needed; 1: req is whole; -1: a bad
 * request, *status the HTTP status to answer (400, 411, 413, 431, 501,
 * 505).
 */
int		 http_parse(char *buf, size_t len, struct http_request *req,
		    int *status);
/* The value of header name (lower case), or NULL; NULL also if repeated. */
const char	*http_header(const struct http_request *req, const char *name);
/*
 * The value of field name in an application/x-www-form-urlencoded body,
 * decoded into out (at most size - 1 bytes, NUL-terminated).  Returns its
 * length, or -1 when it is missing, repeated, too long or badly encoded.
 */
long		 http_form_field(const char *body, size_t len, const char *name,
		    char *out, size_t size);

#endif
