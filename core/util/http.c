#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/http.h"

/* A token character of RFC 9110 (method and header names). */
static bool
tchar(int c)
{
	return isalnum(c) || (c != '\0' && strchr("!#$%&'*+-.^_`|~", c) !=
	    NULL);
}

static int
fail(int *status, int code)
{
	*status = code;
	return -1;
}

/* One header line (NUL-terminated, no CRLF) into req. */
static int
header_line(char *line, struct http_request *req, int *status)
{
	char *colon = strchr(line, ':'), *p, *end;

	if (colon == NULL || colon == line)
		return fail(status, 400);
	for (p = line; p < colon; p++) {
		if (!tchar((unsigned char)*p))
			return fail(status, 400);
		*p = (char)tolower((unsigned char)*p);
	}
	*colon = '\0';
	for (p = colon + 1; *p == ' ' || *p == '\t'; p++)
		;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	for (end = p; *end != '\0'; end++) {
		if ((unsigned char)*end < 0x20 && *end != '\t')
			return fail(status, 400);
	}
	if (req->nheaders == HTTP_HEADERS)
		return fail(status, 431);
	req->headers[req->nheaders].name = line;
	req->headers[req->nheaders++].value = p;
	return 0;
}

/* The request line: METHOD SP target SP HTTP/1.1. */
static int
request_line(char *line, struct http_request *req, int *status)
{
	char *sp1 = strchr(line, ' '), *sp2, *p;

	if (sp1 == NULL || (sp2 = strchr(sp1 + 1, ' ')) == NULL ||
	    strchr(sp2 + 1, ' ') != NULL)
		return fail(status, 400);
	*sp1 = *sp2 = '\0';
	for (p = line; *p != '\0'; p++) {
		if (!tchar((unsigned char)*p))
			return fail(status, 400);
	}
	if (sp1 == line || sp1[1] != '/')
		return fail(status, 400);
	for (p = sp1 + 1; *p != '\0'; p++) {
		if ((unsigned char)*p <= 0x20 || (unsigned char)*p >= 0x7f)
			return fail(status, 400);
	}
	if (strcmp(sp2 + 1, "HTTP/1.1") != 0 && strcmp(sp2 + 1,
	    "HTTP/1.0") != 0)
		return fail(status, 505);
	req->method = line;
	req->target = sp1 + 1;
	return 0;
}

int
http_parse(char *buf, size_t len, struct http_request *req, int *status)
{
	char *end, *line, *eol, *cl;
	size_t head, want;
	long n;
	int rc;

	memset(req, 0, sizeof *req);
	buf[len] = '\0';
	if (memchr(buf, '\0', len) != NULL)
		return fail(status, 400);
	if ((end = strstr(buf, "\r\n\r\n")) == NULL)
		return len > HTTP_HEAD_MAX ? fail(status, 431) : 0;
	head = (size_t)(end - buf) + 4;
	if (head > HTTP_HEAD_MAX)
		return fail(status, 431);
	/* Headers end here; the body starts past the blank line. */
	end[2] = '\0';
	for (line = buf; *line != '\0'; line = eol + 2) {
		if ((eol = strstr(line, "\r\n")) == NULL)
			return fail(status, 400);
		*eol = '\0';
		if (memchr(line, '\n', (size_t)(eol - line)) != NULL ||
		    memchr(line, '\r', (size_t)(eol - line)) != NULL)
			return fail(status, 400);
		rc = req->method == NULL ? request_line(line, req, status) :
		    header_line(line, req, status);
		if (rc != 0)
			return -1;
	}
	if (req->method == NULL)
		return fail(status, 400);
	if (http_header(req, "transfer-encoding") != NULL)
		return fail(status, 501);
	want = 0;
	if ((cl = (char *)http_header(req, "content-length")) != NULL) {
		if (*cl == '\0' || strspn(cl, "0123456789") != strlen(cl) ||
		    strlen(cl) > 6)
			return fail(status, 400);
		n = strtol(cl, NULL, 10);
		if (n > HTTP_BODY_MAX)
			return fail(status, 413);
		want = (size_t)n;
	} else if (strcmp(req->method, "POST") == 0)
		return fail(status, 411);
	if (len - head < want)
		return 0;
	if (len - head > want)
		return fail(status, 400);	/* no pipelining */
	req->body = buf + head;
	req->body_len = want;
	return 1;
}

const char *
http_header(const struct http_request *req, const char *name)
{
	const char *found = NULL;
	size_t i;

	for (i = 0; i < req->nheaders; i++) {
		if (strcmp(req->headers[i].name, name) != 0)
			continue;
		if (found != NULL)
			return NULL;
		found = req->headers[i].value;
	}
	return found;
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode one field's value [p, end) into out. */
static long
form_decode(const char *p, const char *end, char *out, size_t size)
{
	size_t n = 0;
	int hi, lo;

	for (; p < end; p++) {
		if (n + 1 >= size)
			return -1;
		if (*p == '+')
			out[n++] = ' ';
		else if (*p != '%')
			out[n++] = *p;
		else if (end - p < 3 || (hi = hexval((unsigned char)p[1])) < 0 ||
		    (lo = hexval((unsigned char)p[2])) < 0)
			return -1;
		else {
			out[n++] = (char)(hi << 4 | lo);
			p += 2;
		}
	}
	out[n] = '\0';
	return (long)n;
}

long
http_form_field(const char *body, size_t len, const char *name, char *out,
    size_t size)
{
	const char *p = body, *end = body + len, *amp, *eq;
	size_t nlen = strlen(name);
	long got = -1;

	while (p < end) {
		amp = memchr(p, '&', (size_t)(end - p));
		if (amp == NULL)
			amp = end;
		eq = memchr(p, '=', (size_t)(amp - p));
		if (eq != NULL && (size_t)(eq - p) == nlen &&
		    memcmp(p, name, nlen) == 0) {
			if (got >= 0)
				return -1;
			if ((got = form_decode(eq + 1, amp, out, size)) < 0)
				return -1;
		}
		p = amp + 1;
	}
	return got;
}
