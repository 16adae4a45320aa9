/*
 * Logs: journalctl, dmesg, and log files shown with tail, cat or less
 * (/var/log/..., *.log).  Every distinct line stays, in order; lines that
 * repeat are folded into their first occurrence.
 *
 * - Two lines are alike when they differ only in the leading timestamp
 *   ("Jun 14 02:58:05 ", "2024-06-14T08:00:03.120+0000 ", "[ 12.5] ")
 *   and in what looks like a counter or an id: a [pid], a number of four
 *   digits or more, a decimal or a clock time, a number with a unit
 *   ("7 ms", "30s", "94ms"), a "key=" value (but not status=, code=,
 *   signal=, version= ...), a long hex id, the bytes of a hex dump.
 *   Versions and addresses ("2.15.0", "10.0.3.12:5432") and small
 *   numbers ("restart counter is at 5") stay significant.
 * - The first line of each kind is shown as it was, followed by
 *   "  [+817 similar, last Jun 14 04:10:00]" (or "+45 same" when the
 *   others were identical but for the timestamp).
 * - When more kinds are left than fit, the ones that say something went
 *   wrong or changed state (error, fail, warn, denied, segfault, link is
 *   down, started, stopped, restart ..., an access log's 5xx status) all
 *   stay and the others are cut
 *   to the first and last few, with "… N lines left out" in each gap.
 * - Blank lines are left out.  Output where nothing repeats is declined;
 *   for tail/cat/less also output that is not timestamped lines (or an
 *   access log's, with the time after the client), or a file argument
 *   that does not look like a log.
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sys.h"

#define LOG_SOFT_LINES	60	/* kinds shown before ordinary ones are cut */

/* Units after a number that make it a measurement. */
static const char *const log_units[] = {
	"ms", "s", "us", "ns", "m", "h", "d", "min", "sec", "secs", "K", "M",
	"G", "T", "B", "k", "KB", "MB", "GB", "TB", "kB", "KiB", "MiB", "GiB",
	"%", "x", "Mbps", "MHz", "rps", NULL,
};

/* Keys whose numeric value is a fact, not a counter. */
static const char *const log_exact_keys[] = {
	"status", "code", "exit", "exit_code", "rc", "signal", "sig", "version",
	"ver", "result", "severity", "level", "priority", "errno", NULL,
};

/* Words of a line that says something went wrong or changed state. */
static const char *const log_alarms[] = {
	"error", "fail", "fatal", "panic", "crit", "emerg", "alert", "warn",
	"denied", "refused", "segfault", "killed", "oom", "out of memory",
	"timeout", "timed out", "unavailable", "abort", "exception",
	"traceback", "disconnect", "read-only", "link is", "down", "restart",
	"reset", "exited", "stopped", "started", "stopping", "unexpected",
	"invalid", "corrupt", "reconnect", "firing", "resolved", "cannot",
	"unable", "not found", "no such", "oops", "bug:", "call trace",
	NULL,
};

struct log_group {
	size_t	koff, klen;	/* the key in the key buffer */
	size_t	first, last;	/* line indexes */
	size_t	count;
	bool	same;		/* all alike but for the timestamp */
	bool	alarm;
	bool	keep;
};

static bool
is_alnum(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static bool
is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool
is_hex(char c)
{
	return isxdigit((unsigned char)c) != 0;
}

static bool
digits(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!is_digit(p[i]))
			return false;
	}
	return true;
}

/* "08:00:03" at p (n bytes left). */
static bool
clock_at(const char *p, size_t n)
{
	return n >= 8 && digits(p, 2) && p[2] == ':' && digits(p + 3, 2) &&
	    p[5] == ':' && digits(p + 6, 2);
}

/* Past a fraction ".123" or ",123" at p[*i]. */
static void
skip_fraction(const char *p, size_t n, size_t *i)
{
	if (*i + 1 < n && (p[*i] == '.' || p[*i] == ',') &&
	    is_digit(p[*i + 1])) {
		for (*i += 1; *i < n && is_digit(p[*i]); (*i)++)
			;
	}
}

