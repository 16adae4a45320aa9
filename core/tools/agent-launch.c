/*
 * agent_launch (AGT-LAUNCH, AGT-START, AGT-TURN, AGT-JOB): start an agent
 * CLI (a harness plugin: claude-code, codex-cli, ...) in a session of its
 * own, bring it to its composer, and dispatch the prompt if one is given.
 * It never waits for a turn: the receipt says how far start-up and the
 * dispatch got, and how to read the answer.
 *
 * The CLI is the pane's own command (no shell in front of it), so the
 * launch line is in no shell history and its exit status is the pane's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/catalog.h"
#include "agent/dispatch.h"
#include "agent/harness.h"
#include "agent/probe.h"
#include "agent/record.h"
#include "agent/startup.h"
#include "deliver/parent.h"
#include "plugin/host.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "state/stateroot.h"
#include "tools/agent-common.h"
#include "tools/agent-images.h"
#include "tools/agent-schema.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/xmalloc.h"

extern char **environ;

struct launch {
	struct tool_call	*call;
	struct harness		 h;
	char			 id[SESSION_ID_MAX + 1];
	char			 cwd[PATH_MAX];
	char			*model;
	char			*supplement;	/* Throughline's, as given */
	char			*prompt;
	size_t			 prompt_len;
	struct agent_images	 images;	/* attached to the prompt */
	bool			 trust;
	unsigned		 timeout_ms;
	struct probe_result	 probe;
	struct startup		*startup;
	struct startup_result	 start;
	struct parent_delivery	 pd;
	bool			 cancelled, created;
	/* The multiplexer's steps run on its thread (pty/muxjob.h). */
	const char		*name;	/* asked for, in the call's arguments */
	int			 rc;
	struct aiterm_error	 err;
	char			*attach;
};

static void
launch_free(struct launch *l)
{
	error_clear(&l->pd.err);
	error_clear(&l->err);
	free(l->attach);
	free(l->model);
	free(l->supplement);
	free(l->prompt);
	agent_images_free(&l->images);
	free(l);
}

/* A session that will not be used ends, on the multiplexer's thread. */
static void
discard_work(void *arg)
{
	agent_session_discard(arg);
}

static void
discard_done(void *arg)
{
	free(arg);
}

static void
fail(struct launch *l, const char *msg)
{
	if (l->created)
		muxjob_run(discard_work, discard_done, xstrdup(l->id));
	tool_call_fail(l->call, "agent_launch: %s", msg);
	launch_free(l);
}

