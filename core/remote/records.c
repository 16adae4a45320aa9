/* Records of what this server started on other hosts: records.h. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/store.h"
#include "pty/session.h"
#include "remote/records.h"
#include "state/format.h"
#include "state/stateroot.h"
#include "util/sha256.h"
#include "util/xmalloc.h"

#define HOST_HEX	16

/* <root>/remote/<hash of host>, or NULL without a state root. */
static char *
host_dir(const char *host)
{
	char hex[HOST_HEX + 1];

	sha256_hex(host, strlen(host), hex, HOST_HEX);
	return state_path("remote/%s", hex);
}

/* <kind>/<id>.json of host: fields (stolen) with created_ms added. */
static void
record_add(const char *host, const char *kind, const char *id, json_t *fields)
{
	struct aiterm_error err = ERROR_INIT;
	char *dir = host_dir(host), *sub = NULL, *path = NULL;

	json_object_set_new(fields, "created_ms",
	    json_integer((json_int_t)session_now_ms()));
	if (dir == NULL) {
		json_decref(fields);
		return;
	}
	sub = xasprintf("%s/%s", dir, kind);
	if (state_mkdir(sub, &err) != 0)
		goto out;
	path = xasprintf("%s/host.json", dir);
	if (state_json_write(path, json_pack("{s:s}", "host", host),
	    &err) != 0)
		goto out;
	free(path);
	path = xasprintf("%s/%s.json", sub, id);
	state_json_write(path, fields, &err);
	fields = NULL;
out:
	json_decref(fields);
	error_clear(&err);
	free(path);
	free(sub);
	free(dir);
}

static void
record_remove(const char *host, const char *id)
{
	char *dir = host_dir(host), *path;

	if (dir == NULL)
		return;
	path = xasprintf("%s/sessions/%s.json", dir, id);
	unlink(path);
	free(path);
	free(dir);
}

void
remote_records_note(const char *host, const char *tool, json_t *args,
    json_t *result, bool owed_there)
{
	const char *id, *session;
	json_t *sc;

	if (result == NULL || json_is_true(json_object_get(result, "isError")))
		return;
	if (strcmp(tool, "pty_close") == 0) {
		id = json_string_value(json_object_get(args, "session_id"));
		if (id != NULL && session_id_valid(id))
			record_remove(host, id);
		return;
	}
	sc = json_object_get(result, "structuredContent");
	session = json_string_value(json_object_get(sc, "session_id"));
	if (session == NULL)
		session = json_string_value(json_object_get(args, "session_id"));
	/* A dispatch there owes its answer: where to ask for it. */
	id = json_string_value(json_object_get(json_object_get(sc,
	    "parent_delivery"), "delivery_id"));
	if (owed_there && id != NULL && delivery_id_valid(id) && session != NULL &&
	    session_id_valid(session))
		record_add(host, "deliveries", id, json_pack("{s:s, s:s, s:s}",
		    "delivery_id", id, "session_id", session, "tool", tool));
	if (strcmp(tool, "pty_open") != 0 && strcmp(tool, "agent_launch") != 0)
		return;
	if (session != NULL && session_id_valid(session))
		record_add(host, "sessions", session, json_pack("{s:s, s:s}",
		    "session_id", session, "tool", tool));
}

/* What a record file of kind holds. */
enum record_state { REC_OK, REC_BAD, REC_EXPIRED };

static enum record_state
record_state(const char *kind, json_t *rec, long long now)
{
	const char *session = json_string_value(json_object_get(rec,
	    "session_id"));
	const char *id = json_string_value(json_object_get(rec,
	    "delivery_id"));

	if (session == NULL || !session_id_valid(session))
		return REC_BAD;
	if (strcmp(kind, "deliveries") != 0)
		return REC_OK;
	if (id == NULL || !delivery_id_valid(id))
		return REC_BAD;
	/* The far side forgets an unclaimed answer after DELIVERY_TTL_S. */
	return now - (long long)json_integer_value(json_object_get(rec,
	    "created_ms")) < (long long)DELIVERY_TTL_S * 1000 ? REC_OK :
	    REC_EXPIRED;
}

/* The records of kind of one host folder, appended to out. */
static void
host_records(const char *dir, const char *kind, json_t *out)
{
	json_t *host, *rec, *o;
	char *path = xasprintf("%s/host.json", dir), *sub;
	long long now = session_now_ms();
	enum record_state st;
	struct dirent *de;
	DIR *d;
	size_t len;

	host = json_load_file(path, 0, NULL);
	free(path);
	sub = xasprintf("%s/%s", dir, kind);
	d = json_is_string(json_object_get(host, "host")) ? opendir(sub) :
	    NULL;
	while (d != NULL && (de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		path = xasprintf("%s/%s", sub, de->d_name);
		rec = json_load_file(path, 0, NULL);
		if ((st = record_state(kind, rec, now)) != REC_OK) {
			/* A file that is not a record is left to a person. */
			if (st == REC_EXPIRED)
				unlink(path);
			json_decref(rec);
			free(path);
			continue;
		}
		free(path);
		o = json_pack("{s:O, s:O, s:s, s:I}", "host",
		    json_object_get(host, "host"), "session_id",
		    json_object_get(rec, "session_id"), "tool",
		    json_is_string(json_object_get(rec, "tool")) ?
		    json_string_value(json_object_get(rec, "tool")) : "",
		    "created_ms", json_integer_value(json_object_get(rec,
		    "created_ms")));
		if (json_object_get(rec, "delivery_id") != NULL)
			json_object_set(o, "delivery_id",
			    json_object_get(rec, "delivery_id"));
		json_array_append_new(out, o);
		json_decref(rec);
	}
	if (d != NULL)
		closedir(d);
	json_decref(host);
	free(sub);
}

static int
by_created(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a,
	    "created_ms"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b,
	    "created_ms"));

	return x < y ? -1 : x > y;
}

/* Every record of kind, oldest first. */
static json_t *
records_of(const char *kind)
{
	json_t *out = json_array(), *sorted, **v;
	char *root = state_path("remote"), *dir;
	struct dirent *de;
	size_t i, n;
	DIR *d = root == NULL ? NULL : opendir(root);

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (strlen(de->d_name) != HOST_HEX ||
		    strspn(de->d_name, "0123456789abcdef") != HOST_HEX)
			continue;
		dir = xasprintf("%s/%s", root, de->d_name);
		host_records(dir, kind, out);
		free(dir);
	}
	if (d != NULL)
		closedir(d);
	free(root);
	n = json_array_size(out);
	v = xcalloc(n + 1, sizeof *v);
	for (i = 0; i < n; i++)
		v[i] = json_array_get(out, i);
	qsort(v, n, sizeof *v, by_created);
	sorted = json_array();
	for (i = 0; i < n; i++)
		json_array_append(sorted, v[i]);
	free(v);
	json_decref(out);
	return sorted;
}

json_t *
remote_records_json(void)
{
	return records_of("sessions");
}

json_t *
remote_deliveries_json(const char *session)
{
	json_t *all = records_of("deliveries"), *out, *o;
	size_t i;

	if (session == NULL)
		return all;
	out = json_array();
	json_array_foreach(all, i, o) {
		if (strcmp(json_string_value(json_object_get(o, "session_id")),
		    session) == 0)
			json_array_append(out, o);
	}
	json_decref(all);
	return out;
}
