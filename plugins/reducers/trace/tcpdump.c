/*
 * tcpdump (plain, -A, -X, -x): connection resets (Flags [R], [R.]) and
 * the packets that carry an HTTP request or status line stay, the line
 * found in the payload written under the packet's own line
 * ("  GET /api/export HTTP/1.1", "  HTTP/1.0 422 Unprocessable Entity");
 * a status of 400 or more brings its body (the payload after the head,
 * or the next data packet the same way) along.  An HTTP line like one
 * shown before (digits aside) folds, and so does every other packet with
 * its payload: each run becomes "[… 57 packets: [.] 30, [P.] 19, ...;
 * HTTP: HTTP/1.0 200 OK 9, ...]".  Lines that are no packet ("reading
 * from file ...", "3 packets captured") stay.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

#define TD_SHAPES	64	/* HTTP line shapes remembered */
#define TD_HTTP_MAX	200	/* bytes of an HTTP line shown */
#define TD_BODY_MAX	300	/* bytes of an error's body shown */

static const char *const td_methods[] = {
	"GET ", "POST ", "PUT ", "DELETE ", "PATCH ", "HEAD ", "OPTIONS ",
	"CONNECT ", "TRACE ", NULL,
};

/* The packet's line: "12:00:01.5 IP a.1 > b.2: Flags [S], ..." */
static bool
td_header(struct rl_line l, struct rl_line *dir, struct rl_line *flags)
{
	const char *ip, *colon, *f, *e;
	size_t lim = l.len < 64 ? l.len : 64;

	if (l.len == 0 || isspace((unsigned char)l.p[0]))
		return false;
	if ((ip = memmem(l.p, lim, "IP ", 3)) == NULL &&
	    (ip = memmem(l.p, lim, "IP6 ", 4)) == NULL)
		return false;
	if (ip != l.p && ip[-1] != ' ')
		return false;
	ip = (const char *)memchr(ip, ' ', (size_t)(l.p + l.len - ip)) + 1;
	if ((colon = memmem(ip, (size_t)(l.p + l.len - ip), ": ", 2)) == NULL ||
	    memmem(ip, (size_t)(colon - ip), " > ", 3) == NULL)
		return false;
	*dir = (struct rl_line){ ip, (size_t)(colon - ip) };
	*flags = (struct rl_line){ colon, 0 };
	if ((f = memmem(colon, (size_t)(l.p + l.len - colon), "Flags [", 7)) !=
	    NULL && (e = memchr(f, ']', (size_t)(l.p + l.len - f))) != NULL)
		*flags = (struct rl_line){ f + 6, (size_t)(e - f) - 5 };
	return true;
}

/* The HTTP request or status line in a payload line, if any. */
static struct rl_line
td_http(struct rl_line l)
{
	const char *p, *e = l.p + l.len, *m;
	size_t i, n;

	for (p = l.p; p < e; p++) {
		if (*p == 'H' && (size_t)(e - p) >= 13 &&
		    memcmp(p, "HTTP/", 5) == 0 && (m = memchr(p, ' ',
		    (size_t)(e - p))) != NULL && m - p <= 8 && e - m >= 4 &&
		    isdigit((unsigned char)m[1]) && isdigit((unsigned char)m[2])
		    && isdigit((unsigned char)m[3]))
			break;
		for (i = 0; td_methods[i] != NULL; i++) {
			n = strlen(td_methods[i]);
			if ((size_t)(e - p) > n + 1 && memcmp(p, td_methods[i],
			    n) == 0 && (p[n] == '/' || p[n] == 'h') &&
			    memmem(p, (size_t)(e - p), " HTTP/", 6) != NULL)
				break;
		}
		if (td_methods[i] != NULL)
			break;
	}
	if (p >= e)
		return (struct rl_line){ e, 0 };
	n = (size_t)(e - p);
	return (struct rl_line){ p, n > TD_HTTP_MAX ? TD_HTTP_MAX : n };
}

/* The status code of an HTTP status line, 0 for a request. */
static int
td_status(struct rl_line s)
{
	const char *m;

	if (!rl_starts(&s, "HTTP/") || (m = memchr(s.p, ' ', s.len)) == NULL)
		return 0;
	return atoi(m + 1);
}

/* The shape of an HTTP line: its text with every digit run as one. */
static unsigned long long
td_shape(struct rl_line s)
{
	unsigned long long h = 14695981039346656037ULL;
	size_t i;

	for (i = 0; i < s.len; i++) {
		if (isdigit((unsigned char)s.p[i])) {
			while (i + 1 < s.len && isdigit((unsigned char)s.p[i + 1]))
				i++;
			h = (h ^ '#') * 1099511628211ULL;
		} else
			h = (h ^ (unsigned char)s.p[i]) * 1099511628211ULL;
	}
	return h;
}

/*
 * A hex dump line ("\t0x0010:  7f00 0001 ...  ascii"): its bytes
 * appended to b (at most cap); false when l is none.
 */
