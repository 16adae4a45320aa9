#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
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

char *
path_sibling(const char *name, const char *bindir)
{
	char self[PATH_MAX], *slash, *p;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			p = xasprintf("%.*s/%s", (int)(slash - self), self,
			    name);
			if (path_is_executable(p))
				return p;
			free(p);
		}
	}
	return xasprintf("%s/%s", bindir, name);
}

char *
path_socket_too_long(const char *path, size_t extra)
{
	const size_t max = sizeof ((struct sockaddr_un *)0)->sun_path - 1;
	size_t len = strlen(path) + extra;

	if (len <= max)
		return NULL;
	return xasprintf("the socket path %s%s is %zu bytes, longer than "
	    "the %zu a Unix socket allows; set AITERM_STATE_DIR to a "
	    "shorter directory", path, extra > 0 ? " (with what ssh adds)" :
	    "", len, max);
}
