/*
 * harness-grok: the Grok Build CLI (@xai-official/grok 1.0.41, recorded in
 * tests/harness/fixtures/grok-1.0.41), AGT-GROK.  The descriptor, the
 * probe, the launch, the screens and the session files.
 *
 * Launch: `grok --trust -s <uuid> [-m MODEL]` in the real cwd, with
 * GROK_TELEMETRY_ENABLED=0 and GROK_DISABLE_AUTOUPDATER=1.  The session
 * id is made of the launch id (as harness-claude's --session-id), so the
 * launch's session folder is known before it exists (AGT-JOB).  --trust
 * (hidden) leaves the trust of the cwd to Grok without a dialog.  The
 * user's HOME and ~/.grok are left as they are.
 *
 * Screens: screen.c.  A sandbox it cannot set up makes it print "…
 * sandbox … Refusing to start …" and exit 1 (sandbox_startup_failed).
 *
 * Session: ~/.grok/sessions/<cwd>/<session id>/, <cwd> the real cwd
 * URL-encoded (every byte but A-Z a-z 0-9 - _ . ~ as %XX); when that is
 * over 255 bytes Grok uses "<last part>-<16 hex digits>" with a .cwd file
 * instead (the hash is not documented), so then the session is found by
 * its id under sessions/.  Of its files (events.jsonl, chat_history.jsonl,
 * updates.jsonl) the core reads one, updates.jsonl: its prompts carry
 * promptIndex (events' turn_number, chat_history's prompt_index), its
 * turn_completed is events' turn_ended (stop_reason end_turn / error /
 * cancelled, with _meta.cancelTrigger "send_now" where events has
 * cancellation_context.trigger; stop_reason rate_limit when its retries
 * of 429s ran out, with the reason in the retry_state before it), and it
 * has the agent's text (agent_message_chunk, chat_history's assistant
 * content) and the error (agent_result), which events and chat_history
 * lack.  A turn that
 * closes cancelled by "send now" is no completion: the prompt after it
 * (the queued text) continues the same turn.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grok.h"
#include "hlib.h"

/* Grok's limit for a session folder name; longer gets slug + hash. */
#define GROK_DIR_NAME_MAX	255

static const char *const binaries[] = { "grok", NULL };
static const char *const version_args[] = { "--version", NULL };
static const char *const body_names[] = { "grok", NULL };

static int
grok_parse_version(const char *out, size_t len, char *buf, size_t size)
{
	return hl_version(out, len, buf, size);
}

static int
grok_launch(const struct aiterm_host *host,
    const struct aiterm_launch_request *req, struct aiterm_launch_plan *plan,
    struct aiterm_error *err)
{
	char uuid[37];

	if (hl_check_model(host, req->model, "Grok", "grok-code-fast-1",
	    err) != 0)
		return -1;
	hl_session_uuid(req->launch_id, uuid);
	hl_arg(host, plan->argv, req->binary);
	hl_arg(host, plan->argv, "--trust");
	hl_arg(host, plan->argv, "-s");
	hl_arg(host, plan->argv, uuid);
	if (req->model != NULL) {
		hl_arg(host, plan->argv, "-m");
		hl_arg(host, plan->argv, req->model);
	}
	hl_arg(host, plan->env, "GROK_TELEMETRY_ENABLED=0");
	hl_arg(host, plan->env, "GROK_DISABLE_AUTOUPDATER=1");
	return 0;
}

/*
 * `grok models` (1.0.41): "Default model: <name>", then "Available
 * models:" with "  - <id>" and "  * <id> (default)" lines: the ids the
 * models endpoint gives and the names config.toml defines, both taken by
 * -m.  Signed out it still prints a built-in list the account may not
 * have, under "You are not authenticated": no catalog then.
 */
static const char *const catalog_args[] = { "models", NULL };

static size_t
grok_catalog_id(const char *line, size_t n, const char **id)
{
	size_t i = 0, k;

	while (i < n && line[i] == ' ')
		i++;
	if (n - i < 3 || (line[i] != '-' && line[i] != '*') ||
	    line[i + 1] != ' ')
		return 0;
	*id = line + i + 2;
	for (k = 0; i + 2 + k < n && strchr(" \t\r", (*id)[k]) == NULL; k++)
		;
	return k;
}

static int
grok_model_check(const struct aiterm_host *host, const char *out,
    size_t len, const char *model, struct aiterm_error *err)
{
	if (strstr(out, "not authenticated") != NULL)
		return host->error(err, "grok models says it is not signed in "
		    "(its list is then not the account's)");
	return hl_catalog(host, out, len, model, "Grok", grok_catalog_id,
	    err);
}

/*
 * The text pasted, a pause (so Enter is not part of the paste), Enter.
 * While a turn runs that Enter queues the text ("Queued · Enter to send
 * now"); the steer then presses Enter on the empty composer, "send now":
 * Grok closes the running turn (cancelled, trigger send_now) and runs
 * the text at once as the same piece of work.
 */