static size_t
stamp_syslog(const char *p, size_t n)
{
	size_t i = 15;

	if (n < 16 || !isupper((unsigned char)p[0]) ||
	    !islower((unsigned char)p[1]) || !islower((unsigned char)p[2]) ||
	    p[3] != ' ' || (p[4] != ' ' && !is_digit(p[4])) ||
	    !is_digit(p[5]) || p[6] != ' ' || !clock_at(p + 7, n - 7))
		return 0;
	skip_fraction(p, n, &i);
	return i < n && p[i] == ' ' ? i + 1 : 0;
}

static size_t
stamp_iso(const char *p, size_t n)
{
	size_t i = 19;

	if (n < 20 || !digits(p, 4) || p[4] != '-' || !digits(p + 5, 2) ||
	    p[7] != '-' || !digits(p + 8, 2) || (p[10] != 'T' &&
	    p[10] != ' ') || !clock_at(p + 11, n - 11))
		return 0;
	skip_fraction(p, n, &i);
	if (i < n && p[i] == 'Z')
		i++;
	else if (i + 4 < n && (p[i] == '+' || p[i] == '-') &&
	    is_digit(p[i + 1])) {
		for (i++; i < n && (is_digit(p[i]) || p[i] == ':'); i++)
			;
	}
	return i < n && p[i] == ' ' ? i + 1 : 0;
}

/* "[   12.345678] " or "[Fri Jun 14 08:00:03 2024] " (dmesg, dmesg -T). */
static size_t
stamp_bracket(const char *p, size_t n)
{
	const char *close;
	size_t i, len;
	bool digit = false, clock = false, other = false;

	if (n < 3 || p[0] != '[')
		return 0;
	if ((close = memchr(p, ']', n < 40 ? n : 40)) == NULL)
		return 0;
	len = (size_t)(close - p);
	for (i = 1; i < len; i++) {
		if (clock_at(p + i, len - i))
			clock = true;
		if (is_digit(p[i]))
			digit = true;
		else if (p[i] != ' ' && p[i] != '.')
			other = true;
	}
	if (!(digit && !other) && !clock)
		return 0;
	return len + 1 < n && p[len + 1] == ' ' ? len + 2 : len + 1;
}

/* The length of a leading timestamp and the blank after it, or 0. */
static size_t
stamp_len(struct rl_line l)
{
	size_t n;

	if ((n = stamp_syslog(l.p, l.len)) == 0 &&
	    (n = stamp_iso(l.p, l.len)) == 0)
		n = stamp_bracket(l.p, l.len);
	return n;
}

/*
 * An access log's line (nginx, Apache combined and common formats): the
 * time comes after the client, "1.2.3.4 - - [14/Jun/2024:08:00:03 +0000]".
 */
static bool
access_line(struct rl_line l)
{
	const char *p = memmem(l.p, l.len < 80 ? l.len : 80, " [", 2);
	size_t n;

	if (p == NULL)
		return false;
	p += 2;
	n = (size_t)(l.p + l.len - p);
	return n > 20 && digits(p, 2) && p[2] == '/' &&
	    isalpha((unsigned char)p[3]) && p[6] == '/' && digits(p + 7, 4) &&
	    p[11] == ':' && clock_at(p + 12, n - 12);
}

static bool
in_list(const char *const *list, const char *p, size_t n)
{
	size_t i;

	for (i = 0; list[i] != NULL; i++) {
		if (strlen(list[i]) == n && memcmp(list[i], p, n) == 0)
			return true;
	}
	return false;
}

/* Whether the "key=" before p (line start at begin) is an exact key. */
static bool
exact_key(const char *begin, const char *p)
{
	const char *k = p - 1;

	while (k > begin && (is_alnum(k[-1]) || k[-1] == '-'))
		k--;
	return in_list(log_exact_keys, k, (size_t)(p - 1 - k));
}

/* A word of two hex digits at p, ending there (a hex dump's byte). */
static bool
hex_byte(const char *p, const char *end)
{
	return end - p >= 2 && is_hex(p[0]) && is_hex(p[1]) &&
	    (end - p == 2 || !is_alnum(p[2]));
}

static size_t
word_len(const char *p, const char *end)
{
	const char *q = p;

	while (q < end && is_alnum(*q))
		q++;
	return (size_t)(q - p);
}

/* A whole word of hex digits with at least one digit, or 0x.... */
static bool
hex_id(const char *p, size_t w)
{
	size_t i;
	bool digit = false;

	if (w > 2 && p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		p += 2;
		w -= 2;
	} else if (w < 6)
		return false;
	for (i = 0; i < w; i++) {
		if (!is_hex(p[i]))
			return false;
		digit = digit || is_digit(p[i]);
	}
	return digit;
}

