/*
 * aiterm-setup --codex-steer (setup/steer.h).  Facts of Codex 0.171.0
 * this rests on (ADR 0016): hooks/list {cwds} lists each hook with key
 * "<hooks.json>:<event>:<group>:<handler>", currentHash, enabled and
 * trustStatus (untrusted, trusted, modified); config/batchWrite takes a
 * keyPath whose quoted segment is one key (hooks.state."<key>"), and a
 * null value with "replace" takes a key out.  A key is a place: ours are
 * appended and keep their place (setup/hooks.c), so nobody else's key
 * moves.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cfile.h"
#include "hooks.h"
#include "proc/proc.h"
#include "state/atomic.h"
#include "state/format.h"
#include "state/stateroot.h"
#include "steer.h"
#include "util/linerpc.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define RPC_MS		30000
#define OUR_HOOKS	2

static const char *const verbs[OUR_HOOKS] = { " codex-post ", " codex-stop " };

struct steer {
	struct report	*rep;
	char		*home, *file, *bin, *saved_path;
	struct linerpc	 rpc;
	bool		 up;
	json_t		*saved;		/* codex-steer.json */
	json_t		*mine;		/* saved.homes[home], or NULL */
	json_t		*ours[OUR_HOOKS];	/* hooks/list entries */
};

/* Setup stops: code, why (a message and its one argument). */
static int
fail(struct steer *s, const char *code, const char *what, const char *arg)
{
	report_fatal(s->rep, code, "%s%s", what, arg);
	return -1;
}

static const char *
rpc_err(json_t *res, struct steer *s)
{
	const char *m = json_string_value(json_object_get(json_object_get(res,
	    "error"), "message"));

	return m != NULL ? m : s->rpc.why != NULL ? s->rpc.why : "no answer";
}

/* A call whose error stops setup (code): its result, or NULL. */
static json_t *
call(struct steer *s, const char *method, json_t *params, const char *code)
{
	json_t *res = linerpc_call(&s->rpc, method, params, RPC_MS), *r;
	char *why;

	if (res != NULL && json_object_get(res, "error") == NULL) {
		r = json_incref(json_object_get(res, "result"));
		json_decref(res);
		return r;
	}
	why = xasprintf("`codex app-server` %s: %s", method, rpc_err(res, s));
	report_fatal(s->rep, code, "%s", why);
	free(why);
	json_decref(res);
	return NULL;
}

static int
start(struct steer *s)
{
	char *argv[] = { s->bin, "app-server", NULL };
	json_t *env = json_pack("{s:s}", "CODEX_HOME", s->home), *r;

	if (linerpc_start(&s->rpc, argv, env, false) != 0) {
		json_decref(env);
		return fail(s, "CODEX_APP_SERVER_FAILED", "cannot start `codex "
		    "app-server`: ", s->rpc.why);
	}
	json_decref(env);
	s->up = true;
	r = call(s, "initialize", json_pack("{s:{s:s, s:s}, s:{s:b}}",
	    "clientInfo", "name", "aiterm-setup", "version", PACKAGE_VERSION,
	    "capabilities", "experimentalApi", 1), "CODEX_APP_SERVER_FAILED");
	if (r == NULL)
		return -1;
	json_decref(r);
	linerpc_notify(&s->rpc, "initialized", NULL);
	return 0;
}

/* Our two hooks as hooks/list shows them now (s->ours, NULL: absent). */
static int
list_ours(struct steer *s)
{
	json_t *r, *entry, *h;
	const char *cmd, *src;
	size_t i, j;
	int k;

	r = call(s, "hooks/list", json_pack("{s:[s]}", "cwds", s->home),
	    "CODEX_HOOKS_UNSUPPORTED");
	if (r == NULL)
		return -1;
	for (k = 0; k < OUR_HOOKS; k++) {
		json_decref(s->ours[k]);
		s->ours[k] = NULL;
	}
	json_array_foreach(json_object_get(r, "data"), i, entry) {
		json_array_foreach(json_object_get(entry, "hooks"), j, h) {
			cmd = json_string_value(json_object_get(h, "command"));
			src = json_string_value(json_object_get(h, "source"));
			if (cmd == NULL || strstr(cmd, "aiterm-hook") == NULL ||
			    src == NULL || strcmp(src, "user") != 0)
				continue;
			for (k = 0; k < OUR_HOOKS; k++) {
				if (strstr(cmd, verbs[k]) != NULL &&
				    s->ours[k] == NULL)
					s->ours[k] = json_incref(h);
			}
		}
	}
	json_decref(r);
	return 0;
}

