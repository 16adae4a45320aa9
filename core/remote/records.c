/* Records of the sessions this server opened on other hosts: records.h. */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

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

static void
record_add(const char *host, const char *tool, const char *id)
{
	struct aiterm_error err = ERROR_INIT;
	char *dir = host_dir(host), *sub = NULL, *path = NULL;

	if (dir == NULL)
		return;
	sub = xasprintf("%s/sessions", dir);
	if (state_mkdir(sub, &err) != 0)
		goto out;
	path = xasprintf("%s/host.json", dir);
	if (state_json_write(path, json_pack("{s:s}", "host", host),
	    &err) != 0)
		goto out;
	free(path);
	path = xasprintf("%s/%s.json", sub, id);
	state_json_write(path, json_pack("{s:s, s:s, s:I}", "session_id", id,
	    "tool", tool, "created_ms", (json_int_t)session_now_ms()), &err);
out:
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
    json_t *result)
{
	const char *id;

	if (result == NULL || json_is_true(json_object_get(result, "isError")))
		return;
	if (strcmp(tool, "pty_close") == 0) {
		id = json_string_value(json_object_get(args, "session_id"));
		if (id != NULL && session_id_valid(id))
			record_remove(host, id);
		return;
	}
	if (strcmp(tool, "pty_open") != 0 && strcmp(tool, "agent_launch") != 0)
		return;
	id = json_string_value(json_object_get(json_object_get(result,
	    "structuredContent"), "session_id"));
	if (id != NULL && session_id_valid(id))
		record_add(host, tool, id);
}

/* The records of one host folder, appended to out. */
static void
host_records(const char *dir, json_t *out)
{
	json_t *host, *rec;
	char *path = xasprintf("%s/host.json", dir), *sub;
	struct dirent *de;
	DIR *d;
	size_t len;

	host = json_load_file(path, 0, NULL);
	free(path);
	sub = xasprintf("%s/sessions", dir);
	d = json_is_string(json_object_get(host, "host")) ? opendir(sub) :
	    NULL;
	while (d != NULL && (de = readdir(d)) != NULL) {
		len = strlen(de->d_name);
		if (len < 6 || strcmp(de->d_name + len - 5, ".json") != 0)
			continue;
		path = xasprintf("%s/%s", sub, de->d_name);
		rec = json_load_file(path, 0, NULL);
		free(path);
		if (json_is_string(json_object_get(rec, "session_id")) &&
		    session_id_valid(json_string_value(json_object_get(rec,
		    "session_id"))))
			json_array_append_new(out, json_pack("{s:O, s:O, s:s, "
			    "s:I}", "host", json_object_get(host, "host"),
			    "session_id", json_object_get(rec, "session_id"),
			    "tool", json_is_string(json_object_get(rec, "tool")) ?
			    json_string_value(json_object_get(rec, "tool")) : "",
			    "created_ms", json_integer_value(json_object_get(rec,
			    "created_ms"))));
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

json_t *
remote_records_json(void)
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
		host_records(dir, out);
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
