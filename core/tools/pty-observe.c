/*
 * pty_observe (PTY-OBSERVE): what a session is doing, from the OS process
 * table and the screen, with each fact kept apart: whether the session
 * exists, whether its pane is alive, whether a harness is alive, the
 * screen state with its reason, and native process identities (PID, start
 * id, argv digest; null when they cannot be determined).  It never returns
 * screen text or argv text.  doc/observe.md has the rules, ADR 0005 why.
 *
 * No harness plugin classifies screens yet, so the screen state is decided
 * only where it can be without one: a lost session is absent, a dead pane
 * exited, and a stopped harness blocked/harness_stopped (which wins over
 * whatever the screen still shows); anything else is unknown.
 *
 * The background threshold (60 s) can be changed for tests only: with
 * AITERM_TEST_TOOLS=1, AITERM_TEST_OBSERVE_BACKGROUND_MS is read.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "agent/harness.h"
#include "agent/record.h"
#include "agent/screen.h"
#include "observe/cursor.h"
#include "observe/identity.h"
#include "observe/token-hint.h"
#include "plugin/host.h"
#include "proc/launch.h"
#include "proc/proc.h"
#include "pty/secret.h"
#include "pty/session.h"
#include "tools/on-mux.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/sha256.h"
#include "util/xmalloc.h"

#define OBSERVE_BACKGROUND_ENV	"AITERM_TEST_OBSERVE_BACKGROUND_MS"

struct observation {
	const char		*id;
	struct aiterm_pane_info	 pane;
	bool			 managed;
	bool			 have_screen;
	char			 screen_digest[OBS_DIGEST_HEX + 1];
	/* The harness that classified the screen (AGT-*), when one did. */
	struct harness		 harness;
	bool			 classified;
	struct aiterm_screen_verdict verdict;
	struct token_hint	 token;
	bool			 have_token;
	struct proc_table	 table;
	struct launch_tree	 tree;
	unsigned long long	 bg_ms;
	struct obs_cursor	 now;
};

/* Why there is no delta, by case. */
enum no_delta {
	DELTA_OK,
	DELTA_FIRST,
	DELTA_RECREATED,
	DELTA_NO_PANE,
};

static const char *const no_delta_reasons[] = {
	[DELTA_OK] = NULL,
	[DELTA_FIRST] = "first_observation",
	[DELTA_RECREATED] = "pane_recreated",
	[DELTA_NO_PANE] = "no_pane",
};

static const char *const harness_reasons[] = {
	[HARNESS_NONE] = "no_foreground_launch",
	[HARNESS_ONE] = "foreground_launch",
	[HARNESS_AMBIGUOUS] = "several_foreground_launches",
	[HARNESS_NO_ROOT] = "pane_process_gone",
};

static unsigned long long
background_ms(void)
{
	const char *test = getenv("AITERM_TEST_TOOLS");
	const char *v = getenv(OBSERVE_BACKGROUND_ENV);
	unsigned long long ms;
	char *end;

	if (test == NULL || strcmp(test, "1") != 0 || v == NULL || *v == '\0')
		return LAUNCH_BACKGROUND_MS;
	errno = 0;
	ms = strtoull(v, &end, 10);
	if (errno != 0 || *end != '\0')
		return LAUNCH_BACKGROUND_MS;
	return ms;
}

/*
 * The tree by executable names: built once from the table's short names
 * to find the pane's processes, which are then named by their executable
 * (a node script may rename its process) and grouped again.
 */
static void
build_tree(struct observation *o)
{
	size_t i, row;

	launch_tree_build(&o->tree, o->table.procs, o->table.n, o->pane.pid,
	    o->bg_ms);
	for (i = 0; i < o->tree.n; i++) {
		row = (size_t)(o->tree.nodes[i].ps - o->table.procs);
		proc_exe_name(o->table.procs[row].pid,
		    o->table.procs[row].name, sizeof o->table.procs[row].name);
	}
	launch_tree_free(&o->tree);
	launch_tree_build(&o->tree, o->table.procs, o->table.n, o->pane.pid,
	    o->bg_ms);
}

