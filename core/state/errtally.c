/*
 * The runtime error aggregate: a fixed table of codes, counted in memory
 * and merged into <state_root>/errors.json.
 *
 * The file is read through the table: only a table code with a count
 * that is a non-negative integer and times of the form
 * YYYY-MM-DDTHH:MM:SSZ are taken; anything else in it (another
 * version's code, a hand edit) is dropped on the next write.  So the
 * file is bounded (ERRTALLY_COUNT entries of about 90 bytes) and can
 * hold nothing but codes, numbers and times.  Several servers share it:
 * each merges under an flock taken without waiting, and keeps its counts
 * for the next try when another holds it.  The write is atomic
 * (atomic_replace: a reader sees the old or the new file).  Any thread
 * may count (the multiplexer's worker meets lost panes and missing
 * transcripts): one recursive mutex guards the table, recursive because
 * a failed write of errors.json itself comes back through errtally_note.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include "state/atomic.h"
#include "state/errtally.h"
#include "util/xmalloc.h"

/* Larger files are not read (they were not written by us). */
#define ERRTALLY_FILE_MAX	65536
/* The format of errors.json (its own: it is not a session file). */
#define ERRTALLY_FORMAT		1
#define ERRTALLY_TIME_LEN	20	/* "2026-12-05T09:50:00Z" */
/* Counts stop here (json_int_t is at least 64 bits wide in practice). */
#define ERRTALLY_COUNT_MAX	((json_int_t)1 << 53)

static const char *const errtally_names[ERRTALLY_COUNT] = {
	[ERRTALLY_MUX_LOST] = "mux_lost",
	[ERRTALLY_LOCK_STALE] = "lock_stale",
	[ERRTALLY_SESSION_BUSY] = "session_busy",
	[ERRTALLY_TRANSCRIPT_MISSING] = "transcript_missing",
	[ERRTALLY_STATE_WRITE_FAILED] = "state_write_failed",
	[ERRTALLY_DISK_FULL] = "disk_full",
	[ERRTALLY_LOG_WRITE_FAILED] = "log_write_failed",
	[ERRTALLY_NO_STATE_ROOT] = "no_state_root",
	[ERRTALLY_STDOUT_CLOSED] = "stdout_closed",
	[ERRTALLY_STATE_FORMAT_NEWER] = "state_format_newer",
};

/* The state root's folder (errtally_set_root), or NULL: memory only. */
static char *errtally_dir;

struct errtally_entry {
	json_int_t	count;
	char		first[ERRTALLY_TIME_LEN + 1];
	char		last[ERRTALLY_TIME_LEN + 1];
};

/* Counted here, not yet in the file. */
static struct errtally_entry errtally_pending[ERRTALLY_COUNT];
/* Set while merging: a failed write of our own file is not counted. */
static bool errtally_busy;
static uv_mutex_t errtally_mutex;
static uv_once_t errtally_once = UV_ONCE_INIT;

static void
errtally_mutex_init(void)
{
	if (uv_mutex_init_recursive(&errtally_mutex) != 0)
		abort();
}

static void
errtally_lock(void)
{
	uv_once(&errtally_once, errtally_mutex_init);
	uv_mutex_lock(&errtally_mutex);
}

static void
errtally_unlock(void)
{
	uv_mutex_unlock(&errtally_mutex);
}

const char *
errtally_name(enum errtally_code code)
{
	return (unsigned)code < ERRTALLY_COUNT ? errtally_names[code] : NULL;
}

int
errtally_code(const char *name)
{
	int i;

	for (i = 0; name != NULL && i < ERRTALLY_COUNT; i++)
		if (strcmp(name, errtally_names[i]) == 0)
			return i;
	return -1;
}

/* Nonzero when s is exactly YYYY-MM-DDTHH:MM:SSZ. */
static int
errtally_time_ok(const char *s)
{
	static const char shape[] = "dddd-dd-ddTdd:dd:ddZ";
	size_t i;

	if (s == NULL || strlen(s) != ERRTALLY_TIME_LEN)
		return 0;
	for (i = 0; i < ERRTALLY_TIME_LEN; i++)
		if (shape[i] == 'd' ? s[i] < '0' || s[i] > '9' :
		    s[i] != shape[i])
			return 0;
	return 1;
}

/* Add b into a: counts summed, the earlier first and the later last. */
static void
errtally_merge(struct errtally_entry *a, const struct errtally_entry *b)
{
	if (b->count <= 0)
		return;
	if (a->count <= 0 || strcmp(b->first, a->first) < 0)
		memcpy(a->first, b->first, sizeof a->first);
	if (a->count <= 0 || strcmp(b->last, a->last) > 0)
		memcpy(a->last, b->last, sizeof a->last);
	a->count = a->count > ERRTALLY_COUNT_MAX - b->count ?
	    ERRTALLY_COUNT_MAX : a->count + b->count;
}

/*
 * The file's entries, through the table, into t (zeroed first); -1 when
 * the file is of a newer format (ERRTALLY_FORMAT), which is not read.
 */
