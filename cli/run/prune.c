/* Removing run records past their retention (SUP-RUN, ADR 0023). */
#include <sys/stat.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/run/prune.h"
#include "cli/run/record.h"
#include "pty/session.h"
#include "state/stateroot.h"
#include "util/envnum.h"
#include "util/xmalloc.h"

struct done_run {
	char		 id[RUN_ID_MAX + 1];
	long long	 when_ms;	/* ended, else started, else made */
};

void
run_keep_from_env(struct run_keep *k)
{
	k->count = env_num(RUN_KEEP_ENV, RUN_KEEP_DEFAULT, 0, 1000000);
	k->max_age_ms = env_num(RUN_KEEP_DAYS_ENV, RUN_KEEP_DAYS_DEFAULT, 0,
	    36500) * RUN_DAY_MS;
}

/*
 * Whether the run in folder id is over, and since when.  A record not
 * exited whose supervisor and command are both gone is over too (its
 * supervisor was killed); a folder without a readable record is, once
 * it is older than a run takes to write its first record.
 */
static bool
run_over(int runs, const char *id, long long now, long long *when)
{
	struct aiterm_error err = ERROR_INIT;
	struct run_record r;
	struct stat sb;
	bool over;

	if (run_record_read(id, &r, &err) != 0) {
		error_clear(&err);
		if (fstatat(runs, id, &sb, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISDIR(sb.st_mode))
			return false;
		*when = (long long)sb.st_mtime * 1000;
		return now - *when >= RUN_UNREADABLE_GRACE_MS;
	}
	over = r.state == RUN_EXITED ||
	    (!run_same_process(r.supervisor_pid, r.supervisor_start_id) &&
	    !run_same_process(r.pid, r.start_id));
	*when = r.ended_ms > 0 ? r.ended_ms : r.started_ms;
	run_record_free(&r);
	return over;
}

/* Remove runs/<id>/: its files (never followed), then the folder. */
static int
run_remove(int runs, const char *id, struct aiterm_error *err)
{
	struct dirent *de;
	DIR *d;
	int fd;

	if ((fd = openat(runs, id, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
	    O_CLOEXEC)) == -1 || (d = fdopendir(fd)) == NULL) {
		if (fd != -1)
			close(fd);
		return error_set(err, "cannot remove run %s: %s", id,
		    strerror(errno));
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") != 0 &&
		    strcmp(de->d_name, "..") != 0)
			unlinkat(fd, de->d_name, 0);
	}
	closedir(d);
	if (unlinkat(runs, id, AT_REMOVEDIR) != 0)
		return error_set(err, "cannot remove run %s: %s", id,
		    strerror(errno));
	return 0;
}

static int
newest_first(const void *a, const void *b)
{
	const struct done_run *x = a, *y = b;

	return x->when_ms < y->when_ms ? 1 : x->when_ms > y->when_ms ? -1 :
	    strcmp(x->id, y->id);
}

int
run_prune(const struct run_keep *k, struct run_pruned *out,
    struct aiterm_error *err)
{
	char *path = state_path("runs");
	struct done_run *done = NULL;
	struct dirent *de;
	size_t n = 0, cap = 0, i;
	long long now = session_now_ms(), when;
	DIR *d;
	int runs, rc = 0;

	memset(out, 0, sizeof *out);
	d = path != NULL ? opendir(path) : NULL;
	free(path);
	if (d == NULL)
		return 0;	/* no run yet */
	runs = dirfd(d);
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, "run-", 4) != 0 ||
		    strlen(de->d_name) > RUN_ID_MAX)
			continue;
		if (!run_over(runs, de->d_name, now, &when)) {
			out->live++;
			continue;
		}
		if (n == cap) {
			cap = cap == 0 ? 64 : cap * 2;
			done = xrealloc(done, cap * sizeof *done);
		}
		memcpy(done[n].id, de->d_name, strlen(de->d_name) + 1);
		done[n++].when_ms = when;
	}
	if (n > 1)
		qsort(done, n, sizeof *done, newest_first);
	for (i = 0; i < n; i++) {
		if ((long long)i < k->count && now - done[i].when_ms <=
		    k->max_age_ms)
			out->kept++;
		else if (run_remove(runs, done[i].id, err) == 0)
			out->removed++;
		else
			rc = -1;
	}
	closedir(d);
	free(done);
	return rc;
}