/* The receipt: what the model reads (and, asked for, the same as fields). */
static void
reply(struct launch *l, const struct dispatch_result *d)
{
	struct aiterm_buf t = BUF_INIT;
	struct agent_record rec;
	char cursor[48] = "", code[64] = "";
	json_t *sc;
	const char *attach = l->attach != NULL ? l->attach : "";

	memset(&rec, 0, sizeof rec);
	agent_record_read(l->id, &rec, NULL);
	/* A dialog that came after the composer and ate the prompt. */
	if (d != NULL && d->status != 0 && d->dialog.reason != NULL) {
		l->start.state = STARTUP_NEEDS_USER;
		l->start.verdict = d->dialog;
	}
	buf_printf(&t, "launched %s %s in %s (launch %s)\n", l->h.id,
	    l->probe.version, l->id, rec.launch_id);
	buf_printf(&t, "startup: %s", startup_state_name(l->start.state));
	if (l->start.advanced[0] != '\0')
		buf_printf(&t, " (advanced: %s)", l->start.advanced);
	if (l->start.state == STARTUP_EXITED &&
	    l->start.exit_status >= 0)
		buf_printf(&t, ", status %d", l->start.exit_status);
	else if (l->start.state == STARTUP_EXITED)
		buf_adds(&t, ", status unknown");	/* tmux lost it */
	if (l->start.state != STARTUP_READY &&
	    l->start.state != STARTUP_NOT_CHECKED)
		buf_printf(&t, "; screen %s/%s",
		    agent_state_name(l->start.verdict.state),
		    l->start.verdict.reason);
	buf_addc(&t, '\n');
	/*
	 * An end the harness named on its screen (Grok's
	 * sandbox_startup_failed, Codex's config_error), not the core's
	 * pane_exited or session_lost: its code, GROK_SANDBOX_STARTUP_FAILED.
	 */
	if (l->start.state == STARTUP_EXITED)
		harness_end_code(&l->h, l->start.verdict.reason, code,
		    sizeof code);
	if (code[0] != '\0')
		buf_printf(&t, "code: %s\n", code);
	if (l->start.screen_tail[0] != '\0')
		buf_printf(&t, "%s\n", l->start.screen_tail);
	sc = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}", "session_id",
	    l->id, "launch_id", rec.launch_id, "harness", l->h.id, "version",
	    l->probe.version, "startup", startup_state_name(l->start.state),
	    "screen", agent_state_name(l->start.verdict.state), "attach",
	    attach);
	if (l->start.state == STARTUP_EXITED)
		json_object_set_new(sc, "exit_status",
		    json_integer(l->start.exit_status));
	if (code[0] != '\0')
		json_object_set_new(sc, "code", json_string(code));
	if (d != NULL && d->status == 0) {
		agent_event_cursor(d->turn, d->index, cursor, sizeof cursor);
		buf_printf(&t, "prompt: %s%s%s%s, turn %u, event_cursor %s\n",
		    agent_dispatch_name(d->dispatch),
		    d->confirmed_by[0] != '\0' ? " (" : "", d->confirmed_by,
		    d->confirmed_by[0] != '\0' ? ")" : "", d->turn, cursor);
		buf_printf(&t, "answer: pty_read session_id=%s "
		    "agent_transcript=true wait=true\n", l->id);
		parent_delivery_sent(&l->pd, d, &t, sc);
		json_object_set_new(sc, "dispatch",
		    json_string(agent_dispatch_name(d->dispatch)));
		json_object_set_new(sc, "turn", json_integer(d->turn));
		json_object_set_new(sc, "event_cursor", json_string(cursor));
		if (d->images > 0) {
			buf_printf(&t, "images: %u attached to the prompt\n",
			    d->images);
			json_object_set_new(sc, "images",
			    json_integer(d->images));
		}
		if (d->confirmed_by[0] != '\0')
			json_object_set_new(sc, "confirmed_by",
			    json_string(d->confirmed_by));
	} else if (d != NULL && d->code != NULL) {
		/* Typed, and refused after it (the user's hook; ADR 0017). */
		parent_delivery_sent(&l->pd, d, &t, sc);
		buf_printf(&t, "initial_prompt: failed\nprompt: %s\n",
		    error_msg(&d->err));
		json_object_set_new(sc, "dispatch", json_string("failed"));
		json_object_set_new(sc, "initial_prompt", json_string("failed"));
		json_object_set_new(sc, "code", json_string(d->code));
	} else if (d != NULL) {
		parent_delivery_sent(&l->pd, d, &t, sc);
		buf_printf(&t, "prompt: not_sent (%s)\n", error_msg(&d->err));
		json_object_set_new(sc, "dispatch", json_string("not_sent"));
	} else {
		const char *what = l->prompt != NULL ? "not_sent" :
		    "not_requested";

		buf_printf(&t, "prompt: %s\n", what);
		json_object_set_new(sc, "dispatch", json_string(what));
		if (l->start.state == STARTUP_READY)
			buf_printf(&t, "send: pty_send session_id=%s text=...\n",
			    l->id);
		else if (l->start.state == STARTUP_NOT_CHECKED)
			buf_printf(&t, "send: pty_send session_id=%s text=... "
			    "(it waits for the composer first)\n", l->id);
	}
	buf_printf(&t, "watch: %s", attach);
	tool_call_reply(l->call, buf_steal(&t, NULL), sc);
	agent_record_free(&rec);
	launch_free(l);
}

/* d is the dispatch's and is not kept. */
static void
dispatched(void *arg, const struct dispatch_result *d)
{
	struct launch *l = arg;

	if (l->cancelled) {
		struct aiterm_buf t = BUF_INIT;
		json_t *sc = json_object();

		/* The prompt may be out: its answer is still owed. */
		parent_delivery_sent(&l->pd, d, &t, sc);
		buf_free(&t);
		json_decref(sc);
		launch_free(l);
		return;
	}
	reply(l, d);
}

static void
started(void *arg, const struct startup_result *r)
{
	struct launch *l = arg;
	struct aiterm_error err = ERROR_INIT;
	struct call_origin origin;
	struct agent_record rec;

	l->startup = NULL;
	l->start = *r;
	if (r->state != STARTUP_READY || l->prompt == NULL) {
		if (l->prompt != NULL && agent_record_read(l->id, &rec,
		    &err) == 0) {
			rec.dispatch = DISPATCH_NOT_SENT;
			agent_record_write(l->id, &rec, &err);
			agent_record_free(&rec);
		}
		error_clear(&err);
		reply(l, NULL);
		return;
	}
	origin = tool_call_origin(l->call);
	if (parent_delivery_begin(&l->pd, &origin, l->id) != 0) {
		reply(l, NULL);		/* checked at the call's start: rare */
		return;
	}
	agent_dispatch_images(&l->h, l->id, l->prompt, l->prompt_len,
	    &l->images, dispatched, l);
}

