/*
 * git log (the default and the medium/full formats): each commit becomes
 * one line, "825aff1 Subject (2024-06-10, Maria Keller)", with git's
 * decoration after the hash and "[merge]" for a merge.  Message bodies
 * and trailers are left out and counted on a last line; so are e-mail
 * addresses and times of day, so the result is never lossless.  Lines
 * git prints after a message (--stat lines, notes) stay, squeezed; a
 * patch (-p) becomes its files, "  M src/net.c (+12 -3)".  When the
 * commits do not fit the budget, the first ones are shown and the rest
 * counted.  Output
 * that does not start with a "commit" line (--oneline, --graph, a custom
 * --format, an error) is declined.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "git.h"

static const char *const lg_months[] = {
	"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
	"Nov", "Dec",
};

/* Header fields of a commit, and how they are read. */
enum lg_field { LG_AUTHOR, LG_DATE, LG_MERGE, LG_OTHER };

static const struct {
	const char	*prefix;
	enum lg_field	 field;
} lg_fields[] = {
	{ "Author:", LG_AUTHOR },
	{ "Date:", LG_DATE },
	{ "AuthorDate:", LG_DATE },
	{ "Merge:", LG_MERGE },
	{ "Commit:", LG_OTHER },
	{ "CommitDate:", LG_OTHER },
};

struct lg_commit {
	struct rl_line	 hash, decor, author, date, subject;
	bool		 merge;
	size_t		 body;		/* message lines left out */
	size_t		 first, last;	/* its lines in t: [first, last) */
	size_t		 after;		/* first line after the message */
};

/* A "commit <hex>" line: the hash and what follows it. */
static bool
commit_line(const struct rl_line *l, struct rl_line *hash,
    struct rl_line *decor)
{
	size_t i;

	if (!rl_starts(l, "commit "))
		return false;
	*hash = rl_from(*l, 7);
	for (i = 0; i < hash->len && hash->p[i] != ' '; i++) {
		char c = hash->p[i];

		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
			return false;
	}
	if (i < 7)
		return false;
	*decor = rl_trim(rl_from(*hash, i));
	hash->len = i;
	return true;
}

/* "Mon Jun 10 12:00:00 2024 +0200" as 2024-06-10, else as it is. */
static void
put_date(const struct aiterm_host *h, struct aiterm_buf *out,
    struct rl_line d)
{
	char mon[4], wday[4];
	int day, year, hh, mm, ss;
	char buf[64];
	size_t i;

	d = rl_trim(d);
	if (d.len < sizeof buf) {
		memcpy(buf, d.p, d.len);
		buf[d.len] = '\0';
		if (sscanf(buf, "%3s %3s %d %d:%d:%d %d", wday, mon, &day, &hh,
		    &mm, &ss, &year) == 7) {
			for (i = 0; i < 12; i++) {
				if (strcmp(mon, lg_months[i]) == 0) {
					h->buf_printf(out, "%04d-%02zu-%02d",
					    year, i + 1, day);
					return;
				}
			}
		}
	}
	h->buf_add(out, d.p, d.len);
}

/* "Name <mail>" as Name. */
static struct rl_line
author_name(struct rl_line a)
{
	size_t i;

	a = rl_trim(a);
	for (i = 0; i + 1 < a.len; i++) {
		if (a.p[i] == ' ' && a.p[i + 1] == '<') {
			a.len = i;
			break;
		}
	}
	return a;
}

/* Read the commit starting at t->v[i]; returns the line after it. */
static size_t
read_commit(const struct rl_lines *t, size_t i, struct lg_commit *c)
{
	size_t j, k;
	bool msg = false;

	memset(c, 0, sizeof *c);
	c->first = i;
	commit_line(&t->v[i], &c->hash, &c->decor);
	for (i++; i < t->n && !rl_blank(&t->v[i]); i++) {
		for (k = 0; k < sizeof lg_fields / sizeof lg_fields[0]; k++) {
			if (!rl_starts(&t->v[i], lg_fields[k].prefix))
				continue;
			j = strlen(lg_fields[k].prefix);
			if (lg_fields[k].field == LG_AUTHOR)
				c->author = author_name(rl_from(t->v[i], j));
			else if (lg_fields[k].field == LG_DATE &&
			    c->date.p == NULL)
				c->date = rl_from(t->v[i], j);
			else if (lg_fields[k].field == LG_MERGE)
				c->merge = true;
			break;
		}
	}
	/* The message: lines indented by four spaces, and blank ones. */
	for (; i < t->n; i++) {
		const struct rl_line *l = &t->v[i];

		if (rl_blank(l))
			continue;
		if (!rl_starts(l, "    "))
			break;
		if (!msg) {
			c->subject = rl_trim(*l);
			msg = true;
		} else
			c->body++;
	}
	c->after = i;
	while (i < t->n && !commit_line(&t->v[i], &c->hash, &c->decor))
		i++;
	/* commit_line overwrote hash and decor: read them again. */
	commit_line(&t->v[c->first], &c->hash, &c->decor);
	c->last = i;
	return i;
}

