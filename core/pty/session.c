#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "plugin/host.h"
#include "plugin/registry.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "state/atomic.h"
#include "state/format.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

bool
session_id_valid(const char *id)
{
	size_t i, n = strlen(id);

	if (n == 0 || n > SESSION_ID_MAX || id[0] == '-')
		return false;
	for (i = 0; i < n; i++) {
		if (strchr("abcdefghijklmnopqrstuvwxyz"
		    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-", id[i]) == NULL)
			return false;
	}
	return true;
}

char *
session_path(const char *id, const char *name)
{
	if (name == NULL)
		return state_path("sessions/%s", id);
	return state_path("sessions/%s/%s", id, name);
}

bool
session_exists_on_disk(const char *id)
{
	char *p = session_path(id, "meta.json");
	bool ok = p != NULL && access(p, F_OK) == 0;

	free(p);
	return ok;
}

void
session_random_hex(char *out, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	unsigned char bytes[64];
	size_t i;

	if (len > sizeof bytes)
		len = sizeof bytes;
	if (getrandom(bytes, len, 0) != (ssize_t)len) {
		for (i = 0; i < len; i++)
			bytes[i] = (unsigned char)(rand() ^ (int)getpid());
	}
	for (i = 0; i < len; i++)
		out[i] = hex[bytes[i] & 15];
	out[len] = '\0';
}

long long
session_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* durable: fsynced (atomic_write), else only renamed (atomic_replace). */
static int
json_write(const char *id, const char *name, json_t *o, bool durable,
    struct aiterm_error *err)
{
	char *path = session_path(id, name), *text;
	int rc;

	if (path == NULL) {
		json_decref(o);
		return error_set(err, "no state root");
	}
	state_format_stamp(o);
	text = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	rc = durable ? atomic_write(path, text, strlen(text), err) :
	    atomic_replace(path, text, strlen(text), err);
	free(text);
	free(path);
	return rc;
}

int
session_json_write(const char *id, const char *name, json_t *o,
    struct aiterm_error *err)
{
	return json_write(id, name, o, true, err);
}

json_t *
session_json_read(const char *id, const char *name, struct aiterm_error *err)
{
	char *path = session_path(id, name), *data = NULL;
	json_error_t jerr;
	json_t *o = NULL;
	size_t len;

	if (path == NULL) {
		error_set(err, "no state root");
		return NULL;
	}
	if (file_read(path, &data, &len, err) != 0)
		goto out;
	o = json_loadb(data, len, 0, &jerr);
	if (o == NULL)
		error_set(err, "%s: %s", path, jerr.text);
	else if (state_format_check(o, path, err) != 0) {
		json_decref(o);
		o = NULL;
	}
out:
	free(data);
	free(path);
	return o;
}

static enum shell_dialect
dialect_parse(json_t *v)
{
	const char *name = json_string_value(v);
	int d;

	for (d = SHELL_POSIX; name != NULL && d < SHELL_UNKNOWN; d++) {
		if (strcmp(shell_dialect_name((enum shell_dialect)d), name) == 0)
			return (enum shell_dialect)d;
	}
	return SHELL_UNKNOWN;
}

static void
copy_str(char *dst, size_t size, json_t *v)
{
	snprintf(dst, size, "%s", json_is_string(v) ? json_string_value(v) :
	    "");
}

int
session_meta_write(const struct session_meta *m, struct aiterm_error *err)
{
	json_t *o = json_pack("{s:s, s:s, s:s, s:b, s:b, s:s, s:s, s:i, s:i, "
	    "s:I}", "id", m->id, "shell", m->shell, "dialect",
	    shell_dialect_name(m->dialect), "integration", m->integration,
	    "start_marks", m->start_marks, "token", m->token, "cwd", m->cwd,
	    "cols", (int)m->cols, "rows", (int)m->rows,
	    "created_ms", (json_int_t)m->created_ms);

	if (m->pane_pid > 0)
		json_object_set_new(o, "pane", json_pack("{s:I, s:s, s:I}",
		    "pid", (json_int_t)m->pane_pid, "start", m->pane_start,
		    "start_ms", (json_int_t)m->pane_start_ms));
	return session_json_write(m->id, "meta.json", o, err);
}

int
session_pane_record(const char *id, struct aiterm_error *err)
{
	struct session_meta m;
	struct proc_stat ps;
	long pid = session_pane_pid(id, true);

	if (pid <= 0 || proc_stat_get(pid, &ps) != 0)
		return 0;
	if (session_meta_read(id, &m, err) != 0)
		return -1;
	m.pane_pid = pid;
	snprintf(m.pane_start, sizeof m.pane_start, "%s", ps.start_id);
	m.pane_start_ms = ps.start_ms;
	return session_meta_write(&m, err);
}

int
session_meta_read(const char *id, struct session_meta *m,
    struct aiterm_error *err)
{
	json_t *o = session_json_read(id, "meta.json", err), *pane;

	memset(m, 0, sizeof m[0]);
	if (o == NULL)
		return -1;
	copy_str(m->id, sizeof m->id, json_object_get(o, "id"));
	copy_str(m->shell, sizeof m->shell, json_object_get(o, "shell"));
	m->dialect = dialect_parse(json_object_get(o, "dialect"));
	m->integration = json_is_true(json_object_get(o, "integration"));
	m->start_marks = json_is_true(json_object_get(o, "start_marks"));
	copy_str(m->token, sizeof m->token, json_object_get(o, "token"));
	copy_str(m->cwd, sizeof m->cwd, json_object_get(o, "cwd"));
	m->cols = (unsigned)json_integer_value(json_object_get(o, "cols"));
	m->rows = (unsigned)json_integer_value(json_object_get(o, "rows"));
	m->created_ms = json_integer_value(json_object_get(o, "created_ms"));
	pane = json_object_get(o, "pane");
	m->pane_pid = (long)json_integer_value(json_object_get(pane, "pid"));
	copy_str(m->pane_start, sizeof m->pane_start, json_object_get(pane,
	    "start"));
	m->pane_start_ms = (unsigned long long)json_integer_value(
	    json_object_get(pane, "start_ms"));
	if (m->pane_pid <= 0 || m->pane_start[0] == '\0')
		m->pane_pid = 0;
	json_decref(o);
	return 0;
}

int
session_cursor_write(const char *id, const struct session_cursor *c,
    struct aiterm_error *err)
{
	/* Lost at a power cut, a cursor only reads output again. */
	return json_write(id, "cursor.json", json_pack("{s:I, s:I, s:i}",
	    "offset", (json_int_t)c->offset, "line", (json_int_t)c->line,
	    "region", c->region), false, err);
}

int
session_cursor_read(const char *id, struct session_cursor *c)
{
	struct aiterm_error err = ERROR_INIT;
	json_t *o = session_json_read(id, "cursor.json", &err);

	error_clear(&err);
	c->offset = 0;
	c->line = 1;
	c->region = 0;
	if (o == NULL)
		return 0;
	c->offset = (uint64_t)json_integer_value(json_object_get(o, "offset"));
	c->line = (uint64_t)json_integer_value(json_object_get(o, "line"));
	if (c->line == 0)
		c->line = 1;
	c->region = (int)json_integer_value(json_object_get(o, "region"));
	json_decref(o);
	return 0;
}

int
session_command_write(const char *id, const struct session_command *c,
    struct aiterm_error *err)
{
	/*
	 * Not fsynced (ADR 0003, issue 38): it describes a command of a live
	 * shell, which a power cut ends with the tmux server; the page cache
	 * keeps it through a crash of the server, and the rename keeps it
	 * whole.
	 */
	return json_write(id, "command.json", json_pack(
	    "{s:I, s:i, s:s, s:s, s:I, s:b, s:i, s:I, s:i}",
	    "offset", (json_int_t)c->offset, "mark", (int)c->mark,
	    "nonce", c->nonce, "dialect", shell_dialect_name(c->dialect),
	    "sent_ms", (json_int_t)c->sent_ms, "done", c->done,
	    "exit_code", c->exit_code, "end", (json_int_t)c->end,
	    "ahead", (int)c->ahead), false, err);
}

int
session_command_read(const char *id, struct session_command *c)
{
	struct aiterm_error err = ERROR_INIT;
	json_t *o = session_json_read(id, "command.json", &err);

	error_clear(&err);
	memset(c, 0, sizeof c[0]);
	if (o == NULL)
		return -1;
	c->offset = (uint64_t)json_integer_value(json_object_get(o, "offset"));
	c->mark = (enum session_mark)json_integer_value(json_object_get(o,
	    "mark"));
	copy_str(c->nonce, sizeof c->nonce, json_object_get(o, "nonce"));
	c->dialect = dialect_parse(json_object_get(o, "dialect"));
	c->sent_ms = json_integer_value(json_object_get(o, "sent_ms"));
	c->done = json_is_true(json_object_get(o, "done"));
	c->exit_code = (int)json_integer_value(json_object_get(o,
	    "exit_code"));
	c->end = (uint64_t)json_integer_value(json_object_get(o, "end"));
	c->ahead = (unsigned)json_integer_value(json_object_get(o, "ahead"));
	json_decref(o);
	return 0;
}

int
session_remove(const char *id, struct aiterm_error *err)
{
	char *dir = session_path(id, NULL), *p;
	struct dirent *de;
	DIR *d;
	int rc = 0;

	if (dir == NULL)
		return error_set(err, "no state root");
	d = opendir(dir);
	if (d == NULL) {
		if (errno != ENOENT)
			rc = error_set(err, "cannot open %s: %s", dir,
			    strerror(errno));
		goto out;
	}
	while ((de = readdir(d)) != NULL) {
		if (strcmp(de->d_name, ".") == 0 ||
		    strcmp(de->d_name, "..") == 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (unlink(p) != 0 && errno != ENOENT)
			rc = error_set(err, "cannot remove %s: %s", p,
			    strerror(errno));
		free(p);
	}
	closedir(d);
	if (rc == 0 && rmdir(dir) != 0 && errno != ENOENT)
		rc = error_set(err, "cannot remove %s: %s", dir,
		    strerror(errno));
out:
	free(dir);
	return rc;
}

void
session_cleanup_all(void)
{
	struct aiterm_error err = ERROR_INIT;
	char *root = state_path("sessions"), *dir;
	struct dirent *de;
	DIR *d;

	if (root == NULL || (d = opendir(root)) == NULL) {
		free(root);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (!session_id_valid(de->d_name))
			continue;
		dir = session_path(de->d_name, NULL);
		atomic_cleanup(dir, &err);
		error_clear(&err);
		free(dir);
	}
	closedir(d);
	free(root);
}

const struct aiterm_mux_ops *
session_mux(struct aiterm_error *err)
{
	const struct aiterm_plugin *p = registry_find(AITERM_KIND_MUX, NULL);

	if (p == NULL) {
		error_set(err, "no multiplexer plugin is loaded (see the "
		    "diagnostics tool)");
		return NULL;
	}
	return muxjob_locked(p->ops, p->abi_minor);
}

long
session_pane_pid(const char *id, bool live_only)
{
	const struct aiterm_mux_ops *mux = session_mux(NULL);
	struct aiterm_pane_info info;

	memset(&info, 0, sizeof info);
	if (mux == NULL || mux->pane_info(host_get(), id, &info, NULL) != 0 ||
	    (live_only && (!info.exists || info.dead)) || info.pid <= 0)
		return 0;
	return info.pid;
}

int
session_pane_screen(const struct aiterm_mux_ops *mux, const char *id,
    struct aiterm_pane_info *info, struct aiterm_buf *screen,
    struct aiterm_error *err)
{
	if (mux->pane_screen != NULL)
		return mux->pane_screen(host_get(), id, info, screen, err);
	if (mux->pane_info(host_get(), id, info, err) != 0)
		return -1;
	return info->exists ? mux->capture(host_get(), id, screen, err) : 0;
}

int
session_create_log(const char *id, struct aiterm_error *err)
{
	char *dir = session_path(id, NULL), *log = session_path(id,
	    "output.log");
	int fd, rc = -1;

	if (dir == NULL || log == NULL) {
		error_set(err, "no state root");
		goto out;
	}
	if (state_mkdir(dir, err) != 0)
		goto out;
	fd = open(log, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		error_set(err, "cannot create %s: %s", log, strerror(errno));
		goto out;
	}
	fchmod(fd, 0600);
	close(fd);
	rc = 0;
out:
	free(dir);
	free(log);
	return rc;
}