static bool
td_hex(struct rl_line l, unsigned char *b, size_t *n, size_t cap)
{
	const char *p = l.p, *e = l.p + l.len;
	int hi, lo;

	while (p < e && (*p == '\t' || *p == ' '))
		p++;
	if (p == l.p || e - p < 8 || p[0] != '0' || p[1] != 'x')
		return false;
	if ((p = memmem(p, (size_t)(e - p), ":  ", 3)) == NULL)
		return false;
	for (p += 3; p + 1 < e && isxdigit((unsigned char)p[0]) &&
	    isxdigit((unsigned char)p[1]); ) {
		hi = isdigit((unsigned char)p[0]) ? p[0] - '0' :
		    (tolower((unsigned char)p[0]) - 'a' + 10);
		lo = isdigit((unsigned char)p[1]) ? p[1] - '0' :
		    (tolower((unsigned char)p[1]) - 'a' + 10);
		if (*n < cap)
			b[(*n)++] = (unsigned char)(hi << 4 | lo);
		p += 2;
		if (p < e && *p == ' ')
			p++;
		if (p < e && *p == ' ')
			break;
	}
	return true;
}

struct td {
	const struct aiterm_host	*h;
	struct aiterm_buf		*out;
	struct aiterm_buf		*text;	/* payloads decoded from hex */
	unsigned long long		 shapes[TD_SHAPES];
	size_t				 nshapes, lines, folded;
	struct tr_tally			 flags, http;
	struct rl_line			 body_dir;	/* an error's body due */
};

/* The payload of a hex-dumped packet as text lines in td->text. */
static void
td_decode(struct td *d, const unsigned char *b, size_t n, size_t *start)
{
	size_t off = 0, i;
	char c;

	if (n > 0 && b[0] >> 4 != 4 && b[0] >> 4 != 6)
		off = 14;		/* -XX: the link-level header */
	if (off < n && b[off] >> 4 == 4 && off + 20 <= n) {
		i = off + (size_t)(b[off] & 0xf) * 4;
		off = i + 13 <= n && b[off + 9] == 6 ? i + (size_t)(b[i + 12] >>
		    4) * 4 : i + 8;
	} else if (off < n && b[off] >> 4 == 6)
		off += 40 + 20;
	*start = d->h->buf_len(d->text);
	for (i = off; i < n; i++) {
		c = (char)b[i];
		if (c == '\r')
			continue;
		if (c != '\n' && !isprint((unsigned char)c))
			c = '.';
		d->h->buf_add(d->text, &c, 1);
	}
	d->h->buf_add(d->text, "\n", 1);
}

/*
 * -X: the hex rows of the packet (lines [from, to)) whose text column
 * shows where the HTTP line starts, and the row after it, as tcpdump
 * wrote them.
 */
static void
td_put_rows(struct td *d, const struct rl_lines *t, size_t from, size_t to,
    struct rl_line http)
{
	char want[5];
	size_t i, k;

	for (k = 0; k < 4 && k < http.len; k++)
		want[k] = http.p[k] == ' ' ? '.' : http.p[k];
	want[k] = '\0';
	for (i = from; i < to; i++) {
		if (!rl_has(&t->v[i], want))
			continue;
		rl_put(d->h, d->out, &t->v[i]);
		d->lines++;
		if (i + 1 < to) {
			rl_put(d->h, d->out, &t->v[i + 1]);
			d->lines++;
		}
		return;
	}
}

/* Flush the counts of a folded run. */
static void
td_fold_end(struct td *d)
{
	if (d->flags.total == 0)
		return;
	d->h->buf_printf(d->out, "[… %zu packets:", d->flags.total);
	tr_tally_list(d->h, d->out, &d->flags);
	if (d->http.total > 0) {
		d->h->buf_printf(d->out, "; HTTP lines like these:");
		tr_tally_list(d->h, d->out, &d->http);
	}
	d->h->buf_add(d->out, "]\n", 2);
	memset(&d->flags, 0, sizeof d->flags);
	memset(&d->http, 0, sizeof d->http);
	d->lines++;
}

static bool
td_seen(struct td *d, unsigned long long shape)
{
	size_t i;

	for (i = 0; i < d->nshapes; i++)
		if (d->shapes[i] == shape)
			return true;
	if (d->nshapes < TD_SHAPES)
		d->shapes[d->nshapes++] = shape;
	return false;
}

/* Payload lines of one packet: from the input, or decoded. */
struct td_payload {
	struct rl_line	 v[64];
	size_t		 n;
};

static size_t
td_put_body(struct td *d, const struct td_payload *pl, size_t from,
    size_t shown)
{
	struct rl_line l;
	size_t i;

	for (i = from; i < pl->n && shown < 3; i++) {
		l = rl_trim(pl->v[i]);
		if (l.len == 0)
			continue;
		d->h->buf_printf(d->out, "  %.*s\n", (int)(l.len > TD_BODY_MAX ?
		    TD_BODY_MAX : l.len), l.p);
		d->lines++;
		shown++;
	}
	return shown;
}

