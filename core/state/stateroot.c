/*
 * The state root: resolution, creation with private modes, and paths below
 * it.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <pwd.h>
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
/* Which directory it was at start: a root swapped since is refused. */
static dev_t state_root_dev;
static ino_t state_root_ino;
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
 * Whether gid is our own user-private group: named as we are, and
 * listing nobody else (a umask of 002 with such groups, as on Ubuntu,
 * leaves ~/.local group-writable, and only we are in that group).
 */
static bool
state_private_group(gid_t gid)
{
	struct passwd *pw;
	struct group *gr;
	char *name;
	bool ok;
	size_t i;

	if ((pw = getpwuid(geteuid())) == NULL || pw->pw_gid != gid)
		return false;
	name = xstrdup(pw->pw_name);
	ok = (gr = getgrgid(gid)) != NULL && strcmp(gr->gr_name, name) == 0;
	for (i = 0; ok && gr->gr_mem[i] != NULL; i++)
		ok = strcmp(gr->gr_mem[i], name) == 0;
	free(name);
	return ok;
}

/*
 * 0 when no other user can change the entries of directory dir (sb):
 * it is owned by root or by us, and is writable by nobody else, unless
 * it is sticky (/tmp: others cannot rename or remove what is ours).
 * Else -1 with err naming dir and the state root below it.
 */
static int
state_ancestor_safe(const char *dir, const struct stat *sb, const char *root,
    struct aiterm_error *err)
{
	bool sticky = (sb->st_mode & S_ISVTX) != 0;

	if (sb->st_uid != 0 && sb->st_uid != geteuid())
		return error_set(err, "the state root '%s' is below '%s', which "
		    "is owned by uid %lu: another user could swap the state "
		    "root there; choose a state root whose parent folders only "
		    "you or root can change", root, dir,
		    (unsigned long)sb->st_uid);
	if (sticky || ((sb->st_mode & S_IWOTH) == 0 &&
	    ((sb->st_mode & S_IWGRP) == 0 || state_private_group(sb->st_gid))))
		return 0;
	return error_set(err, "the state root '%s' is below '%s', which is "
	    "writable by %s (mode %04o, not sticky): another user could "
	    "swap the state root there; choose a state root whose parent "
	    "folders only you or root can change", root, dir,
	    (sb->st_mode & S_IWOTH) != 0 ? "every user" : "its group",
	    (unsigned)(sb->st_mode & 07777));
}

/*
 * Check every parent folder of path ("/", "/a", ... up to the last but
 * one component).  A parent that does not exist yet ends the walk when
 * missing_ok (state_mkdir makes it, ours and 0700).
 */
static int
state_ancestors_check(const char *path, const char *root, bool missing_ok,
    struct aiterm_error *err)
{
	struct stat sb;
	const char *last = strrchr(path, '/');
	char *dir;
	size_t i;
	int rc = 0;

	for (i = 0; rc == 0 && last != NULL && path + i <= last; i++) {
		if (path[i] != '/' || (i > 0 && path[i - 1] == '/'))
			continue;
		dir = xasprintf("%.*s", i == 0 ? 1 : (int)i, path);
		if (stat(dir, &sb) == 0)
			rc = state_ancestor_safe(dir, &sb, root, err);
		else if (errno == ENOENT && missing_ok)
			last = NULL;	/* the rest is made by us */
		else
			rc = error_set(err, "cannot check '%s', a parent of "
			    "the state root '%s': %s", dir, root,
			    strerror(errno));
		free(dir);
	}
	return rc;
}

/*
 * The parents of root as named, before anything is made there, and,
 * once it exists, the parents of where it really is (through symbolic
 * links).
 */
static int
state_root_parents(const char *root, bool made, struct aiterm_error *err)
{
	char real[PATH_MAX];

	if (!made)
		return state_ancestors_check(root, root, true, err);
	if (realpath(root, real) == NULL)
		return error_set(err, "cannot resolve the state root '%s': %s",
		    root, strerror(errno));
	return state_ancestors_check(real, root, false, err);
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
	state_root_dev = sb.st_dev;
	state_root_ino = sb.st_ino;
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
	    state_root_parents(root, false, &why) == 0 &&
	    state_mkdir(root, &why) == 0 &&
	    state_root_parents(root, true, &why) == 0 &&
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

/*
 * The root is still the directory checked at start: not moved, removed
 * or replaced (by a link or another folder) since.  One stat.
 */
static int
state_root_same(struct aiterm_error *err)
{
	struct stat sb;

	if (stat(state_root_dir, &sb) == -1)
		return error_set(err, "the state root '%s' is gone since the "
		    "server started (%s); restart the server", state_root_dir,
		    strerror(errno));
	if (sb.st_dev != state_root_dev || sb.st_ino != state_root_ino ||
	    sb.st_uid != geteuid() || !S_ISDIR(sb.st_mode))
		return error_set(err, "the state root '%s' is not the directory "
		    "the server started with: it was moved or replaced; "
		    "nothing is written there; restart the server",
		    state_root_dir);
	return 0;
}

int
state_root_require(struct aiterm_error *err)
{
	if (state_root_dir != NULL) {
		if (state_root_same(err) == 0)
			return 0;
		errtally_set_root(NULL);	/* not there either */
		errtally_note(ERRTALLY_NO_STATE_ROOT);
		return -1;
	}
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