/*
 * A number at p (a word start): appended to key as "#" when it looks
 * like a counter, else as it is.  Returns the bytes consumed.
 */
static size_t
mask_number(const struct aiterm_host *h, struct aiterm_buf *key,
    const char *begin, const char *p, const char *end)
{
	const char *q = p, *u;
	size_t ndig = 0, dots = 0, colons = 0;
	bool mask;

	while (q < end && (is_digit(*q) || ((*q == '.' || *q == ':') &&
	    q + 1 < end && is_digit(q[1])))) {
		if (*q == '.')
			dots++;
		else if (*q == ':')
			colons++;
		else
			ndig++;
		q++;
	}
	for (u = q; u < end && (isalpha((unsigned char)*u) || *u == '%'); u++)
		;
	if (u > q) {
		if (dots < 2 && in_list(log_units, q, (size_t)(u - q)) &&
		    (u == end || !is_alnum(*u))) {
			h->buf_add(key, "#", 1);
			return (size_t)(q - p);
		}
		/* Part of a word ("2nd", "0x1f"): as it is. */
		u = q + word_len(q, end);
		h->buf_add(key, p, (size_t)(u - p));
		return (size_t)(u - p);
	}
	if (dots >= 2)
		mask = false;
	else if (colons > 0 || dots == 1 || ndig >= 4)
		mask = true;
	else if (p > begin && p[-1] == '=')
		mask = !exact_key(begin, p);
	else if (q + 1 < end && *q == ' ') {
		u = q + 1 + word_len(q + 1, end);
		mask = u > q + 1 && in_list(log_units, q + 1,
		    (size_t)(u - q - 1));
	} else
		mask = false;
	if (mask)
		h->buf_add(key, "#", 1);
	else
		h->buf_add(key, p, (size_t)(q - p));
	return (size_t)(q - p);
}

/* The key of a message (a line without its timestamp). */
static void
mask_line(const struct aiterm_host *h, struct aiterm_buf *key,
    const char *p, size_t len)
{
	const char *begin = p, *end = p + len, *q;
	size_t w;
	bool byte = false;

	while (p < end) {
		if (*p == '[') {
			for (q = p + 1; q < end && (is_digit(*q) || *q == ' ' ||
			    *q == '.'); q++)
				;
			if (q < end && *q == ']' && q > p + 1 && is_digit(q[-1])) {
				h->buf_add(key, "[#]", 3);
				p = q + 1;
				continue;
			}
		}
		if (!is_alnum(*p) || (p > begin && is_alnum(p[-1]))) {
			h->buf_add(key, p, 1);
			p++;
			continue;
		}
		w = word_len(p, end);
		if (w == 2 && hex_byte(p, end) && (byte || (p + 3 < end &&
		    p[2] == ' ' && hex_byte(p + 3, end)))) {
			h->buf_add(key, "#", 1);
			p += 2;
			byte = true;
			continue;
		}
		byte = false;
		if (hex_id(p, w)) {
			h->buf_add(key, "#", 1);
			p += w;
		} else if (is_digit(*p))
			p += mask_number(h, key, begin, p, end);
		else {
			h->buf_add(key, p, w);
			p += w;
		}
	}
}

static bool
has_ci(const char *p, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++) {
		if (strncasecmp(p + i, needle, n) == 0)
			return true;
	}
	return false;
}

/*
 * An access log's server error: the status after the quoted request
 * ("GET /x HTTP/1.1" 502 0) is 5xx, in nginx and Apache formats alike.
 */
static bool
server_error(const char *p, size_t len)
{
	const char *end = p + len, *q = p;

	while ((q = memmem(q, (size_t)(end - q), " HTTP/", 6)) != NULL) {
		q += 6;
		while (q < end && *q != '"' && *q != ' ')
			q++;
		if (end - q >= 6 && q[0] == '"' && q[1] == ' ' &&
		    q[2] == '5' && is_digit(q[3]) && is_digit(q[4]) &&
		    (end - q == 5 || q[5] == ' '))
			return true;
	}
	return false;
}

static bool
alarm_line(const char *p, size_t len)
{
	size_t i;

	if (server_error(p, len))
		return true;
	for (i = 0; log_alarms[i] != NULL; i++) {
		if (has_ci(p, len, log_alarms[i]))
			return true;
	}
	return false;
}