static void
on_cancel(struct tool_call *call)
{
	struct launch *l = tool_call_data(call);

	tool_call_fail(call, "agent_launch: cancelled; the session %s exists "
	    "(pty_close it or use it)", l->id);
	if (l->startup != NULL) {
		agent_startup_cancel(l->startup);
		launch_free(l);
		return;
	}
	/* A dispatch under way frees it when it ends. */
	l->cancelled = true;
}

/*
 * AGT-START: a launch without a prompt and without trust_project is only
 * requested: it answers at once, and the first send brings the agent to
 * its composer before it types (agent/dispatch.c).
 */
static bool
not_checked(const struct launch *l)
{
	return l->prompt == NULL && !l->trust;
}

/* The session's files and terminal, on the multiplexer's thread. */
static void
spawn_work(void *arg)
{
	struct launch *l = arg;
	struct agent_spawn sp;

	memset(&sp, 0, sizeof sp);
	sp.id = l->id;
	sp.h = &l->h;
	sp.binary = l->probe.binary;
	sp.version = l->probe.version;
	sp.model = l->model;
	sp.cwd = l->cwd;
	sp.trust = l->trust;
	sp.supplement = l->supplement;
	if (not_checked(l))
		sp.startup_check_ms = l->timeout_ms;
	l->rc = agent_session_spawn(&sp, &l->err);
	l->created = l->rc == 0 || sp.created;
	if (l->rc == 0)
		l->attach = agent_attach_command(l->id);
}

static void
spawn_done(void *arg)
{
	struct launch *l = arg;

	if (l->rc != 0) {
		fail(l, error_msg(&l->err));
		return;
	}
	if (not_checked(l)) {
		l->start.state = STARTUP_NOT_CHECKED;
		reply(l, NULL);
		return;
	}
	tool_call_set_data(l->call, l, on_cancel);
	l->startup = agent_startup_begin(&l->h, l->id, l->trust,
	    l->timeout_ms, started, l);
}

/* The model is in the harness's catalog, or it cannot list one. */
static void
model_checked(void *arg, int status, const struct aiterm_error *err)
{
	struct launch *l = arg;

	if (status != 0) {
		fail(l, error_msg(err));
		return;
	}
	muxjob_run(spawn_work, spawn_done, l);
}

static void
probed(void *arg, const struct probe_result *r)
{
	struct launch *l = arg;

	if (r->status != 0) {
		fail(l, error_msg(&r->err));
		return;
	}
	/* With status 0, r's err is unset: the copy owns nothing. */
	l->probe = *r;
	harness_model_check(&l->h, l->probe.binary, l->cwd, l->model,
	    model_checked, l);
}

/* The session's name, free in the multiplexer (its thread). */
static void
name_work(void *arg)
{
	struct launch *l = arg;

	l->rc = agent_session_name(l->name, l->id, &l->err);
}

static void
name_done(void *arg)
{
	struct launch *l = arg;

	if (l->rc != 0) {
		fail(l, error_msg(&l->err));
		return;
	}
	harness_probe(&l->h, probed, l);
}

/*
 * AGT-LAUNCH: Throughline's supplement file is carried, not read: its
 * path, as given, absolute and naming a readable file, or an error before
 * anything is launched.
 */
