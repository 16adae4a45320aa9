#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deliver/store.h"
#include "state/atomic.h"
#include "state/format.h"
#include "state/stateroot.h"
#include "util/sha256.h"
#include "util/xmalloc.h"

/* Each place's folder under the state root (store.h). */
static const char *const dirnames[DELIVERY_PLACE_COUNT] = {
	[DELIVERY_HERE] = "parent-deliveries",
	[DELIVERY_RELAYED] = "remote-parent-deliveries",
};
/* The hex of a host's hash in a child's key, as in remote/<hash>/. */
#define HOST_HEX	16

bool
delivery_id_valid(const char *id)
{
	size_t i;

	if (id == NULL || id[0] != 'd' || strlen(id) != 17)
		return false;
	for (i = 1; id[i] != '\0'; i++) {
		if (strchr("0123456789abcdef", id[i]) == NULL)
			return false;
	}
	return true;
}

char *
delivery_dir(enum delivery_place place)
{
	return state_path("%s", dirnames[place]);
}

static char *
path_in(enum delivery_place place, const char *id, const char *ext)
{
	return state_path("%s/%s.%s", dirnames[place], id, ext);
}

char *
delivery_path(const struct delivery *d, const char *ext)
{
	return path_in(d->place, d->id, ext);
}

void
delivery_child_key(const char *host, const char *session, char *key,
    size_t size)
{
	char hex[HOST_HEX + 1];

	if (host == NULL || *host == '\0') {
		snprintf(key, size, "%s", session);
		return;
	}
	sha256_hex(host, strlen(host), hex, HOST_HEX);
	snprintf(key, size, "%s-%s", hex, session);
}

static void
new_id(char id[DELIVERY_ID_MAX + 1])
{
	unsigned char r[8];
	int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
	size_t i;

	if (fd < 0 || read(fd, r, sizeof r) != (ssize_t)sizeof r) {
		long long t = session_now_ms() ^ ((long long)getpid() << 20);

		memcpy(r, &t, sizeof r);
	}
	if (fd >= 0)
		close(fd);
	id[0] = 'd';
	for (i = 0; i < sizeof r; i++)
		snprintf(id + 1 + 2 * i, 3, "%02x", r[i]);
}

/* Open and flock the record's lock file; -1 when another holds it. */
static int
lock_open(const struct delivery *d, bool create)
{
	char *path = delivery_path(d, "lock");
	int fd = open(path, O_RDWR | O_CLOEXEC | (create ? O_CREAT : 0), 0600);

	free(path);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		fd = -1;
	}
	return fd;
}

int
delivery_begin(const char *session, struct delivery *d, int *lock_fd,
    struct aiterm_error *err)
{
	char *dir;
	int rc;

	d->place = d->remote[0] != '\0' ? DELIVERY_RELAYED : DELIVERY_HERE;
	dir = delivery_dir(d->place);
	rc = state_mkdir(dir, err);
	free(dir);
	if (rc != 0)
		return -1;
	new_id(d->id);
	snprintf(d->session, sizeof d->session, "%s", session);
	d->state = DELIVERY_WAITING;
	d->owner_pid = (long)getpid();
	proc_start_id(d->owner_pid, d->owner_start, sizeof d->owner_start);
	d->created_ms = d->updated_ms = session_now_ms();
	if ((*lock_fd = lock_open(d, true)) < 0)
		return error_set(err, "cannot lock delivery %s: %s", d->id,
		    strerror(errno));
	if (delivery_write(d, err) != 0) {
		delivery_abandon(d, *lock_fd);
		*lock_fd = -1;
		return -1;
	}
	return 0;
}