static uint64_t
hash(const char *p, size_t n)
{
	uint64_t v = 1469598103934665603ULL;
	size_t i;

	for (i = 0; i < n; i++) {
		v ^= (unsigned char)p[i];
		v *= 1099511628211ULL;
	}
	return v;
}

struct log_state {
	const struct aiterm_host *h;
	const struct rl_lines	*t;
	struct aiterm_buf	*keys;
	struct log_group	*g;
	size_t			 ng;
	size_t			*slot;	/* group index + 1, 0 when empty */
	size_t			 nslot;
	size_t			*group_of; /* per line, SIZE_MAX for blanks */
};

/* Put line i into its group (a new one when its key is new). */
static void
add_line(struct log_state *s, size_t i)
{
	struct rl_line l = s->t->v[i], m, fm;
	struct log_group *gr;
	const char *keys;
	size_t koff, klen, k;

	m = rl_from(l, stamp_len(l));
	koff = s->h->buf_len(s->keys);
	mask_line(s->h, s->keys, m.p, m.len);
	klen = s->h->buf_len(s->keys) - koff;
	keys = s->h->buf_data(s->keys);
	k = hash(keys + koff, klen) & (s->nslot - 1);
	for (; s->slot[k] != 0; k = (k + 1) & (s->nslot - 1)) {
		gr = &s->g[s->slot[k] - 1];
		if (gr->klen != klen || memcmp(keys + gr->koff, keys + koff,
		    klen) != 0)
			continue;
		gr->count++;
		gr->last = i;
		fm = s->t->v[gr->first];
		fm = rl_from(fm, stamp_len(fm));
		if (fm.len != m.len || memcmp(fm.p, m.p, m.len) != 0)
			gr->same = false;
		s->group_of[i] = s->slot[k] - 1;
		return;
	}
	gr = &s->g[s->ng];
	gr->koff = koff;
	gr->klen = klen;
	gr->first = gr->last = i;
	gr->count = 1;
	gr->same = true;
	gr->alarm = alarm_line(m.p, m.len);
	gr->keep = true;
	s->group_of[i] = s->ng;
	s->slot[k] = ++s->ng;
}

/*
 * Choose the groups shown when more than fit: every alarm, and the first
 * and last ordinary ones.  Returns whether any was left out.
 */
static bool
choose(struct log_state *s, size_t budget)
{
	size_t i, alarms = 0, plain, avail, head, tail, seen = 0, soft;

	soft = budget < LOG_SOFT_LINES ? budget : LOG_SOFT_LINES;
	if (s->ng <= soft)
		return false;
	for (i = 0; i < s->ng; i++)
		alarms += s->g[i].alarm ? 1 : 0;
	plain = s->ng - alarms;
	avail = soft > alarms + 2 ? soft - alarms - 2 : 0;
	head = avail / 2;
	tail = avail - head;
	for (i = 0; i < s->ng; i++) {
		if (s->g[i].alarm)
			continue;
		s->g[i].keep = seen < head || seen >= plain - tail;
		seen++;
	}
	return true;
}

/* "… N lines left out" for the skipped lines, when there are any. */
static void
put_gap(struct log_state *s, struct aiterm_buf *out, size_t *gap)
{
	if (*gap > 0)
		s->h->buf_printf(out, "… %zu line%s left out\n", *gap,
		    *gap == 1 ? "" : "s");
	*gap = 0;
}

static void
put_group(struct log_state *s, struct aiterm_buf *out,
    const struct log_group *gr)
{
	struct rl_line last;
	const char *open = "";

	s->h->buf_add(out, s->t->v[gr->first].p, s->t->v[gr->first].len);
	if (gr->count > 1) {
		last = s->t->v[gr->last];
		last.len = stamp_len(last);
		last = rl_trim(last);
		if (last.len > 1 && last.p[0] == '[') {
			/* "[    0.499463]" as "[0.499463]" */
			last = rl_trim(rl_from(last, 1));
			open = "[";
		}
		s->h->buf_printf(out, "  [+%zu %s", gr->count - 1,
		    gr->same ? "same" : "similar");
		if (last.len > 0)
			s->h->buf_printf(out, ", last %s%.*s", open,
			    (int)last.len, last.p);
		s->h->buf_add(out, "]", 1);
	}
	s->h->buf_add(out, "\n", 1);
}

