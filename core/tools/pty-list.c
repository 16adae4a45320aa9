/*
 * pty_list (PTY-LIST): the sessions of the private multiplexer server and
 * what Aiterm knows of them.  env_keys returns only the keys asked for,
 * and only from a non-secret allowlist, from what pty_open was given.
 */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/harness.h"
#include "agent/record.h"
#include "agent/screen.h"
#include "plugin/host.h"
#include "pty/session.h"
#include "remote/records.h"
#include "state/stateroot.h"
#include "tools/on-mux.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* Keys that identify and attribute, never secrets. */
static const char *const env_allowlist[] = {
	"AITERM_SESSION_ID", "TERM", "SHELL", "LANG", "LC_ALL", "LC_CTYPE",
	"TZ", "USER", "LOGNAME", "COLORTERM", "AITERM_PARENT",
	"AITERM_LAUNCH_ID", NULL,
};

struct listing {
	json_t			*sessions;
	const struct aiterm_mux_ops *mux;
	json_t			*maybe;		/* ids that may be agents' */
	json_t			*not_agents;	/* the next not_agents */
};

static bool
allowed(const char *key)
{
	size_t i;

	for (i = 0; env_allowlist[i] != NULL; i++) {
		if (strcmp(env_allowlist[i], key) == 0)
			return true;
	}
	return false;
}

/*
 * Listed sessions known to be no agent's, "<id> <created> <pane pid>": a
 * launch writes agent.json before the multiplexer's session exists
 * (agent_session_spawn), so a listed session without one never gets one,
 * and a name made again has another pane process (tmux's creation time
 * is in seconds).  Not looked for again (500 absent files were a tenth
 * of a list at 500 sessions, issue 38).  Only the sessions of the last
 * list are kept.  On the multiplexer's thread only.
 */
static json_t *not_agents;

/* Whether the session may be an agent's; notes it in next if not. */
static bool
maybe_agent(const char *id, long created, long pid, json_t *next)
{
	char key[SESSION_ID_MAX + 48], *path;
	bool absent;

	snprintf(key, sizeof key, "%s %ld %ld", id, created, pid);
	if (not_agents != NULL && json_object_get(not_agents, key) != NULL) {
		json_object_set_new(next, key, json_true());
		return false;
	}
	path = session_path(id, "agent.json");
	absent = path != NULL && access(path, F_OK) != 0 && errno == ENOENT;
	free(path);
	if (absent)
		json_object_set_new(next, key, json_true());
	return !absent;
}

static void
add_session(const char *id, long created,
    const struct aiterm_pane_info *pane, void *arg)
{
	struct listing *l = arg;
	struct aiterm_pane_info info = *pane;
	json_t *o;

	o = json_pack("{s:s, s:b, s:b, s:s, s:I, s:i, s:i}", "session_id", id,
	    "managed", 0, "alive",
	    info.exists && !info.dead, "command", info.command,
	    "created", (json_int_t)created, "cols", (int)info.cols,
	    "rows", (int)info.rows);
	if (info.dead)
		json_object_set_new(o, "exit_status",
		    json_integer(info.dead_status));
	json_array_append_new(l->sessions, o);
	if (info.exists && !info.dead &&
	    maybe_agent(id, created, info.pid, l->not_agents))
		json_object_set_new(l->maybe, id, json_true());
}

/*
 * The ids with a folder in the state root, read once: a listed session is
 * managed when it has one, without a look at each folder (issue 38).
 */
static json_t *
on_disk(void)
{
	char *dir = state_path("sessions");
	struct dirent *de;
	DIR *d = dir == NULL ? NULL : opendir(dir);
	json_t *ids = json_object();

	while (d != NULL && (de = readdir(d)) != NULL) {
		if (session_id_valid(de->d_name))
			json_object_set_new(ids, de->d_name, json_true());
	}
	if (d != NULL)
		closedir(d);
	free(dir);
	return ids;
}

