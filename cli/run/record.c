/* Run records: JSON in and out, paths, scope scans (ADR 0023). */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/run/record.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

static const char *const state_names[] = {
	[RUN_STARTING] = "starting",
	[RUN_RUNNING] = "running",
	[RUN_EXITING] = "exiting",
	[RUN_EXITED] = "exited",
};

static const char *const reason_names[] = {
	[RUN_REASON_NONE] = NULL,
	[RUN_REASON_EXIT] = "exit",
	[RUN_REASON_SIGNAL] = "signal",
	[RUN_REASON_OVERALL_TIMEOUT] = "overall-timeout",
	[RUN_REASON_NO_OUTPUT_TIMEOUT] = "no-output-timeout",
	[RUN_REASON_MANUAL_CANCEL] = "manual-cancel",
	[RUN_REASON_REPLACED] = "replaced",
	[RUN_REASON_SPAWN_ERROR] = "spawn-error",
};

const char *
run_state_name(enum run_state s)
{
	return state_names[s];
}

const char *
run_reason_name(enum run_reason r)
{
	return reason_names[r];
}

static int
index_of(const char *const *names, size_t n, const char *name)
{
	size_t i;

	for (i = 0; name != NULL && i < n; i++) {
		if (names[i] != NULL && strcmp(names[i], name) == 0)
			return (int)i;
	}
	return -1;
}

static const struct {
	int		 sig;
	const char	*name;
} signal_names[] = {
	{ SIGHUP, "SIGHUP" }, { SIGINT, "SIGINT" }, { SIGQUIT, "SIGQUIT" },
	{ SIGILL, "SIGILL" }, { SIGABRT, "SIGABRT" }, { SIGBUS, "SIGBUS" },
	{ SIGFPE, "SIGFPE" }, { SIGKILL, "SIGKILL" }, { SIGSEGV, "SIGSEGV" },
	{ SIGPIPE, "SIGPIPE" }, { SIGALRM, "SIGALRM" }, { SIGTERM, "SIGTERM" },
	{ SIGUSR1, "SIGUSR1" }, { SIGUSR2, "SIGUSR2" },
};

/* "SIGTERM", or "SIG<n>" for one not in the table. */
static json_t *
signal_name(int sig)
{
	size_t i;

	for (i = 0; i < sizeof signal_names / sizeof signal_names[0]; i++) {
		if (signal_names[i].sig == sig)
			return json_string(signal_names[i].name);
	}
	return json_sprintf("SIG%d", sig);
}

/* An integer, or null when absent (0). */
static json_t *
int_or_null(long long v)
{
	return v != 0 ? json_integer(v) : json_null();
}

static json_t *
str_or_null(const char *s)
{
	return s != NULL && *s != '\0' ? json_string(s) : json_null();
}

json_t *
run_record_to_json(const struct run_record *r)
{
	json_t *j;

	j = json_pack("{s:i, s:s, s:s, s:o, s:s, s:O, s:s, s:s}",
	    "version", RUN_RECORD_VERSION, "run_id", r->run_id,
	    "backend", r->backend, "scope", str_or_null(r->scope),
	    "mode", r->mode, "argv", r->argv != NULL ? r->argv : json_null(),
	    "cwd", r->cwd != NULL ? r->cwd : "",
	    "state", run_state_name(r->state));
	json_object_set_new(j, "session_id", str_or_null(r->session_id));
	json_object_set_new(j, "pid", int_or_null(r->pid));
	json_object_set_new(j, "pgid", int_or_null(r->pgid));
	json_object_set_new(j, "start_id", str_or_null(r->start_id));
	json_object_set_new(j, "supervisor_pid", json_integer(
	    r->supervisor_pid));
	json_object_set_new(j, "supervisor_start_id",
	    str_or_null(r->supervisor_start_id));
	json_object_set_new(j, "started_ms", json_integer(r->started_ms));
	json_object_set_new(j, "last_output_ms", int_or_null(
	    r->last_output_ms));
	json_object_set_new(j, "ended_ms", int_or_null(r->ended_ms));
	json_object_set_new(j, "duration_ms", r->ended_ms != 0 ?
	    json_integer(r->ended_ms - r->started_ms) : json_null());
	json_object_set_new(j, "timeout_ms", json_integer(r->timeout_ms));
	json_object_set_new(j, "no_output_timeout_ms", json_integer(
	    r->no_output_timeout_ms));
	json_object_set_new(j, "termination_reason", str_or_null(
	    run_reason_name(r->reason)));
	json_object_set_new(j, "exit_code", r->has_exit_code ?
	    json_integer(r->exit_code) : json_null());
	json_object_set_new(j, "exit_signal", r->exit_signal != 0 ?
	    signal_name(r->exit_signal) : json_null());
	json_object_set_new(j, "timed_out", json_boolean(
	    r->reason == RUN_REASON_OVERALL_TIMEOUT));
	json_object_set_new(j, "no_output_timed_out", json_boolean(
	    r->reason == RUN_REASON_NO_OUTPUT_TIMEOUT));
	json_object_set_new(j, "leftovers_killed", json_integer(
	    r->leftovers_killed));
	json_object_set_new(j, "error", str_or_null(r->error));
	return j;
}

static void
copy_str(char *dst, size_t size, json_t *v)
{
	snprintf(dst, size, "%s", json_is_string(v) ? json_string_value(v) :
	    "");
}

int
run_record_from_json(json_t *j, struct run_record *r,
    struct aiterm_error *err)
{
	json_t *v;
	int s;

