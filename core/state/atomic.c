/*
 * Atomic files: a temporary beside the target, fsync, rename, fsync of the
 * directory (atomic_replace: the rename alone, for state that may go back
 * after a power loss).  Temporaries are named ".<name>.tmp.<pid>.<random>" so that
 * atomic_cleanup can tell whose they are.
 */
#include <sys/stat.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "state/atomic.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* The length of the random part mkstemp puts in place of "XXXXXX". */
#define ATOMIC_RANDOM_LEN 6

static void (*failure_hook)(int e);

void
atomic_on_failure(void (*hook)(int e))
{
	failure_hook = hook;
}

/* Tell the failure hook of a failed state write (errno kept). */
static void
atomic_tally(int e)
{
	if (failure_hook != NULL)
		failure_hook(e);
	errno = e;
}

/* The directory part of path ("." when it has none); allocated. */
static char *
atomic_dirname(const char *path)
{
	const char *slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

static void
atomic_free(struct atomic_file *af)
{
	free(af->path);
	free(af->tmp);
	af->path = NULL;
	af->tmp = NULL;
	af->fd = -1;
}

int
atomic_open(const char *path, struct atomic_file *af, struct aiterm_error *err)
{
	const char *slash, *base;

	af->fd = -1;
	af->path = NULL;
	af->tmp = NULL;

	slash = strrchr(path, '/');
	base = slash == NULL ? path : slash + 1;
	if (*base == '\0')
		return error_set(err, "cannot write '%s': %s", path,
		    strerror(EISDIR));

	af->path = xstrdup(path);
	af->tmp = xasprintf("%.*s.%s.tmp.%ld.XXXXXX", (int)(base - path), path,
	    base, (long)getpid());

	/* mkostemp creates the file 0600 at most; fchmod makes it exactly so. */
	if ((af->fd = mkostemp(af->tmp, O_CLOEXEC)) == -1) {
		atomic_tally(errno);
		error_set(err, "cannot create a temporary file beside '%s': %s",
		    path, strerror(errno));
		goto out_free;
	}
	if (fchmod(af->fd, 0600) == -1) {
		error_set(err, "cannot set the mode of '%s': %s", af->tmp,
		    strerror(errno));
		goto out_unlink;
	}
	return 0;

out_unlink:
	close(af->fd);
	unlink(af->tmp);
out_free:
	atomic_free(af);
	return -1;
}

void
atomic_abort(struct atomic_file *af)
{
	int saved = errno;

	if (af->fd != -1)
		close(af->fd);
	if (af->tmp != NULL)
		unlink(af->tmp);
	atomic_free(af);
	errno = saved;
}

/*
 * Make a rename in the directory of path durable.  Filesystems that cannot
 * sync a directory say EINVAL; there is nothing more to do on them.
 */
static int
atomic_sync_dir(const char *path, struct aiterm_error *err)
{
	char *dir;
	int fd, rc = -1;

	dir = atomic_dirname(path);
	if ((fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) == -1) {
		error_set(err, "cannot open directory '%s': %s", dir,
		    strerror(errno));
		goto out_free;
	}
	if (fsync(fd) == -1 && errno != EINVAL) {
		error_set(err, "cannot sync directory '%s': %s", dir,
		    strerror(errno));
		goto out_close;
	}
	rc = 0;

out_close:
	close(fd);
out_free:
	free(dir);
	return rc;
}

int
atomic_commit(struct atomic_file *af, struct aiterm_error *err)
{
	int fd, rc;

	if (fsync(af->fd) == -1) {
		atomic_tally(errno);
		error_set(err, "cannot sync '%s': %s", af->tmp, strerror(errno));
		goto out_abort;
	}

	/* The descriptor is gone after close whatever it returns. */
	fd = af->fd;
	af->fd = -1;
	if (close(fd) == -1) {
		atomic_tally(errno);
		error_set(err, "cannot close '%s': %s", af->tmp, strerror(errno));
		goto out_abort;
	}
	if (rename(af->tmp, af->path) == -1) {
		atomic_tally(errno);
		error_set(err, "cannot rename '%s' to '%s': %s", af->tmp,
		    af->path, strerror(errno));
		goto out_abort;
	}
	rc = atomic_sync_dir(af->path, err);
	atomic_free(af);
	return rc;

out_abort:
	atomic_abort(af);
	return -1;
}

int
atomic_append(struct atomic_file *af, const void *data, size_t len,
    struct aiterm_error *err)
{
	const char *p = data;
	ssize_t n;

	while (len > 0) {
		n = write(af->fd, p, len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			atomic_tally(errno);
			return error_set(err, "cannot write '%s': %s",
			    af->path, strerror(errno));
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int
atomic_write(const char *path, const void *data, size_t len,
    struct aiterm_error *err)
{
	struct atomic_file af;

	if (atomic_open(path, &af, err) == -1)
		return -1;
	if (atomic_append(&af, data, len, err) == -1)
		goto out_abort;
	return atomic_commit(&af, err);

out_abort:
	atomic_abort(&af);
	return -1;
}

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

/*
 * Put tmp in the place of path, which a reader sees whole before and
 * after.  On Linux the two names are exchanged (renameat2
 * RENAME_EXCHANGE) and the old content, now under tmp's name, removed:
 * ext4 starts writing out a file renamed over another (auto_da_alloc),
 * which made each rename of a round trip's state cost 0.1 ms at the
 * median and milliseconds under load, and an exchange is not a rename
 * over (issue 38).  With no target yet, or where the kernel or file
 * system cannot exchange, a plain rename.  A leftover old content is a
 * temporary of ours, which atomic_cleanup removes once we are gone.
 */
static int
replace_into_place(const char *tmp, const char *path)
{
#if defined(__linux__) && defined(SYS_renameat2)
	if (syscall(SYS_renameat2, AT_FDCWD, tmp, AT_FDCWD, path,
	    RENAME_EXCHANGE) == 0) {
		(void)unlink(tmp);
		return 0;
	}
#endif
	return rename(tmp, path);
}

int
atomic_replace(const char *path, const void *data, size_t len,
    struct aiterm_error *err)
{
	struct atomic_file af;
	int fd;

	if (atomic_open(path, &af, err) == -1)
		return -1;
	if (atomic_append(&af, data, len, err) == -1)
		goto out_abort;
	fd = af.fd;
	af.fd = -1;
	if (close(fd) == -1) {
		atomic_tally(errno);
		error_set(err, "cannot close '%s': %s", af.tmp, strerror(errno));
		goto out_abort;
	}
	if (replace_into_place(af.tmp, af.path) == -1) {
		atomic_tally(errno);
		error_set(err, "cannot rename '%s' to '%s': %s", af.tmp,
		    af.path, strerror(errno));
		goto out_abort;
	}
	atomic_free(&af);
	return 0;

out_abort:
	atomic_abort(&af);
	return -1;
}

int
file_read(const char *path, char **data, size_t *len, struct aiterm_error *err)
{
	struct aiterm_buf b = BUF_INIT;
	char chunk[8192];
	ssize_t n;
	int fd, rc = -1;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return error_set(err, "cannot open '%s': %s", path,
		    strerror(errno));
	for (;;) {
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			error_set(err, "cannot read '%s': %s", path,
			    strerror(errno));
			goto out_free;
		}
		if (n == 0)
			break;
		buf_add(&b, chunk, (size_t)n);
	}
	*data = buf_steal(&b, len);
	rc = 0;

out_free:
	buf_free(&b);
	close(fd);
	return rc;
}

/*
 * When name is a temporary written by atomic_open, fill *pid with its
 * writer and return true.
 */
static bool
atomic_tmp_writer(const char *name, long *pid)
{
	const char *dot, *digits;
	char *end;
	size_t i;

	if (name[0] != '.')
		return false;
	dot = strrchr(name, '.');
	if (strlen(dot + 1) != ATOMIC_RANDOM_LEN)
		return false;
	for (i = 1; i <= ATOMIC_RANDOM_LEN; i++) {
		if (!isalnum((unsigned char)dot[i]))
			return false;
	}

	/* Back over the PID to ".tmp.", with a non-empty name before it. */
	digits = dot;
	while (digits > name && isdigit((unsigned char)digits[-1]))
		digits--;
	if (digits == dot || digits - name < 7)
		return false;
	if (strncmp(digits - 5, ".tmp.", 5) != 0)
		return false;

	errno = 0;
	*pid = strtol(digits, &end, 10);
	if (end != dot || errno != 0 || *pid <= 0 || *pid > INT_MAX)
		return false;
	return true;
}

/* The writer still exists (possibly under another user: EPERM). */
static bool
atomic_writer_alive(long pid)
{
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

int
atomic_cleanup(const char *dir, struct aiterm_error *err)
{
	struct dirent *de;
	struct stat sb;
	DIR *d;
	long pid;
	int rc = 0;

	if ((d = opendir(dir)) == NULL)
		return error_set(err, "cannot open directory '%s': %s", dir,
		    strerror(errno));

	/* Keep going past a file that cannot be removed; report the first. */
	for (;;) {
		errno = 0;
		if ((de = readdir(d)) == NULL)
			break;
		if (!atomic_tmp_writer(de->d_name, &pid))
			continue;
		if (atomic_writer_alive(pid))
			continue;
		if (fstatat(dirfd(d), de->d_name, &sb, AT_SYMLINK_NOFOLLOW) == -1 ||
		    !S_ISREG(sb.st_mode))
			continue;
		if (unlinkat(dirfd(d), de->d_name, 0) == -1 && errno != ENOENT &&
		    rc == 0)
			rc = error_set(err, "cannot remove '%s/%s': %s", dir,
			    de->d_name, strerror(errno));
	}
	if (errno != 0 && rc == 0)
		rc = error_set(err, "cannot read directory '%s': %s", dir,
		    strerror(errno));
	closedir(d);
	return rc;
}
