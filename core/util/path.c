#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/path.h"
#include "util/xmalloc.h"

bool
path_is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

char *
path_search(const char *name)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL, *cand = NULL;

	if (strchr(name, '/') != NULL)
		return path_is_executable(name) ? xstrdup(name) : NULL;
	copy = xstrdup(path == NULL || *path == '\0' ? "/usr/bin:/bin" : path);
	for (dir = strtok_r(copy, ":", &save); dir != NULL;
	    dir = strtok_r(NULL, ":", &save)) {
		cand = xasprintf("%s/%s", *dir == '\0' ? "." : dir, name);
		if (path_is_executable(cand))
			break;
		free(cand);
		cand = NULL;
	}
	free(copy);
	return cand;
}
