#include <string.h>

#include "util/names.h"

bool
names_has(const char *list, const char *name)
{
	const char *p;
	size_t n = strlen(name);

	if (n == 0)
		return false;
	for (p = list; (p = strstr(p, name)) != NULL; p += n) {
		if ((p == list || p[-1] == ',') && (p[n] == ',' ||
		    p[n] == '\0'))
			return true;
	}
	return false;
}
