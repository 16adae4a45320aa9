/*
 * npm (any subcommand) / yarn / pnpm install.  Re-laid out, nothing lost:
 * - a warning npm prints over several lines with the same "npm warn
 *   CODE" prefix (EBADENGINE, ERESOLVE) becomes one line, the prefix
 *   once and the parts joined by a blank;
 * - "N packages are looking for funding" takes its "run `npm fund`"
 *   hint in parentheses; blank lines, lines holding only npm's prefix
 *   ("npm error") and pnpm's "+++" bar go.
 * Left out, counted on a closing line: yarn's "[1/4] Resolving
 * packages..." steps and "info" lines, pnpm's "Progress:" lines but
 * the last, and npm's "A complete log of this run can be found in:
 * <path>" (its debug log, a file nobody asked for).  Errors,
 * deprecations, audit results and any other line stay as they are.
 * Returns 1 when only the layout changed; declines when there is nothing
 * to change.
 */
#include <ctype.h>
#include <string.h>

#include "pkg.h"

enum { NP_STEPS, NP_INFO, NP_PROGRESS, NP_LOG, NP_NDROP };

/* npm's line prefixes, a line holding nothing else is a blank line. */
static const char *const np_prefixes[] = {
	"npm error", "npm ERR!", "npm warn", "npm WARN", "npm notice", NULL,
};

static bool
bare_prefix(const struct rl_line *l)
{
	struct rl_line t = rl_trim(*l);
	size_t i;

	for (i = 0; np_prefixes[i] != NULL; i++) {
		if (rl_eq(&t, np_prefixes[i]))
			return true;
	}
	return false;
}

/* The length of "npm warn CODE " at the start of l (CODE in capitals). */
static size_t
warn_prefix(const struct rl_line *l)
{
	size_t i, n;

	if (!rl_starts(l, "npm warn ") && !rl_starts(l, "npm WARN "))
		return 0;
	n = strlen("npm warn ");
	for (i = n; i < l->len && (isupper((unsigned char)l->p[i]) ||
	    isdigit((unsigned char)l->p[i])); i++)
		;
	if (i == n || i >= l->len || l->p[i] != ' ')
		return 0;
	return i + 1;
}

/* A yarn step line: "[1/4] Resolving packages...". */
static bool
yarn_step(const struct rl_line *l)
{
	return l->len > 5 && l->p[0] == '[' && isdigit((unsigned char)l->p[1])
	    && l->p[2] == '/' && rl_has(l, "] ");
}

/* A line of only '+' and '-' (pnpm's bar). */
static bool
bar(const struct rl_line *l)
{
	size_t i;

	if (l->len < 3)
		return false;
	for (i = 0; i < l->len; i++) {
		if (l->p[i] != '+' && l->p[i] != '-')
			return false;
	}
	return true;
}

int
red_npm(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct pk_drop d[NP_NDROP] = {
		{ "yarn steps", 0 }, { "info lines", 0 },
		{ "progress lines", 0 }, { "debug-log path", 0 },
	};
	struct rl_lines t;
	struct rl_line part;
	size_t i, j, n, lastprog = SIZE_MAX, changed = 0;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n; i++) {
		if (rl_starts(&t.v[i], "Progress: resolved "))
			lastprog = i;
	}
	for (i = 0; i < t.n; i++) {
		const struct rl_line *l = &t.v[i];

		if ((n = warn_prefix(l)) > 0 && i + 1 < t.n &&
		    warn_prefix(&t.v[i + 1]) == n &&
		    memcmp(t.v[i + 1].p, l->p, n) == 0) {
			/* One warning over several lines: join them. */
			h->buf_add(out, l->p, l->len);
			for (j = i + 1; j < t.n && warn_prefix(&t.v[j]) == n &&
			    memcmp(t.v[j].p, l->p, n) == 0; j++) {
				part = rl_trim(rl_from(t.v[j], n));
				h->buf_add(out, " ", 1);
				h->buf_add(out, part.p, part.len);
			}
			h->buf_add(out, "\n", 1);
			changed += j - i;
			i = j - 1;
		} else if (rl_has(l, "looking for funding") && i + 1 < t.n &&
		    rl_starts(&t.v[i + 1], "  run `npm fund`")) {
			part = rl_trim(t.v[i + 1]);
			h->buf_printf(out, "%.*s (%.*s)\n", (int)l->len, l->p,
			    (int)part.len, part.p);
			changed++;
			i++;
		} else if (rl_blank(l) || bar(l) || bare_prefix(l))
			changed++;
		else if (rl_has(l, "A complete log of this run can be found in"))
			d[NP_LOG].n++;
		else if (yarn_step(l))
			d[NP_STEPS].n++;
		else if (rl_starts(l, "info ") && !rl_has(l, "error"))
			d[NP_INFO].n++;
		else if (rl_starts(l, "Progress: resolved ") && i != lastprog)
			d[NP_PROGRESS].n++;
		else
			rl_put(h, out, l);
	}
	if (pk_put_drops(h, out, d, NP_NDROP) > 0)
		rc = 0;
	else if (changed > 0)
		rc = 1;
	rl_lines_free(&t);
	return rc;
}