static void
snapshot(struct observation *o)
{
	const struct launch_node *nd;
	struct obs_cpu c;
	size_t i;

	snprintf(o->now.session, sizeof o->now.session, "%s", o->id);
	o->now.pane_pid = o->pane.exists && o->pane.pid > 0 ? o->pane.pid : -1;
	o->now.clock_ms = proc_clock_ms();
	memcpy(o->now.screen, o->screen_digest, sizeof o->now.screen);
	/* A dead pane's process is gone, whatever the table says now. */
	if (o->tree.n > 0 && !o->pane.dead)
		memcpy(o->now.pane_start, o->tree.nodes[0].ps->start_id,
		    sizeof o->now.pane_start);
	for (i = 0; i < o->tree.n && !o->pane.dead; i++) {
		nd = &o->tree.nodes[i];
		memset(&c, 0, sizeof c);
		c.pid = nd->ps->pid;
		memcpy(c.start_id, nd->ps->start_id, sizeof c.start_id);
		c.cpu_ms = nd->ps->cpu_ms;
		c.child_cpu_ms = nd->ps->child_cpu_ms;
		c.start_ms = nd->ps->start_ms;
		c.background = nd->background;
		obs_cursor_add(&o->now, &c);
	}
}

/*
 * The harness of the session: the one agent_launch started, else the one
 * whose body names the foreground launch's executable (a CLI a person
 * typed into a shell session).
 */
static bool
session_harness(const struct observation *o, struct harness *h)
{
	const struct launch *l;
	struct agent_record rec;
	char exe[256];
	bool found = false;

	if (agent_record_read(o->id, &rec, NULL) == 0) {
		found = harness_find(rec.harness, h, NULL) == 0;
		agent_record_free(&rec);
		if (found)
			return true;
	}
	if (o->tree.harness < 0)
		return false;
	l = &o->tree.launches[o->tree.harness];
	return proc_exe_name(o->tree.nodes[l->body].ps->pid, exe,
	    sizeof exe) == 0 && harness_for_program(exe, h) == 0;
}

static void
classify(struct observation *o, const struct aiterm_buf *screen)
{
	if (!o->have_screen || !o->pane.exists || o->pane.dead ||
	    !session_harness(o, &o->harness))
		return;
	agent_screen_classify(&o->harness, buf_str(screen), screen->len,
	    &o->pane, &o->verdict);
	o->classified = true;
}

static int
observe(struct observation *o, struct aiterm_error *err)
{
	const struct aiterm_mux_ops *mux;
	struct aiterm_buf screen = BUF_INIT;

	if ((mux = session_mux(err)) == NULL)
		return -1;
	memset(&o->pane, 0, sizeof o->pane);
	/* The pane and its screen in one question; the screen may fail alone. */
	if (session_pane_screen(mux, o->id, &o->pane, &screen, err) == 0)
		o->have_screen = o->pane.exists;
	else {
		error_clear(err);
		buf_reset(&screen);
		memset(&o->pane, 0, sizeof o->pane);
		if (mux->pane_info(host_get(), o->id, &o->pane, err) != 0)
			return -1;
	}
	o->managed = session_exists_on_disk(o->id);
	if (!o->pane.exists && !o->managed) {
		buf_free(&screen);
		return error_set(err, "no session '%s'", o->id);
	}
	if (o->have_screen) {
		sha256_hex(screen.data == NULL ? "" : screen.data, screen.len,
		    o->screen_digest, OBS_DIGEST_HEX);
		o->have_token = token_hint_find(buf_str(&screen), screen.len,
		    &o->token);
	}
	error_clear(err);
	o->bg_ms = background_ms();
	o->tree.harness = -1;
	/* A live pane whose process the multiplexer does not name. */
	o->tree.why = HARNESS_NO_ROOT;
	if (o->pane.exists && !o->pane.dead && o->pane.pid > 0) {
		if (proc_tree_read(&o->table, o->pane.pid) != 0) {
			error_set(err, "cannot read the process table: %s",
			    strerror(errno));
			buf_free(&screen);
			return -1;
		}
		build_tree(o);
	}
	classify(o, &screen);
	buf_free(&screen);
	snapshot(o);
	return 0;
}

