/*
 * Owner locks.  The owner record is written to a temporary beside the lock,
 * synced, and published with link(2), which fails with EEXIST when the lock
 * exists: the lock is created exclusively and nobody ever reads it half
 * written.  Stale locks are reported to the caller and left in place.
 */
#include <sys/types.h>

#include <sys/file.h>

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "proc/proc.h"
#include "state/atomic.h"
#include "state/lock.h"
#include "util/xmalloc.h"

/* Attempts when a lock disappears between finding it and reading it. */
#define LOCK_TRIES 3

/* This process as a lock owner. */
static int
lock_self(struct lock_owner *self, struct aiterm_error *err)
{
	self->pid = (long)getpid();
	if (proc_start_id(self->pid, self->start, sizeof self->start) == -1)
		return error_set(err, "cannot find the start identifier of "
		    "process %ld", self->pid);
	return 0;
}

/* The owner record, {"pid":123,"start":"456"}; allocated, or NULL. */
static char *
lock_encode(const struct lock_owner *owner, const char *path,
    struct aiterm_error *err)
{
	json_t *obj;
	char *text;

	obj = json_pack("{s:I, s:s}", "pid", (json_int_t)owner->pid, "start",
	    owner->start);
	if (obj == NULL) {
		error_set(err, "cannot encode the owner of lock '%s'", path);
		return NULL;
	}
	if ((text = json_dumps(obj, JSON_COMPACT)) == NULL)
		error_set(err, "cannot encode the owner of lock '%s'", path);
	json_decref(obj);
	return text;
}

static int
lock_decode(const char *path, const char *text, size_t len,
    struct lock_owner *owner, struct aiterm_error *err)
{
	json_error_t jerr;
	json_int_t pid;
	const char *start;
	json_t *obj;
	int rc = -1;

	obj = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (obj == NULL)
		return error_set(err, "invalid lock file '%s': %s", path,
		    jerr.text);
	if (json_unpack_ex(obj, &jerr, JSON_STRICT, "{s:I, s:s}", "pid", &pid,
	    "start", &start) == -1) {
		error_set(err, "invalid lock file '%s': %s", path, jerr.text);
		goto out_decref;
	}
	if (pid <= 0 || pid > INT_MAX) {
		error_set(err, "invalid lock file '%s': pid %lld is out of range",
		    path, (long long)pid);
		goto out_decref;
	}
	if (*start == '\0' || strlen(start) >= sizeof owner->start) {
		error_set(err, "invalid lock file '%s': the start identifier is "
		    "empty or longer than %zu bytes", path,
		    sizeof owner->start - 1);
		goto out_decref;
	}
	owner->pid = (long)pid;
	strcpy(owner->start, start);
	rc = 0;

out_decref:
	json_decref(obj);
	return rc;
}

int
lock_read(const char *path, struct lock_owner *owner, struct aiterm_error *err)
{
	char *text;
	size_t len;
	int rc;

	if (file_read(path, &text, &len, err) == -1)
		return -1;
	/* Its record never reached the disk (a power cut): a dead owner. */
	if (len == 0) {
		owner->pid = 0;
		owner->start[0] = '\0';
		free(text);
		return 0;
	}
	rc = lock_decode(path, text, len, owner, err);
	free(text);
	return rc;
}

/*
 * When the start identifier cannot be read but the PID exists, the owner
 * counts as alive: a lock is only ever called stale when that is certain.
 */
bool
lock_owner_alive(const struct lock_owner *owner)
{
	char start[sizeof owner->start];

	if (owner->pid <= 0 || owner->pid > INT_MAX)
		return false;
	if (proc_start_id(owner->pid, start, sizeof start) == 0)
		return strcmp(start, owner->start) == 0;
	return kill((pid_t)owner->pid, 0) == 0 || errno == EPERM;
}

int
lock_acquire(const char *path, struct lock_owner *owner,
    struct aiterm_error *err)
{
	struct lock_owner self, found;
	struct atomic_file af;
	char *text;
	int tries, rc = -1;

