/* Streaming OSC 133 mark parser (see osc133.h). */
#include <limits.h>
#include <string.h>

#include "shell/osc133.h"

#define ESC	0x1b
#define BEL	0x07
#define CAN	0x18
#define SUB	0x1a

enum {
	OSC133_GROUND,		/* plain output */
	OSC133_ESC,		/* after ESC */
	OSC133_BODY,		/* after ESC ], reading the body */
	OSC133_BODY_ESC,	/* ESC inside the body: ST if '\' follows */
};

#define PREFIX		"133;"
#define TOKEN_KEY	"aiterm="

void
osc133_init(struct osc133_parser *p)
{
	memset(p, 0, sizeof *p);
	p->state = OSC133_GROUND;
}

static bool
is_token_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
}

/* Parse a decimal int, all of s[0..len); false if it is not one. */
static bool
parse_int(const char *s, size_t len, int *value)
{
	long long v = 0;
	bool neg = false;
	size_t i = 0;

	if (len > 0 && s[0] == '-') {
		neg = true;
		i = 1;
	}
	if (i == len || len - i > 10)
		return false;
	for (; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (s[i] - '0');
	}
	if (neg)
		v = -v;
	if (v < INT_MIN || v > INT_MAX)
		return false;
	*value = (int)v;
	return true;
}

static void
parse_token(const char *s, size_t len, struct osc133_mark *mark)
{
	size_t i;

	if (len == 0 || len > OSC133_TOKEN_MAX)
		return;
	for (i = 0; i < len; i++) {
		if (!is_token_char(s[i]))
			return;
	}
	memcpy(mark->token, s, len);
	mark->token[len] = '\0';
}

/* Parse a complete body ("133;D;0;aiterm=x"); false if it is no mark. */
static bool
parse_body(const char *body, size_t len, struct osc133_mark *mark)
{
	size_t pos, field_len, index = 0;
	const char *field, *semi;

	if (len < sizeof PREFIX || memcmp(body, PREFIX, sizeof PREFIX - 1) != 0)
		return false;
	pos = sizeof PREFIX - 1;
	mark->has_exit = false;
	mark->exit_code = 0;
	mark->token[0] = '\0';
	while (pos <= len) {
		field = body + pos;
		semi = memchr(field, ';', len - pos);
		field_len = semi == NULL ? len - pos : (size_t)(semi - field);
		if (index == 0) {
			if (field_len != 1 || field[0] < 'A' || field[0] > 'D')
				return false;
			mark->kind = field[0];
		} else if (index == 1 && mark->kind == 'D' &&
		    parse_int(field, field_len, &mark->exit_code))
			mark->has_exit = true;
		else if (field_len > sizeof TOKEN_KEY - 1 &&
		    memcmp(field, TOKEN_KEY, sizeof TOKEN_KEY - 1) == 0)
			parse_token(field + sizeof TOKEN_KEY - 1,
			    field_len - (sizeof TOKEN_KEY - 1), mark);
		index++;
		pos += field_len + 1;
	}
	return true;
}

static void
body_add(struct osc133_parser *p, unsigned char c)
{
	if (p->overflow)
		return;
	if (p->len == OSC133_BODY_MAX) {
		p->overflow = true;
		return;
	}
	p->body[p->len++] = (char)c;
	/* Stop keeping bodies that are not OSC 133 as soon as that is known. */
	if (p->len <= sizeof PREFIX - 1 &&
	    p->body[p->len - 1] != PREFIX[p->len - 1])
		p->overflow = true;
}

/* A sequence ended at the byte just read; true if it was a mark. */
static bool
finish(struct osc133_parser *p, struct osc133_mark *mark)
{
	p->state = OSC133_GROUND;
	if (p->overflow || !parse_body(p->body, p->len, mark))
		return false;
	mark->start = p->start;
	mark->end = p->offset;
	return true;
}

static void
begin_escape(struct osc133_parser *p)
{
	p->state = OSC133_ESC;
	p->start = p->offset - 1;
}

bool
osc133_feed(struct osc133_parser *p, const void *data, size_t len,
    size_t *used, struct osc133_mark *mark)
{
	const unsigned char *s = data, *esc;
	size_t i = 0;
	unsigned char c;

	while (i < len) {
		if (p->state == OSC133_GROUND) {
			esc = memchr(s + i, ESC, len - i);
			if (esc == NULL) {
				p->offset += len - i;
				i = len;
				break;
			}
			p->offset += (size_t)(esc - (s + i));
			i = (size_t)(esc - s);
		}
		c = s[i++];
		p->offset++;
		switch (p->state) {
		case OSC133_GROUND:
			begin_escape(p);
			break;
		case OSC133_ESC:
			if (c == ']') {
				p->state = OSC133_BODY;
				p->len = 0;
				p->overflow = false;
			} else if (c == ESC)
				begin_escape(p);
			else
				p->state = OSC133_GROUND;
			break;
		case OSC133_BODY:
			if (c == BEL) {
				if (finish(p, mark)) {
					*used = i;
					return true;
				}
			} else if (c == ESC)
				p->state = OSC133_BODY_ESC;
			else if (c == CAN || c == SUB)
				p->state = OSC133_GROUND;
			else
				body_add(p, c);
			break;
		case OSC133_BODY_ESC:
			if (c == '\\') {
				if (finish(p, mark)) {
					*used = i;
					return true;
				}
			} else if (c == ']') {
				/* The ESC cancelled the body and opened a new OSC. */
				p->start = p->offset - 2;
				p->state = OSC133_BODY;
				p->len = 0;
				p->overflow = false;
			} else if (c == ESC)
				begin_escape(p);
			else
				p->state = OSC133_GROUND;
			break;
		}
	}
	*used = i;
	return false;
}
