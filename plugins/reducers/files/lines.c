/* Helpers shared by the file-listing reducers (see files.h). */
#include <stdlib.h>
#include <string.h>

#include "files.h"

void
fl_put_tight(const struct aiterm_host *h, struct aiterm_buf *out,
    struct rl_line l)
{
	size_t i = 0, start;

	l = rl_trim(l);
	while (i < l.len) {
		start = i;
		while (i < l.len && l.p[i] != ' ' && l.p[i] != '\t')
			i++;
		h->buf_add(out, l.p + start, i - start);
		if (i < l.len)
			h->buf_add(out, " ", 1);
		while (i < l.len && (l.p[i] == ' ' || l.p[i] == '\t'))
			i++;
	}
}

bool
fl_has_short(const char *const *argv, char c)
{
	size_t i;

	if (argv == NULL)
		return false;
	for (i = 1; argv[i] != NULL; i++) {
		if (argv[i][0] == '-' && argv[i][1] != '-' &&
		    strchr(argv[i] + 1, c) != NULL)
			return true;
		if (strcmp(argv[i], "--") == 0)
			break;
	}
	return false;
}

bool
fl_size(const char *p, size_t n, double *v)
{
	static const char units[] = "KMGTPE";
	const char *u;
	char num[32], *end;

	if (n == 0 || n >= sizeof num || p[0] < '0' || p[0] > '9')
		return false;
	memcpy(num, p, n);
	num[n] = '\0';
	*v = strtod(num, &end);
	if (*end == '\0')
		return true;
	if ((u = strchr(units, *end)) == NULL || end[1] != '\0')
		return false;
	for (; u >= units; u--)
		*v *= 1024;
	return true;
}

size_t
fl_top_add(double *size, size_t *top, size_t ntop, size_t max, double v,
    size_t i)
{
	size_t k;

	for (k = ntop; k > 0 && size[k - 1] < v; k--) {
		size[k] = size[k - 1];
		top[k] = top[k - 1];
	}
	size[k] = v;
	top[k] = i;
	return ntop < max ? ntop + 1 : ntop;
}
