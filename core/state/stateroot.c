/*
 * The state root: resolution, creation with private modes, and paths below
 * it.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state/errtally.h"
#include "state/format.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

static char *state_root_dir;
/* Why the last state_root_init failed, for the tools that need a root. */
static char *state_root_why;

/* An environment variable that is set and not empty, else NULL. */
static const char *
state_env(const char *name)
{
	const char *value = getenv(name);

	if (value == NULL || *value == '\0')
		return NULL;
	return value;
}

/*
 * Pick the root from the override and the environment.  XDG_STATE_HOME
 * must be absolute (the XDG base directory specification says a relative
 * value is invalid and ignored).  Returns an allocated path or NULL.
 */
static char *
state_root_pick(const char *override)
{
	const char *value;

	if (override != NULL && *override != '\0')
		return xstrdup(override);
	if ((value = state_env("AITERM_STATE_DIR")) != NULL)
		return xstrdup(value);
	value = state_env("XDG_STATE_HOME");
	if (value != NULL && *value == '/')
		return xasprintf("%s/aiterm", value);
	if ((value = state_env("HOME")) != NULL)
		return xasprintf("%s/.local/state/aiterm", value);
	return NULL;
}

/*
 * Make path absolute against the working directory and drop trailing
 * slashes.  Consumes path; returns an allocated path or NULL with err.
 */
static char *
state_root_absolute(char *path, struct aiterm_error *err)
{
	char *cwd, *abs = path;
	size_t len;

	if (*path != '/') {
		if ((cwd = getcwd(NULL, 0)) == NULL) {
			error_set(err, "cannot resolve the state root '%s': "
			    "cannot get the working directory: %s", path,
			    strerror(errno));
			goto out_free;
		}
		abs = xasprintf("%s/%s", cwd, path);
		free(cwd);
		free(path);
	}
	len = strlen(abs);
	while (len > 1 && abs[len - 1] == '/')
		abs[--len] = '\0';
	return abs;

out_free:
	free(path);
	return NULL;
}

/* Create one directory with mode 0700 whatever the umask. */
static int
state_mkdir_one(const char *dir, struct aiterm_error *err)
{
	struct stat sb;

	if (mkdir(dir, 0700) == 0) {
		if (chmod(dir, 0700) == -1)
			return error_set(err, "cannot set the mode of '%s': %s",
			    dir, strerror(errno));
		return 0;
	}
	if (errno != EEXIST)
		return error_set(err, "cannot create directory '%s': %s", dir,
		    strerror(errno));
	if (stat(dir, &sb) == -1)
		return error_set(err, "cannot create directory '%s': %s", dir,
		    strerror(errno));
	if (!S_ISDIR(sb.st_mode))
		return error_set(err, "cannot create directory '%s': %s", dir,
		    strerror(ENOTDIR));
	return 0;
}

int
state_mkdir(const char *path, struct aiterm_error *err)
{
	char *copy, *p;
	int rc = -1;

	if (*path == '\0')
		return error_set(err, "cannot create directory '': %s",
		    strerror(ENOENT));
	copy = xstrdup(path);

	/* Every prefix ending before a slash, then the whole path. */
	for (p = copy + 1; *p != '\0'; p++) {
		if (*p != '/' || p[-1] == '/')
			continue;
		*p = '\0';
		if (state_mkdir_one(copy, err) == -1)
			goto out_free;
		*p = '/';
	}
	if (state_mkdir_one(copy, err) == -1)
		goto out_free;
	rc = 0;

out_free:
	free(copy);
	return rc;
}

/*
 * Check that an existing root is a directory owned by us, then make it
 * 0700.  Works on a descriptor so that the checked directory is the one
 * changed.
 */
static int
state_root_secure(const char *root, struct aiterm_error *err)
{
	struct stat sb;
	int fd, rc = -1;

	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd == -1)
		return error_set(err, "cannot open the state root '%s': %s",
		    root, strerror(errno));
	if (fstat(fd, &sb) == -1) {
		error_set(err, "cannot stat the state root '%s': %s", root,
		    strerror(errno));
		goto out_close;
	}
	if (sb.st_uid != geteuid()) {
		error_set(err, "the state root '%s' is owned by uid %lu, not by "
		    "uid %lu", root, (unsigned long)sb.st_uid,
		    (unsigned long)geteuid());
		goto out_close;
	}
	if ((sb.st_mode & 07777) != 0700 && fchmod(fd, 0700) == -1) {
		error_set(err, "cannot set the mode of the state root '%s': %s",
		    root, strerror(errno));
		goto out_close;
	}
	rc = 0;

out_close:
	close(fd);
	return rc;
}

int
state_root_init(const char *override, struct aiterm_error *err)
{
	struct aiterm_error why = ERROR_INIT;
	char *root;
	int rc = -1;

	if ((root = state_root_pick(override)) == NULL)
		error_set(&why, "cannot resolve the state root: none of "
		    "AITERM_STATE_DIR, XDG_STATE_HOME or HOME is set");
	else if ((root = state_root_absolute(root, &why)) != NULL &&
	    state_mkdir(root, &why) == 0 &&
	    state_format_root_check(root, &why) == 0 &&
	    state_root_secure(root, &why) == 0 &&
	    state_format_root_mark(root, &why) == 0) {
		free(state_root_dir);
		state_root_dir = root;
		root = NULL;
		rc = 0;
		errtally_set_root(state_root_dir);
	}
	free(root);
	free(state_root_why);
	state_root_why = rc == 0 ? NULL : xstrdup(error_msg(&why));
	if (rc != 0)
		error_set(err, "%s", error_msg(&why));
	error_clear(&why);
	return rc;
}

int
state_root_problem(struct aiterm_error *err)
{
	if (state_root_dir != NULL)
		return 0;
	return error_set(err, "no state root: %s", state_root_why != NULL ?
	    state_root_why : "it was never set up");
}

int
state_root_require(struct aiterm_error *err)
{
	if (state_root_dir != NULL)
		return 0;
	errtally_note(ERRTALLY_NO_STATE_ROOT);
	return state_root_problem(err);
}

const char *
state_root(void)
{
	return state_root_dir;
}

void
state_root_reset(void)
{
	free(state_root_dir);
	free(state_root_why);
	state_root_dir = NULL;
	state_root_why = NULL;
	errtally_set_root(NULL);
}

char *
state_path(const char *fmt, ...)
{
	va_list ap;
	char *rel, *path;

	if (state_root_dir == NULL)
		return NULL;
	va_start(ap, fmt);
	rel = xvasprintf(fmt, ap);
	va_end(ap);
	path = xasprintf("%s/%s", state_root_dir, rel);
	free(rel);
	return path;
}