static const char *
hstr(json_t *h, const char *k)
{
	const char *v = json_string_value(json_object_get(h, k));

	return v != NULL ? v : "";
}

static bool
approved(const struct steer *s)
{
	int k;

	for (k = 0; k < OUR_HOOKS; k++) {
		if (s->ours[k] == NULL || !json_is_true(json_object_get(
		    s->ours[k], "enabled")) || strcmp(hstr(s->ours[k],
		    "trustStatus"), "trusted") != 0)
			return false;
	}
	return true;
}

/* The hooks.state table of the effective config (a new reference). */
static json_t *
state_table(struct steer *s)
{
	json_t *r = call(s, "config/read", json_object(),
	    "CODEX_APP_SERVER_FAILED"), *t;

	if (r == NULL)
		return NULL;
	t = json_object_get(json_object_get(json_object_get(r, "config"),
	    "hooks"), "state");
	t = json_is_object(t) ? json_incref(t) : json_object();
	json_decref(r);
	return t;
}

static json_t *
edit(const char *key, json_t *value)
{
	char *path = xasprintf("hooks.state.\"%s\"", key);
	json_t *e = json_pack("{s:s, s:s, s:o}", "keyPath", path,
	    "mergeStrategy", "replace", "value", value != NULL ? value :
	    json_null());

	free(path);
	return e;
}

static int
batch(struct steer *s, json_t *edits)
{
	json_t *r = call(s, "config/batchWrite", json_pack("{s:o, s:b}",
	    "edits", edits, "reloadUserConfig", 1), "CODEX_HOOKS_NOT_APPROVED");

	json_decref(r);
	return r != NULL ? 0 : -1;
}

static void
save(struct steer *s)
{
	struct aiterm_error err = ERROR_INIT;

	if (state_json_write(s->saved_path, json_incref(s->saved), &err) != 0)
		report_fatal(s->rep, "STATE_UNWRITABLE", "%s", error_msg(&err));
	error_clear(&err);
}

/* CODEX_HOME in pid's environment (or the default), allocated; NULL. */
static char *
proc_home(long pid)
{
	char path[64], *buf = NULL, *p, *home = NULL;
	const char *h = getenv("HOME");
	size_t len = 0;
	FILE *f;

	snprintf(path, sizeof path, "/proc/%ld/environ", pid);
	if ((f = fopen(path, "re")) == NULL)
		return NULL;
	if (getdelim(&buf, &len, '\0', f) < 0) {
		free(buf);
		fclose(f);
		return xasprintf("%s/.codex", h != NULL ? h : "");
	}
	do {
		if (strncmp(buf, "CODEX_HOME=", 11) == 0 && home == NULL)
			home = xstrdup(buf + 11);
	} while (getdelim(&buf, &len, '\0', f) > 0);
	free(buf);
	fclose(f);
	if (home == NULL)
		home = xasprintf("%s/.codex", h != NULL ? h : "");
	for (p = home + strlen(home); p > home + 1 && p[-1] == '/';)
		*--p = '\0';
	return home;
}

/* Whether row i descends from this process (our app-server). */
static bool
ours_below(const struct proc_table *t, size_t i)
{
	long pid = t->procs[i].pid;
	size_t j, hops;

	for (hops = 0; hops < 64 && pid > 1; hops++) {
		if (pid == (long)getpid())
			return true;
		for (j = 0; j < t->n && t->procs[j].pid != pid; j++)
			;
		if (j == t->n)
			return false;
		pid = t->procs[j].ppid;
	}
	return false;
}

