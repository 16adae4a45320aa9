/*
 * Codex Steer hand-over records (deliver/codexhook.h).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deliver/codexhook.h"
#include "proc/proc.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/sha256.h"
#include "util/xmalloc.h"

static const char *const names[CODEXHOOK_STATE_COUNT] = {
	[CODEXHOOK_REMOVING] = "removing",
	[CODEXHOOK_EMITTED] = "emitted",
	[CODEXHOOK_QUEUED] = "queued",
	[CODEXHOOK_UNKNOWN] = "unknown",
};

static char *
folder(void)
{
	return state_path("codex-hooks");
}

/* The record of d in dir, if any (allocated path), by its id's prefix. */
static char *
find(const char *dir, const struct delivery *d)
{
	const struct dirent *e;
	size_t n = strlen(d->id);
	char *found = NULL;
	DIR *dp;

	if ((dp = opendir(dir)) == NULL)
		return NULL;
	while (found == NULL && (e = readdir(dp)) != NULL) {
		if (strncmp(e->d_name, d->id, n) == 0 && e->d_name[n] == '.' &&
		    strstr(e->d_name, ".tmp.") == NULL)
			found = xasprintf("%s/%s", dir, e->d_name);
	}
	closedir(dp);
	return found;
}

bool
codexhook_held(const struct delivery *d)
{
	char *dir = folder(), *p = find(dir, d);
	bool held = p != NULL;

	free(p);
	free(dir);
	return held;
}

static json_t *
record(const struct delivery *d, const char *body_hash,
    enum codexhook_state state, const char *why)
{
	char start[PROC_START_ID_MAX] = "";
	json_t *j;

	(void)proc_start_id((long)getpid(), start, sizeof start);
	j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:I, s:s}", "home", d->home,
	    "thread", d->conversation, "delivery_id", d->id, "body_sha256",
	    body_hash, "state", names[state], "pid", (json_int_t)getpid(),
	    "start", start);
	if (why != NULL)
		json_object_set_new(j, "why", json_string(why));
	return j;
}

int
codexhook_take(const struct delivery *d, const char *body, size_t len,
    char **path, struct aiterm_error *err)
{
	char home[17], hash[65], *dir = folder(), *tmp, *text;
	int fd, rc = 0;
	size_t n;
	json_t *j;

	*path = NULL;
	if (state_mkdir(dir, err) != 0) {
		free(dir);
		return -1;
	}
	(void)chmod(dir, 0700);
	sha256_hex(d->home, strlen(d->home), home, 16);
	sha256_hex(body, len, hash, 64);
	*path = xasprintf("%s/%s.%s.%s.%.16s", dir, d->id, home,
	    d->conversation, hash);
	tmp = xasprintf("%s/%s.tmp.%ld", dir, d->id, (long)getpid());
	j = record(d, hash, CODEXHOOK_REMOVING, NULL);
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	n = strlen(text);
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write(fd, text, n) != (ssize_t)n || fsync(fd) != 0)
		rc = error_set(err, "cannot take %s: %s", d->id,
		    strerror(errno));
	else if (codexhook_held(d))
		rc = 1;
	else if (link(tmp, *path) != 0)
		rc = errno == EEXIST ? 1 : error_set(err, "cannot take %s: %s",
		    d->id, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	free(text);
	free(tmp);
	free(dir);
	if (rc != 0) {
		free(*path);
		*path = NULL;
	}
	return rc;
}

int
codexhook_set(const char *path, enum codexhook_state state, const char *why,
    struct aiterm_error *err)
{
	json_t *j = json_load_file(path, 0, NULL);
	char *text;
	int rc;

	if (j == NULL)
		return error_set(err, "cannot read %s", path);
	json_object_set_new(j, "state", json_string(names[state]));
	if (why != NULL)
		json_object_set_new(j, "why", json_string(why));
	text = json_dumps(j, JSON_COMPACT);
	json_decref(j);
	rc = atomic_write(path, text, strlen(text), err);
	free(text);
	return rc;
}

json_t *
codexhook_seen(const struct delivery *d)
{
	char *dir = folder(), *p = find(dir, d), id[PROC_START_ID_MAX];
	json_t *j = p != NULL ? json_load_file(p, 0, NULL) : NULL;
	const char *st = json_string_value(json_object_get(j, "state"));
	long pid = (long)json_integer_value(json_object_get(j, "pid"));
	const char *start = json_string_value(json_object_get(j, "start"));

	free(p);
	free(dir);
	if (j == NULL)
		return NULL;
	json_object_del(j, "home");
	if (st != NULL && strcmp(st, names[CODEXHOOK_REMOVING]) == 0 &&
	    (proc_start_id(pid, id, sizeof id) != 0 || start == NULL ||
	    strcmp(id, start) != 0)) {
		json_object_set_new(j, "state",
		    json_string(names[CODEXHOOK_UNKNOWN]));
		json_object_set_new(j, "why", json_string("hook_ended"));
	}
	st = json_string_value(json_object_get(j, "state"));
	if (st != NULL && strcmp(st, names[CODEXHOOK_UNKNOWN]) == 0)
		json_object_set_new(j, "error",
		    json_string(CODEX_HOOK_UNCONFIRMED));
	return j;
}
