/*
 * The host functions of ABI 2.1 a delivery receiver needs: writing a file
 * of its own under the state root, and starting one of Aiterm's programs
 * detached (a receiver must not hold the loop while it hands an answer
 * over).
 */
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "plugin/host.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/loop.h"
#include "util/path.h"
#include "util/xmalloc.h"

#ifndef AITERM_BINDIR
#define AITERM_BINDIR "/usr/local/bin"
#endif

/* A path below the state root: relative, no "." or ".." part, no "//". */
static bool
relpath_valid(const char *rel)
{
	const char *p = rel;
	size_t n;

	if (rel == NULL || *rel == '\0' || *rel == '/')
		return false;
	while (*p != '\0') {
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
		if (*p == '/' && *++p == '\0')
			return false;
	}
	return true;
}

int
host_write_state(const char *relpath, const void *data, size_t len,
    struct aiterm_error *err)
{
	char *path, *dir;
	int rc;

	if (!relpath_valid(relpath))
		return error_set(err, "not a path below the state root: '%s'",
		    relpath != NULL ? relpath : "(null)");
	path = state_path("%s", relpath);
	dir = xstrdup(path);
	rc = state_mkdir(dirname(dir), err);
	free(dir);
	if (rc == 0)
		rc = atomic_write(path, data, len, err);
	free(path);
	return rc;
}

static void
closed(uv_handle_t *h)
{
	free(h);
}

static void
exited(uv_process_t *p, int64_t status, int sig)
{
	(void)status;
	(void)sig;
	uv_close((uv_handle_t *)p, closed);
}

int
host_spawn_program(const char *const argv[], struct aiterm_error *err)
{
	uv_process_options_t o;
	uv_stdio_container_t io[3];
	uv_process_t *p;
	char *file, **args;
	size_t n;
	int rc;

	if (argv == NULL || argv[0] == NULL ||
	    strncmp(argv[0], "aiterm-", 7) != 0 || strchr(argv[0], '/'))
		return error_set(err, "spawn_program runs Aiterm's programs "
		    "(aiterm-*), not '%s'", argv && argv[0] ? argv[0] : "");
	for (n = 0; argv[n] != NULL; n++)
		;
	args = xcalloc(n + 1, sizeof *args);
	memcpy(args, argv, n * sizeof *args);
	file = path_sibling(argv[0], AITERM_BINDIR);
	args[0] = file;
	memset(&o, 0, sizeof o);
	memset(io, 0, sizeof io);
	io[0].flags = io[1].flags = io[2].flags = UV_IGNORE;
	o.file = file;
	o.args = args;
	o.stdio = io;
	o.stdio_count = 3;
	o.exit_cb = exited;
	o.flags = UV_PROCESS_DETACHED;
	p = xcalloc(1, sizeof *p);
	if ((rc = uv_spawn(core_loop(), p, &o)) != 0) {
		error_set(err, "cannot start %s: %s", file, uv_strerror(rc));
		uv_close((uv_handle_t *)p, closed);
		rc = -1;
	} else
		uv_unref((uv_handle_t *)p);
	free(file);
	free(args);
	return rc;
}