/* Codex processes of this home running now (not ours): [{pid, start}]. */
static json_t *
codex_procs(const struct steer *s)
{
	struct proc_table t = PROC_TABLE_INIT;
	json_t *v = json_array();
	char name[64], *home;
	size_t i;

	if (proc_table_read(&t) != 0)
		return v;
	for (i = 0; i < t.n; i++) {
		if (ours_below(&t, i) || proc_exe_name(
		    t.procs[i].pid, name, sizeof name) != 0 ||
		    strcmp(name, "codex") != 0)
			continue;
		if ((home = proc_home(t.procs[i].pid)) != NULL &&
		    strcmp(home, s->home) == 0)
			json_array_append_new(v, json_pack("{s:I, s:s}", "pid",
			    (json_int_t)t.procs[i].pid, "start",
			    t.procs[i].start_id));
		free(home);
	}
	proc_table_free(&t);
	return v;
}

/* Each process of more not in list already (by pid and start) into it. */
static void
add_procs(json_t *list, json_t *more)
{
	json_t *p, *q;
	size_t i, j;
	bool have;

	json_array_foreach(more, i, p) {
		have = false;
		json_array_foreach(list, j, q)
			have = have || json_equal(p, q);
		if (!have)
			json_array_append(list, p);
	}
}

/* A file's text (allocated), NULL when it cannot be read. */
static char *
file_text(const char *path)
{
	struct aiterm_error err = ERROR_INIT;
	char *text = NULL;
	size_t len;

	if (file_read(path, &text, &len, &err) != 0)
		text = NULL;
	error_clear(&err);
	return text;
}

/* The saved processes still running as themselves (kept in mine). */
static json_t *
still_running(struct steer *s)
{
	json_t *v = json_object_get(s->mine, "restart"), *left = json_array(),
	    *p;
	char id[PROC_START_ID_MAX];
	size_t i;

	json_array_foreach(v, i, p) {
		if (proc_start_id((long)json_integer_value(json_object_get(p,
		    "pid")), id, sizeof id) == 0 && strcmp(id,
		    hstr(p, "start")) == 0)
			json_array_append(left, p);
	}
	if (s->mine != NULL)
		json_object_set(s->mine, "restart", left);
	return left;
}

static void
facts(struct steer *s, const char *state)
{
	json_t *hooks = json_array();
	int k;

	for (k = 0; k < OUR_HOOKS; k++) {
		if (s->ours[k] != NULL)
			json_array_append_new(hooks, json_pack("{s:s, s:s, "
			    "s:s, s:O, s:s}", "event", hstr(s->ours[k],
			    "eventName"), "key", hstr(s->ours[k], "key"),
			    "hash", hstr(s->ours[k], "currentHash"), "enabled",
			    json_object_get(s->ours[k], "enabled"), "trust",
			    hstr(s->ours[k], "trustStatus")));
	}
	report_fact(s->rep, "codex_steer", json_string(state));
	report_fact(s->rep, "codex_home", json_string(s->home));
	report_fact(s->rep, "codex_steer_hooks", hooks);
}

/* ready or restart_required, after the read-back said approved. */
static const char *
settled(struct steer *s)
{
	json_t *left = still_running(s);
	const char *st = json_array_size(left) > 0 ? "restart_required" :
	    "ready";

	if (json_array_size(left) > 0)
		report_fact(s->rep, "codex_restart", json_incref(left));
	json_decref(left);
	return st;
}

