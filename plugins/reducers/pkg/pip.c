/*
 * pip install: the resolution and download lines ("Collecting",
 * "Processing", "Downloading", "Using cached", "Requirement already
 * satisfied", "Looking in ...", progress bars), the wheel-building steps
 * and the steps of an uninstall before its "Successfully uninstalled"
 * line go, counted on one closing line: "(+18 resolve lines, +3
 * uninstall steps)".  Kept as they are: "Installing collected
 * packages", "Successfully uninstalled", "Successfully installed", every
 * ERROR and WARNING line and the dependency conflicts under them, and
 * any line this table does not know.  Output with nothing to drop is
 * declined.
 */
#include <string.h>

#include "pkg.h"

enum { PI_RESOLVE, PI_BUILD, PI_UNINSTALL, PI_NOTICE, PI_NDROP };

static const struct {
	const char	*prefix;	/* after leading blanks */
	int		 kind;
} pi_drops[] = {
	{ "Collecting ", PI_RESOLVE },
	{ "Processing ", PI_RESOLVE },
	{ "Downloading ", PI_RESOLVE },
	{ "Using cached ", PI_RESOLVE },
	{ "Requirement already satisfied: ", PI_RESOLVE },
	{ "Looking in indexes: ", PI_RESOLVE },
	{ "Looking in links: ", PI_RESOLVE },
	{ "Obtaining dependency information ", PI_RESOLVE },
	{ "Obtaining ", PI_RESOLVE },
	{ "━", PI_RESOLVE },
	{ "|█", PI_RESOLVE },
	{ "Preparing metadata ", PI_BUILD },
	{ "Installing build dependencies", PI_BUILD },
	{ "Getting requirements to build ", PI_BUILD },
	{ "Building wheels for collected packages:", PI_BUILD },
	{ "Building wheel for ", PI_BUILD },
	{ "Created wheel for ", PI_BUILD },
	{ "Stored in directory: ", PI_BUILD },
	{ "Successfully built ", PI_BUILD },
	{ "Attempting uninstall: ", PI_UNINSTALL },
	{ "Found existing installation: ", PI_UNINSTALL },
	{ "Uninstalling ", PI_UNINSTALL },
	{ "[notice] ", PI_NOTICE },
};

static int
kind_of(const struct rl_line *l)
{
	struct rl_line t = rl_trim(*l);
	size_t i;

	for (i = 0; i < sizeof pi_drops / sizeof pi_drops[0]; i++) {
		if (rl_starts(&t, pi_drops[i].prefix))
			return pi_drops[i].kind;
	}
	return -1;
}

int
red_pip(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct pk_drop d[PI_NDROP] = {
		{ "resolve lines", 0 }, { "build steps", 0 },
		{ "uninstall steps", 0 }, { "pip notices", 0 },
	};
	struct rl_lines t;
	size_t i, dropped = 0;
	int k, rc = -1;

	if (!rl_split(in, &t))
		return -1;
	for (i = 0; i < t.n; i++)
		dropped += kind_of(&t.v[i]) >= 0;
	if (dropped == 0)
		goto out;
	for (i = 0; i < t.n; i++) {
		if ((k = kind_of(&t.v[i])) >= 0)
			d[k].n++;
		else if (!rl_blank(&t.v[i]))
			rl_put(h, out, &t.v[i]);
	}
	pk_put_drops(h, out, d, PI_NDROP);
	rc = 0;
out:
	rl_lines_free(&t);
	return rc;
}