/* The hash length git uses in "Merge:" lines, else 7. */
static size_t
abbrev(const struct rl_lines *t)
{
	struct rl_line l;
	size_t i, n;

	for (i = 0; i < t->n; i++) {
		if (!rl_starts(&t->v[i], "Merge: "))
			continue;
		l = rl_from(t->v[i], 7);
		for (n = 0; n < l.len && l.p[n] != ' '; n++)
			;
		return n >= 7 && n <= 40 ? n : 7;
	}
	return 7;
}

/* A patch after a message: one line per file with its counts. */
static size_t
put_patch(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, size_t first, size_t last, bool *dropped)
{
	struct aiterm_buf *tmp = h->buf_new();
	const char *s, *e, *nl;
	size_t n = 0, adds = 0, dels = 0, context;
	bool d = false, open = false;

	/* The diff reduction gives the file lines; its rows are counted. */
	if (gt_diff(h, tmp, t, first, last, (size_t)-1, &context,
	    &d) < 0) {
		h->buf_free(tmp);
		return 0;
	}
	s = h->buf_data(tmp);
	e = s + h->buf_len(tmp);
	open = false;
	for (; s < e; s = nl + 1) {
		nl = memchr(s, '\n', (size_t)(e - s));
		if (nl == NULL)
			nl = e;
		if (*s == '+')
			adds++;
		else if (*s == '-')
			dels++;
		else if (*s != '@' && *s != ' ' && *s != '\\') {
			if (open) {
				h->buf_printf(out, " (+%zu -%zu)\n", adds,
				    dels);
				n++;
			}
			adds = dels = 0;
			h->buf_add(out, "  ", 2);
			h->buf_add(out, s, (size_t)(nl - s));
			open = true;
		}
	}
	if (open) {
		h->buf_printf(out, " (+%zu -%zu)\n", adds, dels);
		n++;
	}
	h->buf_free(tmp);
	*dropped = true;
	return n;
}

static void
put_commit(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct rl_lines *t, const struct lg_commit *c, size_t hashlen,
    bool *dropped)
{
	size_t i, n = c->hash.len < hashlen ? c->hash.len : hashlen;

	h->buf_add(out, c->hash.p, n);
	if (c->decor.len > 0) {
		h->buf_add(out, " ", 1);
		h->buf_add(out, c->decor.p, c->decor.len);
	}
	if (c->merge)
		h->buf_add(out, " [merge]", 8);
	h->buf_add(out, " ", 1);
	h->buf_add(out, c->subject.p, c->subject.len);
	h->buf_add(out, " (", 2);
	if (c->date.p != NULL)
		put_date(h, out, c->date);
	if (c->date.p != NULL && c->author.len > 0)
		h->buf_add(out, ", ", 2);
	h->buf_add(out, c->author.p, c->author.len);
	h->buf_add(out, ")\n", 2);
	for (i = c->after; i < c->last; i++) {
		if (gt_diff_start(&t->v[i])) {
			put_patch(h, out, t, i, c->last, dropped);
			break;
		}
		if (!rl_blank(&t->v[i]))
			rl_put_squeezed(h, out, &t->v[i]);
	}
}

/* The lines put_commit appends for c. */
static size_t
commit_size(const struct rl_lines *t, const struct lg_commit *c)
{
	size_t i, n = 1;

	for (i = c->after; i < c->last; i++) {
		if (gt_diff_start(&t->v[i])) {
			for (; i < c->last; i++)
				n += gt_diff_start(&t->v[i]) ? 1 : 0;
			break;
		}
		if (!rl_blank(&t->v[i]))
			n++;
	}
	return n;
}

int
red_git_log(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	struct lg_commit c;
	struct rl_line hash, decor;
	size_t i, budget, used = 0, shown = 0, total = 0, body = 0, hashlen;
	bool dropped = false, full = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if (t.n == 0 || !commit_line(&t.v[0], &hash, &decor))
		goto out;
	budget = rl_budget(in);
	hashlen = abbrev(&t);
	for (i = 0; i < t.n;) {
		i = read_commit(&t, i, &c);
		total++;
		body += c.body;
		if (full || used + commit_size(&t, &c) + 2 > budget) {
			full = true;
			continue;
		}
		put_commit(h, out, &t, &c, hashlen, &dropped);
		used += commit_size(&t, &c);
		shown++;
	}
	if (shown < total)
		h->buf_printf(out, "… %zu more commits\n", total - shown);
	if (body > 0)
		h->buf_printf(out, "[%zu commits; message bodies left out: "
		    "%zu line%s]\n", total, body, body == 1 ? "" : "s");
	/* E-mail addresses and times are always left out. */
	(void)dropped;
	rc = 0;
out:
	rl_lines_free(&t);
	return rc;
}