static int
enable(struct steer *s)
{
	struct setup_outcome o;
	struct cfile f;
	json_t *table = NULL, *edits, *v, *before;
	char *note = NULL, *was = NULL, *now = NULL;
	bool same;
	int k, rc = -1;

	if (list_ours(s) != 0 || (table = state_table(s)) == NULL)
		return -1;
	memset(&o, 0, sizeof o);
	memset(&f, 0, sizeof f);
	if (s->mine == NULL) {
		/* What there was, before Aiterm's first change. */
		if (cfile_read(&f, s->file, &o) != 0) {
			report_fatal(s->rep, o.code, "%s", o.message);
			goto out;
		}
		s->mine = json_pack("{s:b, s:s?, s:b, s:{}, s:[]}", "file_existed",
		    f.exists, "file_text", f.text, "state_existed",
		    json_object_size(table) > 0, "approvals", "restart");
		json_object_set(json_object_get(s->saved, "homes"), s->home,
		    s->mine);
		json_decref(s->mine);
	}
	was = file_text(s->file);
	if (hooks_install(HOOKS_CODEX, NULL, false, &o, &note) != 0) {
		report_fatal(s->rep, o.code, "%s", o.message);
		goto out;
	}
	now = file_text(s->file);
	same = was != NULL && now != NULL && strcmp(was, now) == 0;
	if (list_ours(s) != 0)
		goto out;
	/* In place and approved already: nothing to change, nobody to restart. */
	if (same && approved(s)) {
		facts(s, settled(s));
		save(s);
		rc = 0;
		goto out;
	}
	for (k = 0; k < OUR_HOOKS; k++) {
		if (s->ours[k] == NULL) {
			fail(s, "CODEX_HOOKS_NOT_LISTED", "Codex does not list "
			    "Aiterm's hooks from ", s->file);
			goto out;
		}
	}
	/* The approvals at our keys before ours, once (disable puts them). */
	before = json_object_get(s->mine, "approvals");
	edits = json_array();
	for (k = 0; k < OUR_HOOKS; k++) {
		const char *key = hstr(s->ours[k], "key");

		v = json_object_get(table, key);
		if (json_object_get(before, key) == NULL)
			json_object_set(before, key, v != NULL ? v :
			    json_null());
		v = json_is_object(v) ? json_deep_copy(v) : json_object();
		json_object_set_new(v, "trusted_hash", json_string(hstr(
		    s->ours[k], "currentHash")));
		if (!json_is_true(json_object_get(s->ours[k], "enabled")))
			json_object_set_new(v, "enabled", json_true());
		json_array_append_new(edits, edit(key, v));
	}
	/* Whoever runs now started without these hooks: saved. */
	v = codex_procs(s);
	add_procs(json_object_get(s->mine, "restart"), v);
	json_decref(v);
	save(s);
	if (batch(s, edits) != 0 || list_ours(s) != 0)
		goto out;
	if (!approved(s)) {
		facts(s, "not_approved");
		fail(s, "CODEX_HOOKS_NOT_APPROVED", "Codex does not read "
		    "Aiterm's hooks back enabled and approved from ", s->file);
		goto out;
	}
	facts(s, settled(s));
	save(s);
	rc = 0;
out:
	free(was);
	free(now);
	free(note);
	setup_outcome_free(&o);
	cfile_free(&f);
	json_decref(table);
	return rc;
}

/* hooks.json without ours: the bytes there were when nothing else moved. */
static int
restore_file(struct steer *s)
{
	struct setup_outcome o;
	struct cfile f;
	json_t *now = NULL, *was = NULL;
	const char *text = json_string_value(json_object_get(s->mine,
	    "file_text"));
	bool removed;
	int rc = -1;

	memset(&o, 0, sizeof o);
	memset(&f, 0, sizeof f);
	if (hooks_remove(HOOKS_CODEX, false, &o, &removed) != 0) {
		report_fatal(s->rep, o.code, "%s", o.message);
		goto out;
	}
	if (s->mine == NULL) {
		rc = 0;	/* nothing saved: ours are out, the rest stays */
		goto out;
	}
	if (cfile_read(&f, s->file, &o) != 0) {
		report_fatal(s->rep, o.code, "%s", o.message);
		goto out;
	}
	now = f.exists ? json_loads(f.text, 0, NULL) : NULL;
	was = text != NULL ? json_loads(text, 0, NULL) : json_object();
	if (now == NULL || was == NULL || !json_equal(now, was)) {
		rc = 0;	/* changed by someone else too: kept as it is */
		goto out;
	}
	if (text == NULL)
		rc = unlink(s->file) == 0 ? 0 : fail(s, "WRITE_FAILED",
		    "cannot remove ", s->file);
	else if ((rc = cfile_write(&f, text, f.st.st_mode & 07777, &o)) != 0)
		report_fatal(s->rep, o.code, "%s", o.message);
out:
	json_decref(now);
	json_decref(was);
	cfile_free(&f);
	setup_outcome_free(&o);
	return rc;
}