int
red_tcpdump(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct td d;
	struct tr_shapes shapes;
	struct td_payload pl;
	struct rl_lines t;
	struct rl_line dir, flags, http, l, o;
	unsigned char *bytes = NULL;
	size_t i, j, k, nb, start, pos, packets = 0, blen, rare;
	const char *txt;
	bool keep, hex, body, patterned;
	int rc = -1, st;

	if (!rl_split(in, &t))
		return -1;
	if (!tr_shapes_count(&shapes, &t)) {
		rl_lines_free(&t);
		return -1;
	}
	patterned = tr_shapes_patterned(&shapes);
	memset(&d, 0, sizeof d);
	d.h = h;
	d.out = out;
	if ((d.text = h->buf_new()) == NULL || (bytes = malloc(65536)) == NULL)
		goto out;
	for (i = 0; i < t.n; i = j) {
		if (!td_header(t.v[i], &dir, &flags)) {
			td_fold_end(&d);
			rl_put(h, out, &t.v[i]);
			d.lines++;
			j = i + 1;
			continue;
		}
		packets++;
		/* Its payload lines: decoded from hex, or as printed (-A). */
		pl.n = 0;
		nb = 0;
		hex = false;
		for (j = i + 1; j < t.n && !td_header(t.v[j], &l, &o); j++)
			hex |= td_hex(t.v[j], bytes, &nb, 65536);
		if (hex) {
			td_decode(&d, bytes, nb, &start);
			txt = h->buf_data(d.text);
			blen = h->buf_len(d.text);
			for (pos = start; pl.n < 64 && rl_next(txt, blen, &pos,
			    &pl.v[pl.n]); )
				pl.n++;
		} else
			for (k = i + 1; k < j && pl.n < 64; k++)
				pl.v[pl.n++] = t.v[k];
		http = (struct rl_line){ NULL, 0 };
		for (k = 0; k < pl.n && http.len == 0; k++)
			http = td_http(pl.v[k]);
		st = http.len > 0 ? td_status(http) : 0;
		body = http.len == 0 && d.body_dir.len > 0 &&
		    d.body_dir.len == dir.len && memcmp(d.body_dir.p, dir.p,
		    dir.len) == 0 && pl.n > 0 && !rl_has(&t.v[i], "length 0");
		/* -A: payload lines of a shape rare among patterned ones. */
		for (k = i + 1, rare = 0; patterned && !hex && k < j; k++)
			if (!rl_blank(&t.v[k]) && tr_shapes_get(&shapes,
			    tr_shape(t.v[k].p, t.v[k].len)) == 1)
				rare++;
		keep = memchr(flags.p, 'R', flags.len) != NULL || body ||
		    rare > 0 ||
		    (http.len > 0 && !td_seen(&d, td_shape(http))) ||
		    (patterned && tr_shapes_get(&shapes, tr_shape(t.v[i].p,
		    t.v[i].len)) == 1);
		if (!keep) {
			tr_tally_add(&d.flags, flags.p, flags.len);
			if (http.len > 0)
				tr_tally_add_key(&d.http, http.p, http.len,
				    td_shape(http));
			d.folded++;
			continue;
		}
		td_fold_end(&d);
		rl_put(h, out, &t.v[i]);
		d.lines++;
		if (http.len > 0 && hex)
			td_put_rows(&d, &t, i + 1, j, http);
		/* The rare lines as tcpdump wrote them (the HTTP line too). */
		for (k = i + 1; rare > 0 && k < j; k++) {
			if (rl_blank(&t.v[k]) || tr_shapes_get(&shapes,
			    tr_shape(t.v[k].p, t.v[k].len)) != 1)
				continue;
			rl_put(h, out, &t.v[k]);
			d.lines++;
			if (http.len > 0 && http.p >= t.v[k].p && http.p <
			    t.v[k].p + t.v[k].len)
				http.len = 0;
		}
		if (http.len > 0) {
			h->buf_printf(out, "  %.*s\n", (int)http.len, http.p);
			d.lines++;
		}
		if (body) {
			/* -A: the payload is the packet's last bytes. */
			td_put_body(&d, &pl, hex || pl.n < 2 ? 0 : 1, 0);
			d.body_dir.len = 0;
		} else if (st >= 400) {
			/* The body after the head, or in the next packet. */
			for (k = 0; k < pl.n && !rl_blank(&pl.v[k]); k++)
				;
			if (td_put_body(&d, &pl, k + 1, 0) == 0)
				d.body_dir = dir;
		}
	}
	td_fold_end(&d);
	if (packets > 0 && d.folded > 0 && d.lines <= rl_budget(in))
		rc = 0;
out:
	if (d.text != NULL)
		h->buf_free(d.text);
	free(bytes);
	tr_shapes_free(&shapes);
	rl_lines_free(&t);
	return rc;
}