/*
 * Each listed session is managed when it has a folder; a folder without
 * a listed session is lost: its tmux server or session died.  The listed
 * ids go into a hash first, so 500 sessions cost 500 lookups, not 500 x
 * 500 comparisons.
 */
static void
add_lost(json_t *sessions, json_t *ids)
{
	json_t *seen = json_object(), *o, *v;
	const char *id;
	size_t i;

	json_array_foreach(sessions, i, o) {
		id = json_string_value(json_object_get(o, "session_id"));
		json_object_set(seen, id, json_true());
		json_object_set_new(o, "managed", json_boolean(
		    json_object_get(ids, id) != NULL));
	}
	json_object_foreach(ids, id, v) {
		if (json_object_get(seen, id) != NULL)
			continue;
		json_array_append_new(sessions, json_pack(
		    "{s:s, s:b, s:b, s:s, s:b}", "session_id", id,
		    "managed", 1, "alive", 0, "command", "", "lost", 1));
	}
	json_decref(seen);
}

static void
add_env(json_t *sessions, json_t *keys)
{
	struct session_meta meta;
	size_t i, k;
	json_t *o, *key, *env;

	json_array_foreach(sessions, i, o) {
		const char *id = json_string_value(json_object_get(o,
		    "session_id"));

		env = json_object();
		json_array_foreach(keys, k, key) {
			const char *name = json_string_value(key);

			if (!allowed(name))
				continue;
			if (strcmp(name, "AITERM_SESSION_ID") == 0)
				json_object_set_new(env, name,
				    json_string(id));
			else if (strcmp(name, "SHELL") == 0 &&
			    session_meta_read(id, &meta, NULL) == 0)
				json_object_set_new(env, name,
				    json_string(meta.shell));
		}
		json_object_set_new(o, "env", env);
	}
}

/* The env_keys asked for, as " KEY=value" (unset: " KEY unset"). */
static void
env_text(struct aiterm_buf *text, json_t *env)
{
	const char *key;
	json_t *v;

	json_object_foreach(env, key, v) {
		if (json_is_string(v))
			buf_printf(text, " %s=%s", key, json_string_value(v));
		else
			buf_printf(text, " %s unset", key);
	}
}

/*
 * Agent sessions (agent.json): their harness, what its classifier says of
 * the screen now, and the current turn.  Other sessions cost nothing.
 */
static void
add_agents(json_t *sessions, json_t *maybe)
{
	struct aiterm_error err = ERROR_INIT;
	struct agent_record rec;
	struct agent_screen scr;
	struct harness h;
	const char *id;
	size_t i;
	json_t *o;

	json_array_foreach(sessions, i, o) {
		id = json_string_value(json_object_get(o, "session_id"));
		if (!json_is_true(json_object_get(o, "alive")) ||
		    json_object_get(maybe, id) == NULL ||
		    agent_record_read(id, &rec, NULL) != 0)
			continue;
		if (harness_find(rec.harness, &h, NULL) == 0 &&
		    agent_screen_read(&h, id, &scr, &err) == 0) {
			json_object_set_new(o, "agent", json_pack(
			    "{s:s, s:s, s:s, s:i}", "harness", rec.harness,
			    "screen", agent_state_name(scr.verdict.state),
			    "reason", scr.verdict.reason, "turn",
			    (int)rec.turn));
			agent_screen_free(&scr);
		}
		error_clear(&err);
		agent_record_free(&rec);
	}
}

