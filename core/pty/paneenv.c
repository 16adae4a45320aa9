/* The variables of every pane Aiterm starts (CTL-CLI, ADR 0022). */
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pty/paneenv.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

#ifndef AITERM_BINDIR
#define AITERM_BINDIR "/usr/local/bin"
#endif

char *
pane_env_aiterm_bin(void)
{
	char self[PATH_MAX], *slash, *path;
	ssize_t len;

	len = readlink("/proc/self/exe", self, sizeof self - 1);
	if (len > 0) {
		self[len] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			*slash = '\0';
			path = xasprintf("%s/aiterm", self);
			if (access(path, X_OK) == 0)
				return path;
			free(path);
		}
	}
	return xstrdup(AITERM_BINDIR "/aiterm");
}

void
pane_env_marks(const char **env, size_t *n, const char *session_id)
{
	env[(*n)++] = xasprintf("AITERM_SESSION_ID=%s", session_id);
	env[(*n)++] = xasprintf("AITERM_STATE_DIR=%s", state_root() != NULL ?
	    state_root() : "");
}

void
pane_env_add(const char **env, size_t *n, const char *session_id)
{
	char *bin = pane_env_aiterm_bin();

	pane_env_marks(env, n, session_id);
	env[(*n)++] = xasprintf("AITERM_BIN=%s", bin);
	free(bin);
}