json_t *
delivery_json(const struct delivery *d)
{
	json_t *j = json_pack("{s:i, s:s, s:s, s:s, s:s, s:i, s:s, s:{s:I, s:s}, "
	    "s:I, s:I}", "format", 1, "id", d->id, "session_id", d->session,
	    "state", delivery_state_name(d->state), "parent", d->parent,
	    "turn", (int)d->turn,
	    "event_cursor", d->cursor, "owner", "pid", (json_int_t)d->owner_pid,
	    "start", d->owner_start, "created_ms", (json_int_t)d->created_ms,
	    "updated_ms", (json_int_t)d->updated_ms);

	if (d->outcome[0] != '\0')
		json_object_set_new(j, "outcome", json_string(d->outcome));
	if (d->ref[0] != '\0')
		json_object_set_new(j, "parent_ref", json_string(d->ref));
	if (d->conversation[0] != '\0')
		json_object_set_new(j, "conversation",
		    json_string(d->conversation));
	if (d->home[0] != '\0')
		json_object_set_new(j, "home", json_string(d->home));
	if (d->remote[0] != '\0')
		json_object_set_new(j, "remote", json_pack("{s:s, s:s}",
		    "host", d->remote, "delivery_id", d->remote_id));
	return j;
}

int
delivery_write(const struct delivery *d, struct aiterm_error *err)
{
	char *path = delivery_path(d, "json");
	int rc = state_json_write(path, delivery_json(d), err);

	free(path);
	return rc;
}

static void
copy(char *dst, size_t size, json_t *v)
{
	snprintf(dst, size, "%s", json_string_value(v) != NULL ?
	    json_string_value(v) : "");
}

int
delivery_read(const char *id, struct delivery *d, struct aiterm_error *err)
{
	char *path;
	json_t *j = NULL, *o;
	json_error_t je;
	int state, place;

	memset(d, 0, sizeof *d);
	if (!delivery_id_valid(id))
		return error_set(err, "'%s' is not a delivery id", id);
	/* Ids are random: a record is in one folder or the other. */
	for (place = 0; j == NULL && place < DELIVERY_PLACE_COUNT; place++) {
		path = path_in((enum delivery_place)place, id, "json");
		j = json_load_file(path, 0, &je);
		free(path);
		d->place = (enum delivery_place)place;
	}
	if (j == NULL)
		return error_set(err, "no delivery %s", id);
	if (state_format_check(j, id, err) != 0) {
		json_decref(j);
		return -1;
	}
	snprintf(d->id, sizeof d->id, "%s", id);
	copy(d->session, sizeof d->session, json_object_get(j, "session_id"));
	if ((state = delivery_state_of(json_string_value(json_object_get(j,
	    "state")))) < 0) {
		json_decref(j);
		return error_set(err, "delivery %s: its state is none of "
		    "waiting, ready, submitted, failed, unknown", id);
	}
	d->state = (enum delivery_state)state;
	copy(d->parent, sizeof d->parent, json_object_get(j, "parent"));
	copy(d->outcome, sizeof d->outcome, json_object_get(j, "outcome"));
	copy(d->cursor, sizeof d->cursor, json_object_get(j, "event_cursor"));
	copy(d->ref, sizeof d->ref, json_object_get(j, "parent_ref"));
	copy(d->conversation, sizeof d->conversation, json_object_get(j,
	    "conversation"));
	copy(d->home, sizeof d->home, json_object_get(j, "home"));
	o = json_object_get(j, "remote");
	copy(d->remote, sizeof d->remote, json_object_get(o, "host"));
	copy(d->remote_id, sizeof d->remote_id, json_object_get(o,
	    "delivery_id"));
	d->turn = (unsigned)json_integer_value(json_object_get(j, "turn"));
	o = json_object_get(j, "owner");
	d->owner_pid = (long)json_integer_value(json_object_get(o, "pid"));
	copy(d->owner_start, sizeof d->owner_start, json_object_get(o,
	    "start"));
	d->created_ms = json_integer_value(json_object_get(j, "created_ms"));
	d->updated_ms = json_integer_value(json_object_get(j, "updated_ms"));
	json_decref(j);
	return 0;
}

void
delivery_abandon(const struct delivery *d, int lock_fd)
{
	static const char *const ext[] = { "json", "body", "claim", "lock" };
	char *path;
	size_t i;

	for (i = 0; i < sizeof ext / sizeof ext[0]; i++) {
		path = delivery_path(d, ext[i]);
		unlink(path);
		free(path);
	}
	if (lock_fd >= 0)
		close(lock_fd);
}