static int
supplement_check(const char *path, struct aiterm_error *err)
{
	struct stat st;

	if (path[0] != '/')
		return error_set(err, "throughline_supplement '%.200s' is not "
		    "an absolute path: give the file's absolute path (it is "
		    "passed to the agent unchanged); nothing was launched",
		    path);
	if (stat(path, &st) != 0 || access(path, R_OK) != 0)
		return error_set(err, "throughline_supplement '%.200s': %s; "
		    "nothing was launched", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return error_set(err, "throughline_supplement '%.200s' is not "
		    "a regular file; nothing was launched", path);
	return 0;
}

static void
agent_launch_call(struct tool_call *call)
{
	json_t *args = tool_call_args(call), *v;
	struct aiterm_error err = ERROR_INIT;
	struct launch *l = xcalloc(1, sizeof *l);
	struct call_origin origin;
	const char *cwd;

	l->pd.lock_fd = -1;
	l->call = call;
	if (harness_find(json_string_value(json_object_get(args, "harness")),
	    &l->h, &err) != 0 || state_root_require(&err) != 0 ||
	    session_mux(&err) == NULL)
		goto out_fail;
	cwd = json_string_value(json_object_get(args, "cwd"));
	if (realpath(cwd, l->cwd) == NULL) {
		error_set(&err, "cwd '%.200s': %s", cwd, strerror(errno));
		goto out_fail;
	}
	l->name = json_string_value(json_object_get(args, "name"));
	if ((v = json_object_get(args, "model")) != NULL)
		l->model = xstrdup(json_string_value(v));
	if ((v = json_object_get(args, "throughline_supplement")) != NULL) {
		if (supplement_check(json_string_value(v), &err) != 0)
			goto out_fail;
		l->supplement = xstrdup(json_string_value(v));
	}
	if ((v = json_object_get(args, "prompt")) != NULL) {
		l->prompt_len = json_string_length(v);
		l->prompt = xmalloc(l->prompt_len + 1);
		memcpy(l->prompt, json_string_value(v), l->prompt_len + 1);
		/* A parent whose receiver cannot take the answer: nothing starts. */
		origin = tool_call_origin(call);
		if (parent_delivery_check(&origin, &err) != 0)
			goto out_fail;
	}
	/* AGT-IMAGE: each file checked before anything is launched. */
	if (tool_images(args, &l->h, "nothing was launched", &l->images,
	    &err) != 0)
		goto out_fail;
	if (l->images.n > 0 && l->prompt == NULL) {
		error_set(&err, "image goes with a prompt: give prompt too, or "
		    "send the images later with pty_send text=... image=[...]; "
		    "nothing was launched");
		goto out_fail;
	}
	l->trust = json_is_true(json_object_get(args, "trust_project"));
	v = json_object_get(args, "timeout");
	l->timeout_ms = v != NULL ? (unsigned)(json_number_value(v) * 1000) :
	    STARTUP_DEFAULT_MS;
	muxjob_run(name_work, name_done, l);
	return;
out_fail:
	tool_call_fail(call, "agent_launch: %s", error_msg(&err));
	error_clear(&err);
	launch_free(l);
}

const struct tool_entry tool_agent_launch = {
	.name = "agent_launch",
	.title = "Launch an agent CLI",
	.description = "Start an agent CLI (harness: claude-code, codex-cli, "
	    "grok-cli, cursor-cli) "
	    "in a terminal of its own, in cwd, with its own login, config and "
	    "model catalog (a model it does not list is refused). With a "
	    "prompt or trust_project it returns once it is ready (or why not), "
	    "after sending prompt if given; without either it returns at once "
	    "(startup not_checked) and the first pty_send waits for it. Never "
	    "waits for the turn. Read the "
	    "answer with pty_read agent_transcript=true wait=true, or run "
	    "the receipt's wait_command, which prints it; send more "
	    "with pty_send. trust_project: accept its workspace-trust "
	    "screen. timeout: start-up seconds, default 30, max 300. "
	    "throughline_supplement: an absolute file path handed to the "
	    "agent unchanged (THROUGHLINE_SUPPLEMENT in its environment).",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"harness\":{\"type\":\"string\",\"minLength\":1,"
	    "\"maxLength\":64},"
	    "\"cwd\":{\"type\":\"string\",\"minLength\":1},"
	    "\"model\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":128,"
	    "\"description\":\"Default: the harness's own.\"},"
	    "\"prompt\":{\"type\":\"string\",\"minLength\":1,"
	    "\"maxLength\":65536},"
	    AGENT_IMAGE_PROP ","
	    "\"trust_project\":{\"type\":\"boolean\",\"default\":false},"
	    "\"throughline_supplement\":{\"type\":\"string\",\"minLength\":1,"
	    "\"maxLength\":4096,\"description\":\"Absolute path of "
	    "Throughline's supplement file.\"},"
	    "\"name\":{\"type\":\"string\",\"description\":\"Session id "
	    "(A-Z a-z 0-9 _ -).\"},"
	    "\"timeout\":{\"type\":\"number\",\"minimum\":1,\"maximum\":300}},"
	    "\"required\":[\"harness\",\"cwd\"],"
	    "\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},"
	    "\"launch_id\":{\"type\":\"string\"},"
	    "\"harness\":{\"type\":\"string\"},"
	    "\"version\":{\"type\":\"string\"},"
	    "\"startup\":{\"type\":\"string\"},"
	    "\"screen\":{\"type\":\"string\"},"
	    "\"exit_status\":{\"type\":\"integer\"},"
	    "\"code\":{\"type\":\"string\"},"
	    AGENT_DISPATCH_PROP ","
	    "\"initial_prompt\":{\"type\":\"string\",\"enum\":[\"failed\"]},"
	    "\"confirmed_by\":{\"type\":\"string\"},"
	    "\"turn\":{\"type\":\"integer\"},"
	    "\"event_cursor\":{\"type\":\"string\"},"
	    "\"images\":{\"type\":\"integer\",\"minimum\":1},"
	    AGENT_DELIVERY_PROPS ","
	    "\"attach\":{\"type\":\"string\"}},"
	    "\"required\":[\"session_id\",\"launch_id\",\"harness\","
	    "\"version\",\"startup\",\"screen\",\"dispatch\",\"attach\"]}",
	.hints = TOOL_OPEN_WORLD,
	.call = agent_launch_call,
	.relayable = true,
};
