/* Helpers shared by the package-manager reducers (see pkg.h). */
#include "pkg.h"

bool
pk_starts_any(const struct rl_line *l, const char *const *prefixes)
{
	size_t i;

	for (i = 0; prefixes[i] != NULL; i++) {
		if (rl_starts(l, prefixes[i]))
			return true;
	}
	return false;
}

size_t
pk_put_drops(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct pk_drop *d, size_t n)
{
	size_t i, total = 0;

	for (i = 0; i < n; i++) {
		if (d[i].n == 0)
			continue;
		h->buf_printf(out, "%s+%zu %s", total == 0 ? "(" : ", ",
		    d[i].n, d[i].what);
		total += d[i].n;
	}
	if (total > 0)
		h->buf_add(out, ")\n", 2);
	return total;
}