static int
errtally_load(const char *path, struct errtally_entry *t)
{
	struct aiterm_error err = ERROR_INIT;
	struct errtally_entry e;
	json_t *root, *codes, *o;
	const char *first, *last;
	char *data = NULL;
	size_t len = 0;
	int i;

	memset(t, 0, sizeof *t * ERRTALLY_COUNT);
	if (file_read(path, &data, &len, &err) != 0 ||
	    len > ERRTALLY_FILE_MAX) {
		error_clear(&err);
		free(data);
		return 0;
	}
	root = json_loadb(data, len, 0, NULL);
	free(data);
	if (json_integer_value(json_object_get(root, "format")) >
	    ERRTALLY_FORMAT) {
		json_decref(root);
		return -1;
	}
	codes = json_object_get(root, "codes");
	for (i = 0; i < ERRTALLY_COUNT; i++) {
		o = json_object_get(codes, errtally_names[i]);
		first = json_string_value(json_object_get(o, "first"));
		last = json_string_value(json_object_get(o, "last"));
		if (!json_is_integer(json_object_get(o, "count")) ||
		    !errtally_time_ok(first) || !errtally_time_ok(last))
			continue;
		memset(&e, 0, sizeof e);
		e.count = json_integer_value(json_object_get(o, "count"));
		if (e.count <= 0 || e.count > ERRTALLY_COUNT_MAX)
			continue;
		memcpy(e.first, first, ERRTALLY_TIME_LEN);
		memcpy(e.last, last, ERRTALLY_TIME_LEN);
		errtally_merge(&t[i], &e);
	}
	json_decref(root);
	return 0;
}

static json_t *
errtally_array(const struct errtally_entry *t)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < ERRTALLY_COUNT; i++)
		if (t[i].count > 0)
			json_array_append_new(a, json_pack("{s:s, s:I, s:s, "
			    "s:s}", "code", errtally_names[i], "count",
			    t[i].count, "first", t[i].first, "last",
			    t[i].last));
	return a;
}

/* Write t to path: {"format":1,"codes":{"<code>":{...}}}. */
static int
errtally_store(const char *path, const struct errtally_entry *t)
{
	struct aiterm_error err = ERROR_INIT;
	json_t *root, *codes = json_object();
	char *text;
	int i, rc;

	for (i = 0; i < ERRTALLY_COUNT; i++)
		if (t[i].count > 0)
			json_object_set_new(codes, errtally_names[i],
			    json_pack("{s:I, s:s, s:s}", "count", t[i].count,
			    "first", t[i].first, "last", t[i].last));
	root = json_pack("{s:i, s:o}", "format", ERRTALLY_FORMAT, "codes",
	    codes);
	text = json_dumps(root, JSON_INDENT(1) | JSON_SORT_KEYS);
	rc = atomic_replace(path, text, strlen(text), &err);
	error_clear(&err);
	free(text);
	json_decref(root);
	return rc;
}

/* Merge what is pending into the file when its lock is free now. */
static void
errtally_flush(void)
{
	struct errtally_entry t[ERRTALLY_COUNT];
	char *path = NULL, *lock = NULL;
	int fd = -1, i;

	if (errtally_dir == NULL || errtally_busy)
		return;
	errtally_busy = true;
	path = xasprintf("%s/errors.json", errtally_dir);
	lock = xasprintf("%s/errors.lock", errtally_dir);
	fd = open(lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0)
		goto out;
	if (errtally_load(path, t) != 0)
		goto out;	/* a newer format: left as it is */
	for (i = 0; i < ERRTALLY_COUNT; i++)
		errtally_merge(&t[i], &errtally_pending[i]);
	if (errtally_store(path, t) == 0)
		memset(errtally_pending, 0, sizeof errtally_pending);
out:
	if (fd >= 0)
		close(fd);
	free(lock);
	free(path);
	errtally_busy = false;
}

void
errtally_note(enum errtally_code code)
{
	struct errtally_entry now;
	struct tm tm;
	time_t t = time(NULL);

	if ((unsigned)code >= ERRTALLY_COUNT)
		return;
	memset(&now, 0, sizeof now);
	now.count = 1;
	gmtime_r(&t, &tm);
	strftime(now.first, sizeof now.first, "%Y-%m-%dT%H:%M:%SZ", &tm);
	memcpy(now.last, now.first, sizeof now.last);
	errtally_lock();
	errtally_merge(&errtally_pending[code], &now);
	errtally_flush();
	errtally_unlock();
}

int
errtally_note_name(const char *name)
{
	int code = errtally_code(name);

	if (code < 0)
		return -1;
	errtally_note((enum errtally_code)code);
	return 0;
}

json_t *
errtally_json(void)
{
	struct errtally_entry t[ERRTALLY_COUNT];
	char *path = NULL;
	int i;

	memset(t, 0, sizeof t);
	/* The file is read without the lock, which the worker may want. */
	errtally_lock();
	if (errtally_dir != NULL)
		path = xasprintf("%s/errors.json", errtally_dir);
	errtally_unlock();
	if (path != NULL && errtally_load(path, t) != 0)
		memset(t, 0, sizeof t);
	free(path);
	errtally_lock();
	for (i = 0; i < ERRTALLY_COUNT; i++)
		errtally_merge(&t[i], &errtally_pending[i]);
	errtally_unlock();
	return errtally_array(t);
}

/* A failed state write (state/atomic.h's hook): counted by its errno. */
static void
errtally_write_failed(int e)
{
	errtally_note(e == ENOSPC || e == EDQUOT ? ERRTALLY_DISK_FULL :
	    ERRTALLY_STATE_WRITE_FAILED);
}

void
errtally_set_root(const char *root)
{
	errtally_lock();
	free(errtally_dir);
	errtally_dir = root != NULL ? xstrdup(root) : NULL;
	errtally_unlock();
	atomic_on_failure(errtally_write_failed);
}

void
errtally_reset(void)
{
	errtally_lock();
	memset(errtally_pending, 0, sizeof errtally_pending);
	errtally_unlock();
}