static json_t *
identity_of(const struct launch_tree *t, int node)
{
	struct obs_identity id;

	if (node < 0 || obs_identity_of(t->nodes[node].ps, &id) != 0)
		return json_null();
	return obs_identity_json(&id);
}

static json_t *
pane_json(const struct observation *o)
{
	json_t *p;

	p = json_pack("{s:b, s:o}", "alive", o->pane.exists && !o->pane.dead,
	    "identity", o->tree.n > 0 ? identity_of(&o->tree, 0) :
	    json_null());
	json_object_set_new(p, "exit_status", o->pane.dead &&
	    o->pane.dead_status >= 0 ? json_integer(o->pane.dead_status) :
	    json_null());
	return p;
}

static size_t
stopped_candidates(const struct launch_tree *t, int launch)
{
	size_t i, n = 0;

	for (i = 0; i < t->n; i++) {
		if (t->nodes[i].launch == launch &&
		    t->nodes[i].ps->state == PROC_STOPPED)
			n++;
	}
	return n;
}

static json_t *
launches_json(const struct launch_tree *t)
{
	const struct launch *l;
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < t->nlaunches; i++) {
		l = &t->launches[i];
		json_array_append_new(a, json_pack(
		    "{s:o, s:o, s:b, s:b, s:I, s:I}",
		    "identity", identity_of(t, l->body),
		    "shim", identity_of(t, l->shim),
		    "foreground", l->foreground, "stopped", l->stopped,
		    "processes", (json_int_t)l->candidates,
		    "stopped_processes",
		    (json_int_t)stopped_candidates(t, (int)i)));
	}
	return a;
}

static const char *
harness_reason(const struct observation *o)
{
	if (!o->pane.exists)
		return "session_lost";
	if (o->pane.dead)
		return "pane_dead";
	return harness_reasons[o->tree.why];
}

static json_t *
harness_json(const struct observation *o)
{
	const struct launch *l = o->tree.harness >= 0 ?
	    &o->tree.launches[o->tree.harness] : NULL;
	bool live = o->pane.exists && !o->pane.dead;
	json_t *alive;

	if (live && o->tree.why == HARNESS_NO_ROOT)
		alive = json_null();
	else
		alive = json_boolean(live && (o->tree.why == HARNESS_ONE ||
		    o->tree.why == HARNESS_AMBIGUOUS));
	return json_pack("{s:o, s:s, s:o, s:o, s:b}", "alive", alive,
	    "reason", harness_reason(o),
	    "identity", l != NULL ? identity_of(&o->tree, l->body) : json_null(),
	    "shim", l != NULL ? identity_of(&o->tree, l->shim) : json_null(),
	    "stopped", l != NULL && l->stopped);
}

static bool
harness_stopped(const struct observation *o)
{
	return o->tree.harness >= 0 &&
	    o->tree.launches[o->tree.harness].stopped;
}

static void
screen_state(const struct observation *o, const char **state,
    const char **reason)
{
	if (!o->pane.exists) {
		*state = "absent";
		*reason = "session_lost";
	} else if (o->pane.dead) {
		*state = "exited";
		*reason = "pane_dead";
	} else if (harness_stopped(o)) {
		*state = "blocked";
		*reason = "harness_stopped";
	} else if (!o->have_screen) {
		*state = "unknown";
		*reason = "capture_failed";
	} else if (o->classified && o->verdict.state ==
	    AITERM_SCREEN_RATE_LIMITED) {
		/* A usage limit holds the agent (AGT-LIMIT; ADR 0011). */
		*state = "blocked";
		*reason = "rate_limited";
	} else if (o->classified) {
		*state = agent_state_name(o->verdict.state);
		*reason = o->verdict.reason;
	} else {
		*state = "unknown";
		*reason = "no_classifier";
	}
}

static json_t *
screen_json(const struct observation *o)
{
	const char *state, *reason;

	screen_state(o, &state, &reason);
	return json_pack("{s:s, s:s, s:o, s:o}", "state", state, "reason",
	    reason, "digest", o->have_screen ? json_string(o->screen_digest) :
	    json_null(), "classifier", o->classified ?
	    json_string(o->harness.id) : json_null());
}