	if (lock_self(&self, err) == -1)
		return -1;
	if ((text = lock_encode(&self, path, err)) == NULL)
		return -1;
	if (atomic_open(path, &af, err) == -1)
		goto out_free;
	/*
	 * Not fsynced: a lock coordinates live processes, which read it from
	 * the page cache; after a power cut its owner is gone whatever the
	 * disk kept (an empty record there reads as a dead owner).
	 */
	if (atomic_append(&af, text, strlen(text), err) == -1)
		goto out_abort;

	for (tries = 0; tries < LOCK_TRIES; tries++) {
		if (link(af.tmp, path) == 0) {
			found = self;
			rc = LOCK_ACQUIRED;
			break;
		}
		if (errno != EEXIST) {
			error_set(err, "cannot create lock '%s': %s", path,
			    strerror(errno));
			goto out_abort;
		}
		if (lock_read(path, &found, err) == 0) {
			rc = lock_owner_alive(&found) ? LOCK_HELD : LOCK_STALE;
			break;
		}

		/* Released between link and read: try again. */
		if (access(path, F_OK) == 0 || errno != ENOENT)
			goto out_abort;
		if (err != NULL)
			error_clear(err);
	}
	if (rc == -1) {
		error_set(err, "cannot create lock '%s': it was released while "
		    "being read %d times in a row", path, LOCK_TRIES);
		goto out_abort;
	}
	if (owner != NULL)
		*owner = found;

out_abort:
	atomic_abort(&af);
out_free:
	free(text);
	return rc;
}

static bool
same_owner(const struct lock_owner *a, const struct lock_owner *b)
{
	return a->pid == b->pid && strcmp(a->start, b->start) == 0;
}

int
lock_take_over(const char *path, const struct lock_owner *gone,
    struct lock_owner *owner, struct aiterm_error *err)
{
	struct lock_owner self, now;
	struct atomic_file af;
	char *guard = NULL, *text = NULL;
	int fd = -1, rc = -1;
	bool alive;

	if (lock_self(&self, err) == -1)
		return -1;
	guard = xasprintf("%s.guard", path);
	fd = open(guard, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd == -1) {
		error_set(err, "cannot open the lock guard '%s': %s", guard,
		    strerror(errno));
		goto out;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) == -1) {
		if (errno != EWOULDBLOCK) {
			error_set(err, "cannot take the lock guard '%s': %s",
			    guard, strerror(errno));
			goto out;
		}
		/* Another process decides now: as good as held. */
		*owner = *gone;
		rc = LOCK_HELD;
		goto out;
	}
	if (lock_read(path, &now, err) == -1)
		goto out;
	/* Another owner meanwhile, or the same one alive after all. */
	alive = lock_owner_alive(&now);
	if (alive || !same_owner(&now, gone)) {
		*owner = now;
		rc = alive ? LOCK_HELD : LOCK_STALE;
		goto out;
	}
	if ((text = lock_encode(&self, path, err)) == NULL ||
	    atomic_open(path, &af, err) == -1)
		goto out;
	if (atomic_append(&af, text, strlen(text), err) == -1) {
		atomic_abort(&af);
		goto out;
	}
	if (rename(af.tmp, path) == -1) {
		error_set(err, "cannot take over lock '%s': %s", path,
		    strerror(errno));
		atomic_abort(&af);
		goto out;
	}
	atomic_abort(&af);
	*owner = self;
	rc = LOCK_ACQUIRED;
out:
	if (fd != -1)
		close(fd);	/* and the guard with it */
	free(text);
	free(guard);
	return rc;
}

int
lock_release(const char *path, struct aiterm_error *err)
{
	struct lock_owner self, owner;

	if (lock_self(&self, err) == -1 || lock_read(path, &owner, err) == -1)
		return -1;
	if (owner.pid != self.pid || strcmp(owner.start, self.start) != 0)
		return error_set(err, "cannot release lock '%s': it belongs to "
		    "process %ld (start %s), not to this process", path,
		    owner.pid, owner.start);
	if (unlink(path) == -1)
		return error_set(err, "cannot remove lock '%s': %s", path,
		    strerror(errno));
	return 0;
}
