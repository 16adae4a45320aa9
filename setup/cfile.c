#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cfile.h"
#include "run.h"
#include "state/atomic.h"
#include "util/xmalloc.h"

#define HOOK_MS		30000	/* the test hook's program */

/* What a file that is not a regular one is, for the refusal. */
static const struct {
	mode_t		 type;
	const char	*what;
} kinds[] = {
	{ S_IFIFO, "a FIFO (named pipe)" },
	{ S_IFCHR, "a character device" },
	{ S_IFBLK, "a block device" },
	{ S_IFDIR, "a directory" },
	{ S_IFSOCK, "a socket" },
};

static const char *
kind(mode_t mode)
{
	size_t i;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if ((mode & S_IFMT) == kinds[i].type)
			return kinds[i].what;
	}
	return "not a regular file";
}

/* Same file, same size, same times: nothing wrote to it since. */
static bool
same_stat(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino &&
	    a->st_size == b->st_size &&
	    a->st_mtim.tv_sec == b->st_mtim.tv_sec &&
	    a->st_mtim.tv_nsec == b->st_mtim.tv_nsec &&
	    a->st_ctim.tv_sec == b->st_ctim.tv_sec &&
	    a->st_ctim.tv_nsec == b->st_ctim.tv_nsec;
}

/*
 * The whole of path, which stat said is the regular file want: opened
 * without blocking (O_NONBLOCK: a FIFO swapped in answers at once),
 * checked to be that very file, read up to CFILE_MAX.  Returns 0, -1
 * with errno (EFBIG: too large, ESTALE: not the file stat saw).
 */
static int
slurp(const char *path, const struct stat *want, char **text, size_t *len)
{
	struct stat st;
	char *buf;
	size_t n = 0;
	ssize_t r;
	int fd, e;

	*text = NULL;
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY |
	    O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    st.st_dev != want->st_dev || st.st_ino != want->st_ino) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	buf = xmalloc(CFILE_MAX + 2);
	/* One byte past the limit tells a file that grew too large. */
	while (n <= CFILE_MAX && (r = read(fd, buf + n, CFILE_MAX + 1 - n))
	    != 0) {
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			e = errno;
			free(buf);
			close(fd);
			errno = e;
			return -1;
		}
		n += (size_t)r;
	}
	close(fd);
	if (n > CFILE_MAX) {
		free(buf);
		errno = EFBIG;
		return -1;
	}
	buf[n] = '\0';
	*text = xrealloc(buf, n + 1);
	*len = n;
	return 0;
}

/* "path" or "path (a link to target)", for messages. */
static char *
named(const struct cfile *f, const char *target)
{
	return target != NULL && strcmp(f->path, target) != 0 ?
	    xasprintf("%s (a link to %s)", f->path, target) :
	    xstrdup(f->path);
}

static int
refuse(struct cfile *f, const char *target, struct setup_outcome *o,
    const char *code, const char *why)
{
	char *name = named(f, target);

	setup_fail(o, code, "%s %s; it was left as it is", name, why);
	free(name);
	return -1;
}

static int
too_large(struct cfile *f, struct setup_outcome *o, long long size)
{
	char why[160];

	snprintf(why, sizeof why, "is %s%lld bytes, more than the 8 MiB (%u "
	    "bytes) aiterm-setup reads", size > CFILE_MAX ? "" : "over ",
	    size, CFILE_MAX);
	return refuse(f, f->target, o, "CONFIG_TOO_LARGE", why);
}

