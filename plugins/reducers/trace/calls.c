/*
 * Call traces: keep what failed and what the program said, count the
 * rest (see calls.h).
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

#define TR_MIN_RUN	3	/* shorter runs of calls stay as they are */

struct rl_line
tr_pid_prefix(struct rl_line l)
{
	const char *e;

	if (!rl_starts(&l, "[pid ") || (e = memchr(l.p, ']', l.len)) ==
	    NULL || (size_t)(e - l.p) + 2 > l.len)
		return (struct rl_line){ l.p, 0 };
	return (struct rl_line){ l.p, (size_t)(e - l.p) + 2 };
}

struct rl_line
tr_call_name(struct rl_line c)
{
	size_t i = 0;

	if (rl_starts(&c, "<... ")) {
		c = rl_from(c, 5);
		while (i < c.len && (isalnum((unsigned char)c.p[i]) ||
		    c.p[i] == '_'))
			i++;
		return (struct rl_line){ c.p, i > 0 && i < c.len &&
		    c.p[i] == ' ' ? i : 0 };
	}
	while (i < c.len && (isalnum((unsigned char)c.p[i]) ||
	    c.p[i] == '_' || c.p[i] == '@' || c.p[i] == '.'))
		i++;
	if (i == 0 || i >= c.len || c.p[i] != '(' ||
	    isdigit((unsigned char)c.p[0]))
		return (struct rl_line){ c.p, 0 };
	return (struct rl_line){ c.p, i };
}

bool
tr_summary_asked(const char *const *argv, const char *vals)
{
	const char *w;
	size_t i, k;

	for (i = 1; argv[i] != NULL && argv[i][0] == '-'; i++) {
		w = argv[i];
		if (strcmp(w, "--") == 0)
			break;
		if (strncmp(w, "--summary", 9) == 0)
			return true;
		if (w[1] == '-')
			continue;
		/* A cluster: "-fc"; a value ends it ("-s100", "-s 100"). */
		for (k = 1; w[k] != '\0'; k++) {
			if (w[k] == 'c' || w[k] == 'C')
				return true;
			if (strchr(vals, w[k]) != NULL) {
				if (w[k + 1] == '\0' && argv[i + 1] != NULL)
					i++;
				break;
			}
		}
	}
	return false;
}

/* What follows the call's last " = " (len 0 when there is none). */
static struct rl_line
call_result(struct rl_line c)
{
	size_t i;

	for (i = c.len; i >= 3; i--) {
		if (memcmp(c.p + i - 3, " = ", 3) == 0)
			return rl_from(c, i);
	}
	return (struct rl_line){ c.p + c.len, 0 };
}

static bool
kept_call(const struct tr_calls *spec, struct rl_line c, struct rl_line name)
{
	size_t i;

	if (spec->failed(c, name, call_result(c)))
		return true;
	for (i = 0; spec->keep[i] != NULL; i++)
		if (rl_starts(&c, spec->keep[i]))
			return true;
	return false;
}

int
tr_calls_reduce(const struct aiterm_host *h,
    const struct aiterm_reduce_input *in, struct aiterm_buf *out,
    const struct rl_lines *t, const struct tr_calls *spec,
    const struct tr_groups *g)
{
	struct tr_tally tally;
	struct tr_shapes shapes;
	struct rl_line c, name;
	bool patterned, rare;
	unsigned char *shown = NULL;
	size_t i, j, start = 0, lines = 0, folded = 0, calls = 0;
	unsigned char *fold;

	if (t->n == 0 || !tr_shapes_count(&shapes, t))
		return -1;
	if ((fold = calloc(t->n, 1)) == NULL || (shown = calloc(t->n + 1,
	    1)) == NULL) {
		free(fold);
		tr_shapes_free(&shapes);
		return -1;
	}
	patterned = tr_shapes_patterned(&shapes);

	/* fold[i]: 1 an ordinary call, 2 in a tracer's group. */
	for (i = 0; i < t->n; i++) {
		c = rl_from(t->v[i], tr_pid_prefix(t->v[i]).len);
		name = tr_call_name(c);
		if (name.len == 0)
			continue;
		calls++;
		rare = patterned && tr_shapes_get(&shapes, tr_shape(t->v[i].p,
		    t->v[i].len)) == 1;
		if (g != NULL && g->group[i] > 0) {
			fold[i] = rare ? 0 : 2;
			continue;
		}
		/* Of a shape rare among patterned lines: it stands out. */
		fold[i] = !kept_call(spec, c, name) && !rare;
	}
	/* A trace is mostly calls; anything else is not one. */
	tr_shapes_free(&shapes);
	if (calls * 2 < t->n) {
		free(shown);
		free(fold);
		return -1;
	}
	memset(&tally, 0, sizeof tally);
	for (i = 0; i < t->n; i = j) {
		if (fold[i] == 2) {
			/* A group's line where its first folded call was. */
			if (!shown[g->group[i]]) {
				shown[g->group[i]] = 1;
				h->buf_add(out, g->what[g->group[i] - 1],
				    strlen(g->what[g->group[i] - 1]));
				lines++;
			}
			folded++;
			j = i + 1;
			continue;
		}
		if (fold[i] == 0) {
			rl_put_squeezed(h, out, &t->v[i]);
			lines++;
			j = i + 1;
			continue;
		}
		for (j = i; j < t->n && fold[j] == 1; j++)
			;
		if (j - i < TR_MIN_RUN) {
			for (start = i; start < j; start++)
				rl_put_squeezed(h, out, &t->v[start]);
			lines += j - i;
			continue;
		}
		for (start = i; start < j; start++) {
			c = rl_from(t->v[start], tr_pid_prefix(t->v[start]).len);
			name = tr_call_name(c);
			tr_tally_add(&tally, name.p, name.len);
		}
		tr_tally_put(h, out, &tally, "", "calls");
		lines++;
		folded += j - i;
	}
	free(shown);
	free(fold);
	if (folded == 0 || lines > rl_budget(in))
		return -1;
	return 0;
}