int
delivery_store(struct delivery *d, enum delivery_state state,
    const char *outcome, const char *body, size_t len,
    struct aiterm_error *err)
{
	char *path = delivery_path(d, "body");
	int rc = atomic_write(path, body, len, err);

	free(path);
	if (rc != 0)
		return -1;
	d->state = state;
	snprintf(d->outcome, sizeof d->outcome, "%s", outcome);
	d->updated_ms = session_now_ms();
	return delivery_write(d, err);
}

int
delivery_claim_create(const struct delivery *d, const char *line,
    struct aiterm_error *err)
{
	const char *id = d->id;
	char *path = delivery_path(d, "claim");
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	int rc = 0;

	free(path);
	if (fd < 0)
		return errno == EEXIST ? 1 : error_set(err, "cannot claim %s: "
		    "%s", id, strerror(errno));
	if (write(fd, line, strlen(line)) < 0 || fsync(fd) != 0)
		rc = error_set(err, "cannot record the claim of %s: %s", id,
		    strerror(errno));
	close(fd);
	return rc;
}

int
delivery_take(const struct delivery *d)
{
	return lock_open(d, false);
}

static size_t
each_in(enum delivery_place place, void (*fn)(const char *id, void *arg),
    void *arg)
{
	char *dir = delivery_dir(place), id[DELIVERY_ID_MAX + 1];
	DIR *dp = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	free(dir);
	while (dp != NULL && (e = readdir(dp)) != NULL) {
		/* "<id>.json": the id is 17 characters. */
		if (strlen(e->d_name) != 22 || strcmp(e->d_name + 17,
		    ".json") != 0)
			continue;
		memcpy(id, e->d_name, 17);
		id[17] = '\0';
		if (delivery_id_valid(id)) {
			fn(id, arg);
			n++;
		}
	}
	if (dp != NULL)
		closedir(dp);
	return n;
}

size_t
delivery_each(void (*fn)(const char *id, void *arg), void *arg)
{
	return each_in(DELIVERY_HERE, fn, arg) + each_in(DELIVERY_RELAYED, fn,
	    arg);
}

static const char *const state_names[DELIVERY_STATE_COUNT] = {
	[DELIVERY_WAITING] = "waiting",
	[DELIVERY_READY] = "ready",
	[DELIVERY_SUBMITTED] = "submitted",
	[DELIVERY_FAILED] = "failed",
	[DELIVERY_UNKNOWN] = "unknown",
};

const char *
delivery_state_name(enum delivery_state s)
{
	return (unsigned)s < DELIVERY_STATE_COUNT ? state_names[s] : "?";
}

int
delivery_state_of(const char *name)
{
	int i;

	for (i = 0; name != NULL && i < DELIVERY_STATE_COUNT; i++) {
		if (strcmp(state_names[i], name) == 0)
			return i;
	}
	return -1;
}

void
delivery_set_parent(struct delivery *d, const struct aiterm_parent *p)
{
	snprintf(d->ref, sizeof d->ref, "%s", p->ref);
	snprintf(d->conversation, sizeof d->conversation, "%s",
	    p->conversation);
	snprintf(d->home, sizeof d->home, "%s", p->home);
}

void
delivery_parent(const struct delivery *d, struct aiterm_parent *p)
{
	memset(p, 0, sizeof *p);
	snprintf(p->ref, sizeof p->ref, "%s", d->ref);
	snprintf(p->conversation, sizeof p->conversation, "%s",
	    d->conversation);
	snprintf(p->home, sizeof p->home, "%s", d->home);
}

bool
delivery_ref_valid(const char *ref)
{
	size_t i, n = ref != NULL ? strlen(ref) : 0;

	if (n == 0 || n > 64)
		return false;
	for (i = 0; i < n; i++) {
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789_-", ref[i]) == NULL)
			return false;
	}
	return true;
}
