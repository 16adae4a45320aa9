/*
 * apt-get / apt (install, upgrade, remove, update): the progress lines
 * ("Reading package lists... Done"), the per-package unpack steps
 * ("Selecting previously unselected package", "Preparing to unpack",
 * "Unpacking") and the fetch lines ("Get:", "Hit:", "Ign:") go, counted
 * on one closing line: "(+3 progress lines, +21 unpack lines)".  Kept as
 * they are: the package lists, the "N upgraded, N newly installed" line,
 * the sizes, "(Reading database ... N files ...)", every "Setting up"
 * line up to AP_SETUP of them (beyond, the last stays and the others are
 * counted), every line apt does not print on success (E:, W:, Err:,
 * dpkg errors, "Errors were encountered").  A package list longer than
 * AP_LIST lines keeps its first AP_LIST and counts the other packages
 * ("+140 more packages in the lists").
 * Output with none of apt's lines is declined.
 */
#include <string.h>

#include "pkg.h"

#define AP_SETUP	10	/* "Setting up" lines kept in full */
#define AP_LIST		3	/* lines of a package list kept */

enum { AP_PROGRESS, AP_UNPACK, AP_FETCH, AP_SETUPS, AP_PKGS, AP_NDROP };

static const char *const ap_progress[] = {
	"Reading package lists...", "Building dependency tree...",
	"Reading state information...", "Reading changelogs...",
	"Calculating upgrade...", NULL,
};

static const char *const ap_unpack[] = {
	"Selecting previously unselected package ", "Preparing to unpack ",
	"Unpacking ", "Removing ", "Purging configuration files for ", NULL,
};

static const char *const ap_fetch[] = {
	"Get:", "Hit:", "Ign:", NULL,
};

/* Lines that show the output is apt's. */
static const char *const ap_known[] = {
	"The following ", "Setting up ", "Processing triggers for ",
	"Need to get ", "After this operation", "Fetched ", NULL,
};

static bool
is_summary(const struct rl_line *l)
{
	return rl_has(l, " upgraded, ") && rl_has(l, " newly installed");
}

/* The number of blank-separated words of l. */
static size_t
words(const struct rl_line *l)
{
	size_t i, n = 0;
	bool in = false;

	for (i = 0; i < l->len; i++) {
		if (l->p[i] == ' ' || l->p[i] == '\t')
			in = false;
		else if (!in) {
			in = true;
			n++;
		}
	}
	return n;
}

int
red_apt(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct pk_drop d[AP_NDROP] = {
		{ "progress lines", 0 }, { "unpack lines", 0 },
		{ "fetch lines", 0 }, { "setup lines", 0 },
		{ "more packages in the lists", 0 },
	};
	struct rl_lines t;
	size_t i, setups = 0, seen = 0, list = 0;
	bool known = false;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n; i++) {
		if (rl_starts(&t.v[i], "Setting up "))
			setups++;
		if (pk_starts_any(&t.v[i], ap_known) || is_summary(&t.v[i]) ||
		    pk_starts_any(&t.v[i], ap_progress) ||
		    pk_starts_any(&t.v[i], ap_fetch))
			known = true;
	}
	if (!known)
		goto out;
	for (i = 0; i < t.n; i++) {
		const struct rl_line *l = &t.v[i];

		if (l->len > 0 && l->p[0] == ' ' && list > 0) {
			/* A package list's continuation line. */
			if (list++ <= AP_LIST) {
				rl_put(h, out, l);
				continue;
			}
			d[AP_PKGS].n += words(l);
			continue;
		}
		list = rl_ends(l, ":") && !rl_starts(l, " ") ? 1 : 0;
		if (pk_starts_any(l, ap_progress))
			d[AP_PROGRESS].n++;
		else if (pk_starts_any(l, ap_unpack))
			d[AP_UNPACK].n++;
		else if (pk_starts_any(l, ap_fetch))
			d[AP_FETCH].n++;
		else if (rl_starts(l, "Setting up ") && setups > AP_SETUP &&
		    ++seen < setups)
			d[AP_SETUPS].n++;
		else if (rl_blank(l))
			continue;
		else
			rl_put(h, out, l);
	}
	rc = pk_put_drops(h, out, d, AP_NDROP) > 0 ? 0 : -1;
out:
	rl_lines_free(&t);
	return rc;
}
