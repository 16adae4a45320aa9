#include "config.h"

#include <errno.h>
#include <stdlib.h>

#include "util/envnum.h"

long long
env_num(const char *name, long long def, long long min, long long max)
{
	const char *env = getenv(name);
	char *end;
	long long v;

	if (env == NULL || *env == '\0')
		return def;
	errno = 0;
	v = strtoll(env, &end, 10);
	if (errno != 0 || *end != '\0' || v < min || v > max)
		return def;
	return v;
}