/* Write the groups that fit (at most budget lines); false when none. */
static bool
put_log(struct log_state *s, struct aiterm_buf *out, size_t budget)
{
	struct aiterm_buf *tmp;
	struct log_group *gr;
	size_t i, gap = 0, lines = 0;
	bool ok;

	if ((tmp = s->h->buf_new()) == NULL)
		return false;
	for (i = 0; i < s->t->n; i++) {
		if (s->group_of[i] == SIZE_MAX)
			continue;
		gr = &s->g[s->group_of[i]];
		if (gr->first != i)
			continue;
		if (!gr->keep || lines + (gap > 0 ? 1 : 0) + 2 > budget) {
			/* Left out, or out of budget: counted. */
			gap += gr->count;
			continue;
		}
		if (gap > 0) {
			put_gap(s, tmp, &gap);
			lines++;
		}
		put_group(s, tmp, gr);
		lines++;
	}
	put_gap(s, tmp, &gap);
	ok = s->h->buf_len(tmp) > 0;
	if (ok)
		s->h->buf_add(out, s->h->buf_data(tmp), s->h->buf_len(tmp));
	s->h->buf_free(tmp);
	return ok;
}

/*
 * Fold the log in in (need_stamps: decline unless most lines start with
 * a timestamp).  Returns 0 or -1 like a reducer.
 */
static int
reduce_log(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out, bool need_stamps)
{
	struct log_state s;
	struct rl_lines t;
	size_t i, nonblank = 0, stamped = 0, nslot;
	bool folded = false, cut;
	int rc = -1;

	memset(&s, 0, sizeof s);
	if (!rl_split(in, &t))
		return -1;
	for (nslot = 16; nslot < 2 * t.n; nslot *= 2)
		;
	s.h = h;
	s.t = &t;
	s.nslot = nslot;
	s.keys = h->buf_new();
	s.g = calloc(t.n > 0 ? t.n : 1, sizeof *s.g);
	s.slot = calloc(nslot, sizeof *s.slot);
	s.group_of = calloc(t.n > 0 ? t.n : 1, sizeof *s.group_of);
	if (s.keys == NULL || s.g == NULL || s.slot == NULL ||
	    s.group_of == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		s.group_of[i] = SIZE_MAX;
		if (rl_blank(&t.v[i]))
			continue;
		nonblank++;
		stamped += stamp_len(t.v[i]) > 0 || access_line(t.v[i]) ? 1 :
		    0;
		add_line(&s, i);
	}
	if (nonblank == 0 || (need_stamps && stamped * 2 < nonblank))
		goto out;
	for (i = 0; i < s.ng; i++)
		folded = folded || s.g[i].count > 1;
	cut = choose(&s, rl_budget(in));
	if (!folded && !cut)
		goto out;
	if (put_log(&s, out, rl_budget(in)))
		rc = 0;
out:
	if (s.keys != NULL)
		h->buf_free(s.keys);
	free(s.g);
	free(s.slot);
	free(s.group_of);
	rl_lines_free(&t);
	return rc;
}

int
red_journalctl(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out)
{
	size_t i;

	/* Structured output formats are not lines of a log. */
	for (i = 1; in->argv[i] != NULL; i++) {
		if (strstr(in->argv[i], "json") != NULL ||
		    strstr(in->argv[i], "export") != NULL)
			return -1;
	}
	return reduce_log(h, in, out, false);
}

int
red_dmesg(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	if (rl_has_opt(in->argv, "--json") || rl_has_opt(in->argv, "-J"))
		return -1;
	return reduce_log(h, in, out, false);
}

/* A file argument of tail/cat/less that names a log. */
static bool
log_file(const char *a)
{
	size_t n = strlen(a);

	if (a[0] == '-')
		return false;
	return strncmp(a, "/var/log/", 9) == 0 || strstr(a, "/log/") !=
	    NULL || (n > 4 && strcmp(a + n - 4, ".log") == 0) ||
	    strstr(a, ".log.") != NULL;
}

int
red_logfile(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	size_t i;

	for (i = 1; in->argv[i] != NULL; i++) {
		if (log_file(in->argv[i]))
			return reduce_log(h, in, out, true);
	}
	return -1;
}