int
cfile_read(struct cfile *f, const char *path, struct setup_outcome *o)
{
	char why[PATH_MAX + 80], link[PATH_MAX];
	struct stat lst;
	ssize_t n;

	memset(f, 0, sizeof *f);
	f->path = xstrdup(path);
	if (lstat(path, &lst) != 0) {
		if (errno != ENOENT)
			return setup_fail(o, "CONFIG_UNREADABLE", "%s: %s",
			    path, strerror(errno));
		f->target = xstrdup(path);
		return 0;
	}
	/* stat, not open: a FIFO or a device is never opened. */
	if (stat(path, &f->st) != 0) {
		if (errno != ENOENT)
			return setup_fail(o, "CONFIG_UNREADABLE", "%s: %s",
			    path, strerror(errno));
		n = readlink(path, link, sizeof link - 1);
		link[n > 0 ? n : 0] = '\0';
		snprintf(why, sizeof why, "is a symbolic link to %s, which "
		    "does not exist", link);
		return refuse(f, NULL, o, "CONFIG_NOT_REGULAR", why);
	}
	if ((f->target = realpath(path, NULL)) == NULL)
		return setup_fail(o, "CONFIG_UNREADABLE", "%s: %s", path,
		    strerror(errno));
	if (!S_ISREG(f->st.st_mode)) {
		snprintf(why, sizeof why, "is %s, not a regular file: "
		    "aiterm-setup reads and writes regular files only",
		    kind(f->st.st_mode));
		return refuse(f, f->target, o, "CONFIG_NOT_REGULAR", why);
	}
	if (f->st.st_size > (off_t)CFILE_MAX)
		return too_large(f, o, (long long)f->st.st_size);
	if (slurp(f->target, &f->st, &f->text, &f->len) != 0) {
		if (errno == EFBIG)
			return too_large(f, o, CFILE_MAX);
		if (errno == ESTALE)
			return refuse(f, f->target, o, "CONFIG_CHANGED", "was "
			    "replaced by another program while setup opened "
			    "it");
		return setup_fail(o, "CONFIG_UNREADABLE", "%s: %s", f->target,
		    strerror(errno));
	}
	f->exists = true;
	return 0;
}

void
cfile_free(struct cfile *f)
{
	free(f->path);
	free(f->target);
	free(f->text);
	memset(f, 0, sizeof *f);
}

/*
 * Test only (with AITERM_TEST_TOOLS=1): AITERM_TEST_SETUP_BEFORE_RENAME
 * names a program run with the target's path after the new text is
 * written beside it and before the last check, so a test can change the
 * file at that very moment.  It is not a setting.
 */
static void
test_hook(const struct cfile *f)
{
	const char *on = getenv("AITERM_TEST_TOOLS"),
	    *prog = getenv("AITERM_TEST_SETUP_BEFORE_RENAME");
	char *argv[] = { (char *)prog, f->target, NULL };
	struct run_result r;

	if (on == NULL || strcmp(on, "1") != 0 || prog == NULL ||
	    *prog == '\0')
		return;
	if (run_cmd(argv, HOOK_MS, &r) == 0)
		run_result_free(&r);
}

/* The target is still what cfile_read saw (or still absent). */
static bool
unchanged(const struct cfile *f)
{
	struct stat st;
	char *now, *target;
	size_t len;
	bool same;

	if (!f->exists)
		return lstat(f->path, &st) != 0 && errno == ENOENT;
	/* The link must still lead to the same file, */
	target = realpath(f->path, NULL);
	same = target != NULL && strcmp(target, f->target) == 0;
	free(target);
	/* which nothing wrote to (a write within one clock tick too). */
	if (!same || stat(f->target, &st) != 0 || !same_stat(&st, &f->st) ||
	    slurp(f->target, &st, &now, &len) != 0)
		return false;
	same = len == f->len && memcmp(now, f->text, len) == 0;
	free(now);
	return same;
}

int
cfile_write(const struct cfile *f, const char *text, mode_t mode,
    struct setup_outcome *o)
{
	struct aiterm_error err = ERROR_INIT;
	struct atomic_file af;
	int e;

	/* Beside the target, so the rename stays in its filesystem. */
	if (atomic_open(f->target, &af, &err) != 0 ||
	    atomic_append(&af, text, strlen(text), &err) != 0 ||
	    fchmod(af.fd, mode) != 0 || fsync(af.fd) != 0) {
		e = errno;
		setup_fail(o, "WRITE_FAILED", "could not write %s: %s; the "
		    "file is as it was", f->target, err.msg != NULL ?
		    err.msg : strerror(e));
		if (af.fd >= 0)
			atomic_abort(&af);
		error_clear(&err);
		return -1;
	}
	test_hook(f);
	if (!unchanged(f)) {
		atomic_abort(&af);
		return setup_fail(o, "CONFIG_CHANGED", "%s was %s by another "
		    "program during setup; nothing written (the other "
		    "program's edit is kept; run aiterm-setup again)",
		    f->path, f->exists ? "changed" : "created");
	}
	if (atomic_commit(&af, &err) != 0) {
		setup_fail(o, "WRITE_FAILED", "could not write %s: %s; the "
		    "file is as it was", f->target, error_msg(&err));
		error_clear(&err);
		return -1;
	}
	return 0;
}