static json_t *
token_json(const struct observation *o)
{
	if (!o->have_token)
		return json_null();
	return json_pack("{s:I, s:b, s:i, s:s}", "value",
	    (json_int_t)o->token.value, "approximate", o->token.approximate,
	    "row", (int)o->token.row, "source", "screen_latest");
}

static json_t *
delta_json(const struct obs_delta *d, unsigned long long bg_ms)
{
	json_t *procs = json_array(), *ended = json_array();
	size_t i;

	for (i = 0; i < d->nprocs; i++)
		json_array_append_new(procs, json_pack(
		    "{s:I, s:s, s:I, s:b, s:b}",
		    "pid", (json_int_t)d->procs[i].now->pid,
		    "start_id", d->procs[i].now->start_id,
		    "cpu_ms", (json_int_t)d->procs[i].cpu_ms,
		    "started", d->procs[i].started,
		    "background", d->procs[i].now->background));
	for (i = 0; i < d->nended; i++)
		json_array_append_new(ended, json_pack("{s:I, s:s}",
		    "pid", (json_int_t)d->ended[i]->pid,
		    "start_id", d->ended[i]->start_id));
	return json_pack("{s:I, s:b, s:I, s:b, s:o, s:o, s:{s:I, s:I, s:I}}",
	    "interval_ms", (json_int_t)d->interval_ms,
	    "screen_changed", d->screen_changed,
	    "cpu_ms", (json_int_t)d->cpu_ms,
	    "cpu_delta_complete", d->complete,
	    "processes", procs, "ended", ended,
	    "background", "cpu_ms", (json_int_t)d->background_cpu_ms,
	    "processes", (json_int_t)d->background_procs,
	    "threshold_ms", (json_int_t)bg_ms);
}

static enum no_delta
no_delta(const struct obs_cursor *prev, const struct observation *o)
{
	if (prev == NULL)
		return DELTA_FIRST;
	if (o->now.pane_pid <= 0 || o->now.pane_start[0] == '\0' ||
	    prev->pane_pid <= 0 || prev->pane_start[0] == '\0')
		return DELTA_NO_PANE;
	if (!obs_cursor_same_pane(prev, &o->now))
		return DELTA_RECREATED;
	return DELTA_OK;
}

static json_t *
activity_json(const struct obs_cursor *prev, const struct observation *o,
    struct aiterm_buf *text)
{
	enum no_delta why = no_delta(prev, o);
	struct obs_delta d;
	json_t *a;

	if (why != DELTA_OK) {
		buf_printf(text, "activity: none yet (%s)",
		    no_delta_reasons[why]);
		return json_pack("{s:n, s:s}", "delta", "reason",
		    no_delta_reasons[why]);
	}
	obs_delta_compute(prev, &o->now, &d);
	buf_printf(text, "activity: %llu ms CPU in %llu ms%s, background "
	    "%llu ms, screen %s", d.cpu_ms, d.interval_ms, d.complete ? "" :
	    " (incomplete: a process ended)", d.background_cpu_ms,
	    d.screen_changed ? "changed" : "unchanged");
	a = json_pack("{s:o, s:n}", "delta", delta_json(&d, o->bg_ms),
	    "reason");
	obs_delta_free(&d);
	return a;
}

static void
summary(const struct observation *o, struct aiterm_buf *text)
{
	const struct launch *l = o->tree.harness >= 0 ?
	    &o->tree.launches[o->tree.harness] : NULL;
	const char *state, *reason;

	buf_printf(text, "%s: %s", o->id, !o->pane.exists ? "session lost" :
	    o->pane.dead ? "pane exited" : "pane alive");
	if (l != NULL) {
		buf_printf(text, "; harness pid %ld",
		    o->tree.nodes[l->body].ps->pid);
		if (l->shim >= 0)
			buf_printf(text, " (shim pid %ld)",
			    o->tree.nodes[l->shim].ps->pid);
		if (l->stopped)
			buf_adds(text, " stopped");
	} else {
		buf_printf(text, "; no harness (%s)", harness_reason(o));
	}
	screen_state(o, &state, &reason);
	buf_printf(text, "; screen %s/%s; %zu processes, %zu launch%s\n",
	    state, reason, o->tree.n, o->tree.nlaunches,
	    o->tree.nlaunches == 1 ? "" : "es");
}