	memset(r, 0, sizeof *r);
	if (json_integer_value(json_object_get(j, "version")) !=
	    RUN_RECORD_VERSION)
		return error_set(err, "run record: version %lld, not %d",
		    json_integer_value(json_object_get(j, "version")),
		    RUN_RECORD_VERSION);
	s = index_of(state_names, sizeof state_names / sizeof state_names[0],
	    json_string_value(json_object_get(j, "state")));
	if (s < 0)
		return error_set(err, "run record: unknown state");
	r->state = (enum run_state)s;
	copy_str(r->run_id, sizeof r->run_id, json_object_get(j, "run_id"));
	copy_str(r->backend, sizeof r->backend, json_object_get(j, "backend"));
	copy_str(r->scope, sizeof r->scope, json_object_get(j, "scope"));
	copy_str(r->mode, sizeof r->mode, json_object_get(j, "mode"));
	copy_str(r->session_id, sizeof r->session_id, json_object_get(j,
	    "session_id"));
	copy_str(r->start_id, sizeof r->start_id, json_object_get(j,
	    "start_id"));
	copy_str(r->supervisor_start_id, sizeof r->supervisor_start_id,
	    json_object_get(j, "supervisor_start_id"));
	copy_str(r->error, sizeof r->error, json_object_get(j, "error"));
	r->argv = json_incref(json_object_get(j, "argv"));
	r->cwd = xstrdup(json_is_string(json_object_get(j, "cwd")) ?
	    json_string_value(json_object_get(j, "cwd")) : "");
	r->pid = (long)json_integer_value(json_object_get(j, "pid"));
	r->pgid = (long)json_integer_value(json_object_get(j, "pgid"));
	r->supervisor_pid = (long)json_integer_value(json_object_get(j,
	    "supervisor_pid"));
	r->started_ms = json_integer_value(json_object_get(j, "started_ms"));
	r->last_output_ms = json_integer_value(json_object_get(j,
	    "last_output_ms"));
	r->ended_ms = json_integer_value(json_object_get(j, "ended_ms"));
	r->timeout_ms = json_integer_value(json_object_get(j, "timeout_ms"));
	r->no_output_timeout_ms = json_integer_value(json_object_get(j,
	    "no_output_timeout_ms"));
	s = index_of(reason_names, sizeof reason_names / sizeof
	    reason_names[0], json_string_value(json_object_get(j,
	    "termination_reason")));
	r->reason = s < 0 ? RUN_REASON_NONE : (enum run_reason)s;
	v = json_object_get(j, "exit_code");
	r->has_exit_code = json_is_integer(v);
	r->exit_code = (int)json_integer_value(v);
	r->leftovers_killed = (unsigned)json_integer_value(json_object_get(j,
	    "leftovers_killed"));
	return 0;
}

void
run_record_free(struct run_record *r)
{
	json_decref(r->argv);
	free(r->cwd);
	r->argv = NULL;
	r->cwd = NULL;
}

char *
run_path(const char *run_id, const char *name)
{
	return name == NULL ? state_path("runs/%s", run_id) :
	    state_path("runs/%s/%s", run_id, name);
}

int
run_dir_create(const char *run_id, struct aiterm_error *err)
{
	char *runs = state_path("runs"), *dir = run_path(run_id, NULL);
	int rc;

	rc = state_mkdir(runs, err);
	if (rc == 0)
		rc = state_mkdir(dir, err);
	free(runs);
	free(dir);
	return rc;
}

int
run_record_write(const struct run_record *r, struct aiterm_error *err)
{
	json_t *j = run_record_to_json(r);
	char *text = json_dumps(j, JSON_COMPACT), *path;
	int rc;

	json_decref(j);
	path = run_path(r->run_id, "record.json");
	if (r->state == RUN_STARTING || r->state == RUN_EXITED)
		rc = atomic_write(path, text, strlen(text), err);
	else
		rc = atomic_replace(path, text, strlen(text), err);
	free(path);
	free(text);
	return rc;
}

int
run_record_read(const char *run_id, struct run_record *r,
    struct aiterm_error *err)
{
	char *path = run_path(run_id, "record.json");
	json_error_t jerr;
	json_t *j;
	int rc;

	j = json_load_file(path, 0, &jerr);
	free(path);
	if (j == NULL)
		return error_set(err, "run %s: %s", run_id, jerr.text);
	rc = run_record_from_json(j, r, err);
	json_decref(j);
	return rc;
}

void
run_scope_each(const char *scope,
    int (*fn)(const struct run_record *r, void *arg), void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	char *runs = state_path("runs");
	struct run_record r;
	struct dirent *de;
	DIR *d;
	int stop = 0;

	if (runs == NULL || (d = opendir(runs)) == NULL) {
		free(runs);
		return;
	}
	while (stop == 0 && (de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.' || strlen(de->d_name) > RUN_ID_MAX)
			continue;
		if (run_record_read(de->d_name, &r, &err) != 0) {
			error_clear(&err);
			continue;
		}
		if (r.state != RUN_EXITED && strcmp(r.scope, scope) == 0)
			stop = fn(&r, arg);
		run_record_free(&r);
	}
	closedir(d);
	free(runs);
}

bool
run_same_process(long pid, const char *start_id)
{
	char now[PROC_START_ID_MAX];

	return pid > 1 && *start_id != '\0' &&
	    proc_start_id(pid, now, sizeof now) == 0 &&
	    strcmp(now, start_id) == 0;
}

long long
run_watchdog_ms(long long overall_ms, bool resume)
{
	const double ratio = resume ? 0.3 : 0.8;
	const long long min = resume ? 60000 : 180000;
	const long long max = resume ? 180000 : 600000;
	long long v = (long long)((double)overall_ms * ratio);

	if (v < min)
		v = min;
	if (v > max)
		v = max;
	return v < overall_ms ? v : overall_ms;
}