static const struct aiterm_input_step submit[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};

/*
 * AGT-IMAGE (seen on 1.0.41): the image's path pasted on its own is
 * attached ("[Image #N]", with a card naming its type and size) and sent
 * as an image_url part of the next request.  Grok itself drops an image
 * smaller than 8x8 or than 512 pixels in all, and says so on its screen.
 */
static const struct aiterm_input_step attach_image[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_END, NULL },
};

static const struct aiterm_input_step steer[] = {
	{ AITERM_INPUT_PASTE, NULL },
	{ AITERM_INPUT_PAUSE, "300" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_PAUSE, "500" },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};

/* Grok's home: $GROK_HOME, else ~/.grok. */
static int
grok_home(const struct aiterm_host *host,
    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
    struct aiterm_error *err)
{
	const char *gh = hl_env(q->env, "GROK_HOME");

	if (gh != NULL && *gh != '\0')
		host->buf_printf(dir, "%s", gh);
	else if (q->home != NULL && *q->home != '\0')
		host->buf_printf(dir, "%s/.grok", q->home);
	else
		return host->error(err, "neither GROK_HOME nor HOME is set: "
		    "Grok's sessions cannot be found");
	return 0;
}

/* The cwd as Grok names its session folder: URL-encoded; its length. */
static size_t
encode_cwd(const struct aiterm_host *host, const char *cwd,
    struct aiterm_buf *out)
{
	const unsigned char *p;
	size_t n = 0;
	char esc[4];

	for (p = (const unsigned char *)cwd; *p != '\0'; p++) {
		if (isalnum(*p) || strchr("-_.~", *p) != NULL) {
			if (out != NULL)
				host->buf_add(out, p, 1);
			n++;
		} else {
			snprintf(esc, sizeof esc, "%%%02X", *p);
			if (out != NULL)
				host->buf_add(out, esc, 3);
			n += 3;
		}
	}
	return n;
}

/*
 * The session folder itself (depth 0); for a cwd whose encoding is too
 * long, sessions/ (depth 2: <slug-hash>/<session id>/), the file then
 * claimed by the session id in its records.
 */
static int
grok_transcript_dir(const struct aiterm_host *host,
    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
    int *depth, struct aiterm_error *err)
{
	char uuid[37];

	if (grok_home(host, q, dir, err) != 0)
		return -1;
	host->buf_add(dir, "/sessions", 9);
	if (encode_cwd(host, q->cwd, NULL) > GROK_DIR_NAME_MAX) {
		*depth = 2;
		return 0;
	}
	host->buf_add(dir, "/", 1);
	encode_cwd(host, q->cwd, dir);
	hl_session_uuid(q->launch_id, uuid);
	host->buf_printf(dir, "/%s", uuid);
	*depth = 0;
	return 0;
}

/* updates.jsonl whose records name this launch's session id. */
static int
grok_transcript_claim(const struct aiterm_transcript_query *q,
    const char *name, const char *head, size_t len, int64_t modified_ms)
{
	char uuid[37], want[64];

	(void)modified_ms;
	if (strcmp(name, "updates.jsonl") != 0)
		return 0;
	if (memchr(head, '\n', len) == NULL)
		return -1;
	hl_session_uuid(q->launch_id, uuid);
	snprintf(want, sizeof want, "\"sessionId\":\"%s\"", uuid);
	return memmem(head, len, want, strlen(want)) != NULL;
}

/*
 * Walking updates.jsonl.  A prompt is a user_message_chunk with a new
 * promptIndex; it opens a turn unless the turn before closed cancelled by
 * "send now", when it continues that one.  A turn ends at the
 * turn_completed after its (last) prompt.
 */
struct walk {
	const struct aiterm_host *host;
	unsigned	 want, n;	/* turn asked for; turns seen */
	long long	 prompt;	/* the current promptIndex, -1 none */
	bool		 sendnow;	/* the last turn closed by send now */
	bool		 in;		/* inside the turn asked for */
	char		*cur, *last;	/* agent text: this message, last one */
	char		*retry;		/* the last retry_state's reason */
	size_t		 curlen, lastlen;
	struct aiterm_turn *turn;
};

static void
text_add(char **s, size_t *len, const char *t)
{
	size_t n = strlen(t);
	char *p = realloc(*s, *len + n + 1);

	if (p == NULL)
		return;
	memcpy(p + *len, t, n + 1);
	*s = p;
	*len += n;
}

/* A message boundary: the text so far is the last message when any. */
static void
message_end(struct walk *w)
{
	if (w->curlen == 0)
		return;
	free(w->last);
	w->last = w->cur;
	w->lastlen = w->curlen;
	w->cur = NULL;
	w->curlen = 0;
}

static void
finish(struct walk *w, enum aiterm_turn_state st, const char *reason,
    const char *text)
{
	w->in = false;
	w->turn->state = st;
	w->turn->reason = reason;
	if (text != NULL && *text != '\0')
		w->host->buf_add(w->turn->answer, text, strlen(text));
}