/* On the multiplexer's thread: the pane, its screen, its processes. */
static void
observe_work(json_t *args, struct mux_result *r)
{
	json_t *out;
	const char *cursor = json_string_value(json_object_get(args, "cursor"));
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf text = BUF_INIT;
	struct observation o;
	struct obs_cursor prev;
	char *next, prompt[SECRET_PROMPT_MAX];
	bool have_prev = false;

	memset(&o, 0, sizeof o);
	memset(&prev, 0, sizeof prev);
	o.id = json_string_value(json_object_get(args, "session_id"));
	if (cursor != NULL) {
		if (obs_cursor_parse(cursor, &prev, &err) != 0) {
			error_prefix(&err, "invalid cursor");
			goto out_fail;
		}
		have_prev = true;
		if (strcmp(prev.session, o.id) != 0) {
			error_set(&err, "the cursor is of session '%s', not "
			    "'%s'", prev.session, o.id);
			goto out_fail;
		}
	}
	if (observe(&o, &err) != 0)
		goto out_fail;
	summary(&o, &text);
	out = json_pack("{s:s, s:b, s:b, s:o, s:o, s:o, s:o, s:I}",
	    "session_id", o.id, "exists", o.pane.exists != 0,
	    "managed", o.managed, "pane", pane_json(&o),
	    "harness", harness_json(&o), "screen", screen_json(&o),
	    "launches", launches_json(&o.tree),
	    "processes", (json_int_t)o.tree.n);
	json_object_set_new(out, "activity", activity_json(have_prev ? &prev :
	    NULL, &o, &text));
	json_object_set_new(out, "token_hint", token_json(&o));
	/* Its prompt's line only, never the rest of the screen (issue 36). */
	if (o.pane.exists && !o.pane.dead && o.pane.pid > 0 &&
	    secret_pane_waits(o.id, &o.pane, prompt)) {
		buf_printf(&text, "\nwaiting for a secret: %s", prompt);
		json_object_set_new(out, "secret", json_pack("{s:s}", "prompt",
		    prompt));
	} else
		json_object_set_new(out, "secret", json_null());
	if (o.have_token)
		buf_printf(&text, "\ntokens on screen: %s%llu",
		    o.token.approximate ? "~" : "",
		    (unsigned long long)o.token.value);
	next = obs_cursor_format(&o.now);
	/* The model passes it back: the text must carry it. */
	buf_printf(&text, "\ncursor: %s", next);
	json_object_set_new(out, "cursor", json_string(next));
	free(next);
	r->text = buf_steal(&text, NULL);
	r->structured = out;
	goto out;
out_fail:
	r->err = err;
	err.msg = NULL;
	buf_free(&text);
out:
	obs_cursor_free(&prev);
	obs_cursor_free(&o.now);
	launch_tree_free(&o.tree);
	proc_table_free(&o.table);
}

/* An identity or null. */
#define OBS_IDENTITY_SCHEMA \
	"{\"type\":[\"object\",\"null\"],\"properties\":{" \
	"\"pid\":{\"type\":\"integer\"},\"start_id\":{\"type\":\"string\"}," \
	"\"argv_digest\":{\"type\":\"string\"}}," \
	"\"required\":[\"pid\",\"start_id\",\"argv_digest\"]}"

static void
pty_observe_call(struct tool_call *call)
{
	tool_call_on_mux(call, "pty_observe", observe_work);
}