/* On the multiplexer's thread: the list, the files, the agents' screens. */
static void
list_work(json_t *args, struct mux_result *r)
{
	json_t *keys = json_object_get(args, "env_keys"), *o, *agent, *remote;
	json_t *ids;
	struct aiterm_buf text = BUF_INIT;
	struct listing l;
	size_t i;

	l.sessions = json_array();
	l.maybe = json_object();
	l.not_agents = json_object();
	if ((l.mux = session_mux(&r->err)) == NULL ||
	    l.mux->list(host_get(), add_session, &l, &r->err) != 0) {
		json_decref(l.sessions);
		json_decref(l.maybe);
		json_decref(l.not_agents);
		return;
	}
	json_decref(not_agents);
	not_agents = l.not_agents;
	/* After the list, as before: a folder made since is not lost. */
	ids = on_disk();
	add_lost(l.sessions, ids);
	json_decref(ids);
	add_agents(l.sessions, l.maybe);
	json_decref(l.maybe);
	if (keys != NULL)
		add_env(l.sessions, keys);
	json_array_foreach(l.sessions, i, o) {
		buf_printf(&text, "%s\t%s\t%s",
		    json_string_value(json_object_get(o, "session_id")),
		    json_is_true(json_object_get(o, "lost")) ? "lost" :
		    json_is_true(json_object_get(o, "alive")) ? "alive" :
		    "exited",
		    json_string_value(json_object_get(o, "command")));
		env_text(&text, json_object_get(o, "env"));
		if ((agent = json_object_get(o, "agent")) != NULL)
			buf_printf(&text, "\tagent %s %s/%s turn %d",
			    json_string_value(json_object_get(agent,
			    "harness")), json_string_value(json_object_get(agent,
			    "screen")), json_string_value(json_object_get(agent,
			    "reason")), (int)json_integer_value(json_object_get(
			    agent, "turn")));
		buf_addc(&text, '\n');
	}
	/* Opened on other hosts by this state root's servers (REM-RELAY). */
	remote = remote_records_json();
	json_array_foreach(remote, i, o)
		buf_printf(&text, "%s\tremote %s\n", json_string_value(
		    json_object_get(o, "session_id")), json_string_value(
		    json_object_get(o, "host")));
	if (text.len == 0)
		buf_adds(&text, "no sessions");
	r->text = buf_steal(&text, NULL);
	r->structured = json_pack("{s:o}", "sessions", l.sessions);
	if (json_array_size(remote) > 0)
		json_object_set(r->structured, "remote_sessions", remote);
	json_decref(remote);
}

static void
pty_list_call(struct tool_call *call)
{
	struct aiterm_error err = ERROR_INIT;

	if (state_root_require(&err) != 0) {
		tool_call_fail(call, "pty_list: %s", error_msg(&err));
		error_clear(&err);
		return;
	}
	tool_call_on_mux(call, "pty_list", list_work);
}

const struct tool_entry tool_pty_list = {
	.name = "pty_list",
	.title = "List terminals",
	.description = "List sessions: id, alive/exited/lost, foreground "
	    "command; an agent session's harness, screen state and turn. "
	    "env_keys (max 32): non-secret keys to return "
	    "(AITERM_SESSION_ID, SHELL).",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"env_keys\":{\"type\":\"array\",\"items\":{\"type\":\"string\"},"
	    "\"maxItems\":32}},\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{\"sessions\":"
	    "{\"type\":\"array\",\"items\":{\"type\":\"object\",\"properties\":"
	    "{\"session_id\":{\"type\":\"string\"},\"alive\":{\"type\":"
	    "\"boolean\"},\"managed\":{\"type\":\"boolean\"},\"command\":"
	    "{\"type\":\"string\"},\"lost\":{\"type\":\"boolean\"},\"env\":"
	    "{\"type\":\"object\"},\"agent\":{\"type\":\"object\"}},"
	    "\"required\":[\"session_id\",\"alive\"]}},"
	    "\"remote_sessions\":{\"type\":\"array\",\"items\":{\"type\":"
	    "\"object\",\"properties\":{\"host\":{\"type\":\"string\"},"
	    "\"session_id\":{\"type\":\"string\"},\"tool\":{\"type\":"
	    "\"string\"},\"created_ms\":{\"type\":\"integer\"}}}}},"
	    "\"required\":[\"sessions\"]}",
	.hints = TOOL_READ_ONLY | TOOL_IDEMPOTENT | TOOL_OPEN_WORLD,
	.call = pty_list_call,
	.relayable = true,
};