static int
disable(struct steer *s)
{
	json_t *before = json_object_get(s->mine, "approvals"), *edits, *v,
	    *table;
	int k;

	if (list_ours(s) != 0)
		return -1;
	edits = json_array();
	for (k = 0; k < OUR_HOOKS; k++) {
		if (s->ours[k] == NULL)
			continue;
		v = json_object_get(before, hstr(s->ours[k], "key"));
		json_array_append_new(edits, edit(hstr(s->ours[k], "key"),
		    v != NULL && !json_is_null(v) ? json_deep_copy(v) : NULL));
	}
	/* batch takes edits: its size is not looked at after it. */
	if (json_array_size(edits) == 0)
		json_decref(edits);
	else if (batch(s, edits) != 0)
		return -1;
	/* A [hooks.state] only ours made goes with them. */
	if (s->mine != NULL && !json_is_true(json_object_get(s->mine,
	    "state_existed"))) {
		if ((table = state_table(s)) == NULL)
			return -1;
		if (json_object_size(table) == 0 && batch(s, json_pack("[{s:s, "
		    "s:s, s:n}]", "keyPath", "hooks.state", "mergeStrategy",
		    "replace", "value")) != 0) {
			json_decref(table);
			return -1;
		}
		json_decref(table);
	}
	if (restore_file(s) != 0)
		return -1;
	json_object_del(json_object_get(s->saved, "homes"), s->home);
	save(s);
	if (list_ours(s) != 0)
		return -1;
	facts(s, s->ours[0] == NULL && s->ours[1] == NULL ? "disabled" :
	    "not_removed");
	return 0;
}

static int
status(struct steer *s)
{
	if (list_ours(s) != 0)
		return -1;
	if (s->ours[0] == NULL && s->ours[1] == NULL)
		facts(s, "disabled");
	else if (!approved(s))
		facts(s, "not_approved");
	else {
		facts(s, settled(s));
		if (s->mine != NULL)
			save(s);
	}
	return 0;
}

static void
load_saved(struct steer *s)
{
	s->saved_path = state_path("setup/codex-steer.json");
	s->saved = json_load_file(s->saved_path, 0, NULL);
	if (!json_is_object(s->saved)) {
		json_decref(s->saved);
		s->saved = json_object();
	}
	if (!json_is_object(json_object_get(s->saved, "homes")))
		json_object_set_new(s->saved, "homes", json_object());
	s->mine = json_object_get(json_object_get(s->saved, "homes"), s->home);
}

int
steer_run(const char *mode, struct report *rep)
{
	struct steer s;
	const char *home = getenv("CODEX_HOME"), *h = getenv("HOME"), *st;
	char *p;
	int rc = -1, k;

	memset(&s, 0, sizeof s);
	s.rep = rep;
	s.home = home != NULL && *home != '\0' ? xstrdup(home) :
	    xasprintf("%s/.codex", h != NULL ? h : "");
	for (p = s.home + strlen(s.home); p > s.home + 1 && p[-1] == '/';)
		*--p = '\0';
	s.file = hooks_file(HOOKS_CODEX);
	load_saved(&s);
	if ((s.bin = path_search("codex")) == NULL) {
		fail(&s, "CODEX_NOT_FOUND", "no `codex` on PATH: Steer "
		    "needs the Codex CLI", "");
		goto out;
	}
	if (start(&s) != 0)
		goto out;
	rc = strcmp(mode, "enable") == 0 ? enable(&s) : strcmp(mode,
	    "disable") == 0 ? disable(&s) : status(&s);
out:
	if (s.up)
		linerpc_stop(&s.rpc, 5000);
	free(s.rpc.why);
	st = json_string_value(json_object_get(rep->facts, "codex_steer"));
	if (rc == 0 && st != NULL && strcmp(st, "restart_required") == 0)
		rc = STEER_EXIT_RESTART;
	for (k = 0; k < OUR_HOOKS; k++)
		json_decref(s.ours[k]);
	json_decref(s.saved);
	free(s.saved_path);
	free(s.home);
	free(s.file);
	free(s.bin);
	return rc;
}