const struct tool_entry tool_pty_observe = {
	.name = "pty_observe",
	.title = "Observe a terminal",
	.description = "What a session is doing, from the OS process table: "
	    "session exists, pane alive, harness alive, screen state with a "
	    "reason, process identities (pid + start_id + argv_digest; null "
	    "when unknown), a secret prompt's line. Never returns other screen "
	    "or argv text. Pass the "
	    "returned cursor back to get CPU and screen activity since then.",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},"
	    "\"cursor\":{\"type\":\"string\",\"maxLength\":262144,"
	    "\"description\":\"The cursor of the previous observation.\"}},"
	    "\"required\":[\"session_id\"],\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},"
	    "\"exists\":{\"type\":\"boolean\"},"
	    "\"managed\":{\"type\":\"boolean\"},"
	    "\"pane\":{\"type\":\"object\",\"properties\":{"
	    "\"alive\":{\"type\":\"boolean\"},"
	    "\"exit_status\":{\"type\":[\"integer\",\"null\"]},"
	    "\"identity\":" OBS_IDENTITY_SCHEMA "},"
	    "\"required\":[\"alive\",\"identity\"]},"
	    "\"harness\":{\"type\":\"object\",\"properties\":{"
	    "\"alive\":{\"type\":[\"boolean\",\"null\"]},"
	    "\"reason\":{\"type\":\"string\"},"
	    "\"stopped\":{\"type\":\"boolean\"},"
	    "\"identity\":" OBS_IDENTITY_SCHEMA ","
	    "\"shim\":" OBS_IDENTITY_SCHEMA "},"
	    "\"required\":[\"alive\",\"reason\",\"identity\"]},"
	    "\"screen\":{\"type\":\"object\",\"properties\":{"
	    "\"state\":{\"type\":\"string\",\"enum\":[\"absent\",\"exited\","
	    "\"blocked\",\"unknown\",\"starting\",\"input_ready\","
	    "\"running\",\"approval\",\"blocking_dialog\",\"onboarding\","
	    "\"rate_limited\"]},"
	    "\"reason\":{\"type\":\"string\"},"
	    "\"digest\":{\"type\":[\"string\",\"null\"]},"
	    "\"classifier\":{\"type\":[\"string\",\"null\"]}},"
	    "\"required\":[\"state\",\"reason\"]},"
	    "\"launches\":{\"type\":\"array\",\"items\":{\"type\":\"object\","
	    "\"properties\":{\"identity\":" OBS_IDENTITY_SCHEMA ","
	    "\"shim\":" OBS_IDENTITY_SCHEMA ","
	    "\"foreground\":{\"type\":\"boolean\"},"
	    "\"stopped\":{\"type\":\"boolean\"},"
	    "\"processes\":{\"type\":\"integer\"},"
	    "\"stopped_processes\":{\"type\":\"integer\"}},"
	    "\"required\":[\"identity\",\"foreground\",\"stopped\"]}},"
	    "\"processes\":{\"type\":\"integer\"},"
	    "\"activity\":{\"type\":\"object\",\"properties\":{"
	    "\"delta\":{\"type\":[\"object\",\"null\"],\"properties\":{"
	    "\"interval_ms\":{\"type\":\"integer\"},"
	    "\"screen_changed\":{\"type\":\"boolean\"},"
	    "\"cpu_ms\":{\"type\":\"integer\"},"
	    "\"cpu_delta_complete\":{\"type\":\"boolean\"},"
	    "\"processes\":{\"type\":\"array\"},"
	    "\"ended\":{\"type\":\"array\"},"
	    "\"background\":{\"type\":\"object\"}},"
	    "\"required\":[\"interval_ms\",\"cpu_ms\",\"cpu_delta_complete\"]},"
	    "\"reason\":{\"type\":[\"string\",\"null\"]}},"
	    "\"required\":[\"delta\",\"reason\"]},"
	    "\"token_hint\":{\"type\":[\"object\",\"null\"],\"properties\":{"
	    "\"value\":{\"type\":\"integer\"},"
	    "\"approximate\":{\"type\":\"boolean\"},"
	    "\"row\":{\"type\":\"integer\"},"
	    "\"source\":{\"type\":\"string\",\"enum\":[\"screen_latest\"]}}},"
	    "\"secret\":{\"type\":[\"object\",\"null\"],\"properties\":{"
	    "\"prompt\":{\"type\":\"string\"}},\"required\":[\"prompt\"]},"
	    "\"cursor\":{\"type\":\"string\"}},"
	    "\"required\":[\"session_id\",\"exists\",\"pane\",\"harness\","
	    "\"screen\",\"activity\",\"token_hint\",\"cursor\"]}",
	.hints = TOOL_READ_ONLY | TOOL_OPEN_WORLD,
	.call = pty_observe_call,
	.relayable = true,
	.session_target = true,
};