static int
each_update(json_t *o, size_t index, void *arg)
{
	struct walk *w = arg;
	json_t *u = json_object_get(json_object_get(o, "params"), "update");
	const char *kind = hl_str(u, "sessionUpdate"), *stop, *trig, *t;
	json_t *pi;

	(void)index;
	if (kind == NULL)
		return 0;
	if (strcmp(kind, "user_message_chunk") == 0) {
		pi = json_object_get(json_object_get(u, "_meta"),
		    "promptIndex");
		if (!json_is_integer(pi) || json_integer_value(pi) ==
		    w->prompt)
			return 0;
		w->prompt = json_integer_value(pi);
		if (w->sendnow) {
			w->sendnow = false;
			return 0;	/* the same turn goes on */
		}
		if (w->turn != NULL && w->n == w->want) {
			w->in = true;
			w->turn->state = AITERM_TURN_STARTED;
			w->turn->reason = "in_progress";
		}
		w->n++;
		return 0;
	}
	if (strcmp(kind, "turn_completed") == 0) {
		stop = hl_str(u, "stop_reason");
		trig = hl_str(o, "params._meta.cancelTrigger");
		w->sendnow = stop != NULL && strcmp(stop, "cancelled") == 0 &&
		    trig != NULL && strcmp(trig, "send_now") == 0;
		if (!w->in)
			return 0;
		if (w->sendnow) {
			/* Not a completion: the queued text takes over. */
			w->turn->reason = "send_now";
			free(w->cur);
			free(w->last);
			w->cur = w->last = NULL;
			w->curlen = w->lastlen = 0;
			return 0;
		}
		message_end(w);
		if (stop != NULL && strcmp(stop, "error") == 0) {
			t = hl_str(u, "agent_result");
			finish(w, AITERM_TURN_ERROR, "api_error", t != NULL ?
			    t : "The turn ended with an error.");
		} else if (stop != NULL && strcmp(stop, "rate_limit") == 0) {
			/* Retries ran out on 429s: the last retry's reason. */
			finish(w, AITERM_TURN_ERROR, "rate_limited",
			    w->retry != NULL ? w->retry : "The model's rate "
			    "limit was hit and Grok's retries ran out.");
		} else if (stop != NULL && strcmp(stop, "cancelled") == 0) {
			finish(w, AITERM_TURN_ERROR, "cancelled", NULL);
			w->host->buf_printf(w->turn->answer, "The turn was "
			    "cancelled (%s).", trig != NULL ? trig :
			    "no trigger given");
		} else {
			finish(w, AITERM_TURN_DONE, "turn_completed",
			    w->last != NULL ? w->last : "");
		}
		return 1;
	}
	if (!w->in)
		return 0;
	if (strcmp(kind, "retry_state") == 0 &&
	    (t = hl_str(u, "reason")) != NULL) {
		free(w->retry);
		w->retry = strdup(t);
	} else if (strcmp(kind, "agent_message_chunk") == 0 &&
	    (t = hl_str(u, "content.text")) != NULL)
		text_add(&w->cur, &w->curlen, t);
	else if (strcmp(kind, "tool_call") == 0)
		message_end(w);
	return 0;
}

static unsigned
grok_count_turns(const char *bytes, size_t len)
{
	struct walk w;

	memset(&w, 0, sizeof w);
	w.want = (unsigned)-1;
	w.prompt = -1;
	hl_jsonl_each(bytes, len, each_update, &w);
	free(w.retry);
	return w.n;
}

static int
grok_read_turn(const struct aiterm_host *host, const char *bytes, size_t len,
    unsigned index, struct aiterm_turn *turn, struct aiterm_error *err)
{
	struct walk w;

	(void)err;
	memset(&w, 0, sizeof w);
	w.host = host;
	w.want = index;
	w.prompt = -1;
	w.turn = turn;
	turn->state = AITERM_TURN_NONE;
	turn->reason = "prompt_not_recorded";
	hl_jsonl_each(bytes, len, each_update, &w);
	free(w.cur);
	free(w.last);
	free(w.retry);
	return 0;
}

static const struct aiterm_harness_ops ops = {
	.binaries = binaries,
	.version_args = version_args,
	.min_version = "1.0.41",
	.body_names = body_names,
	.parse_version = grok_parse_version,
	.launch = grok_launch,
	.classify = grok_classify,
	.startup_keys = grok_startup_keys,
	.submit = submit,
	.steer = steer,
	.transcript_dir = grok_transcript_dir,
	.transcript_claim = grok_transcript_claim,
	.count_turns = grok_count_turns,
	.read_turn = grok_read_turn,
	.approval = grok_approval,
	.approval_keys = grok_approval_keys,
	.catalog_args = catalog_args,
	.model_check = grok_model_check,
	.model_open = grok_model_open,
	.model_step = grok_model_step,
	.attach_image = attach_image,
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.kind = AITERM_KIND_HARNESS,
	.name = "harness-grok",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
