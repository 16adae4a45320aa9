/*
 * Claude Code's transcript (2.1.197, 2.1.332): <config>/projects/<slug
 * of the real cwd>/<session id>.jsonl, config being $CLAUDE_CONFIG_DIR or
 * ~/.claude and the slug the path with every character that is not a
 * letter or a digit made '-'.  The file appears at the first prompt.
 *
 * Records are not always in time order in the file (after an API error
 * Claude rewrites it), so they are taken by their timestamps.  A turn
 * starts at a prompt (a user record whose content is a string, or, with a
 * pasted image, text and image blocks and no tool result; 2.1.332 writes
 * the image's source as a separate isMeta record) and ends
 * at a "system"/"turn_duration" record once every message queued during
 * it (queue-operation enqueue) has reached the conversation: a queued
 * message either joins the turn at a tool boundary or runs right after
 * it as a prompt of its own, and both belong to this turn.  The answer is
 * the text of the last end_turn assistant message of each part.  An
 * assistant record with isApiErrorMessage ends the turn with an error
 * (2.1.197 writes turn_duration after it, 2.1.332 nothing: the error is
 * then the turn's last record; retries write nothing until the last one
 * failed); "[Request interrupted by user" (a denied permission, Esc) too.
 * An error record with "error":"rate_limit" (a 429 from the model; for a
 * claude.ai login the "You've hit your ... limit" notice, for an API key
 * "API Error: Request rejected (429)") is the vendor's usage limit: the
 * turn ends rate_limited with that text (AGT-LIMIT; ADR 0011).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claude.h"
#include "hlib.h"

static void
slug(const char *cwd, struct aiterm_buf *out, const struct aiterm_host *host)
{
	const char *p;
	char c;

	for (p = cwd; *p != '\0'; p++) {
		c = isalnum((unsigned char)*p) ? *p : '-';
		host->buf_add(out, &c, 1);
	}
}

int
claude_transcript_dir(const struct aiterm_host *host,
    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
    int *depth, struct aiterm_error *err)
{
	const char *conf = hl_env(q->env, "CLAUDE_CONFIG_DIR");

	if ((conf == NULL || *conf == '\0') && (q->home == NULL ||
	    *q->home == '\0'))
		return host->error(err, "neither CLAUDE_CONFIG_DIR nor HOME "
		    "is set: Claude Code's transcripts cannot be found");
	if (conf != NULL && *conf != '\0')
		host->buf_printf(dir, "%s/projects/", conf);
	else
		host->buf_printf(dir, "%s/.claude/projects/", q->home);
	slug(q->cwd, dir, host);
	*depth = 0;
	return 0;
}

int
claude_transcript_claim(const struct aiterm_transcript_query *q,
    const char *name, const char *head, size_t len, int64_t modified_ms)
{
	char uuid[37], want[48];

	(void)head;
	(void)len;
	(void)modified_ms;
	claude_session_uuid(q->launch_id, uuid);
	snprintf(want, sizeof want, "%s.jsonl", uuid);
	return strcmp(name, want) == 0;
}

enum rec_kind {
	R_OTHER = 0,
	R_PROMPT,	/* a user record with string content */
	R_USER,		/* another user record (tool results, interrupts) */
	R_ANSWER,	/* an assistant end_turn with text */
	R_API_ERROR,
	R_LIMIT,	/* an API error of the usage limit */
	R_END,		/* system turn_duration */
	R_ENQUEUE,
};

struct rec {
	char		 ts[40];
	size_t		 order;
	enum rec_kind	 kind;
	char		*text;	/* prompt, answer, error, user text, queued */
};

struct recs {
	const struct aiterm_host *host;	/* NULL: counting only */
	struct rec	*v;
	size_t		 n, cap;
};

static char *
text_of(json_t *content)
{
	const char *t;
	size_t i, len = 0;
	json_t *b;
	char *out = NULL;

	if (json_is_string(content))
		return strdup(json_string_value(content));
	json_array_foreach(content, i, b) {
		const char *type = json_string_value(json_object_get(b,
		    "type"));

		if (type == NULL || strcmp(type, "text") != 0 ||
		    (t = json_string_value(json_object_get(b, "text"))) ==
		    NULL)
			continue;
		out = realloc(out, len + strlen(t) + 2);
		if (out == NULL)
			return NULL;
		if (len > 0)
			out[len++] = '\n';
		memcpy(out + len, t, strlen(t) + 1);
		len += strlen(t);
	}
	return out;
}

/* The records of a slash command Claude Code ran itself (2.1.332). */
static bool
local_command(json_t *o, json_t *content)
{
	static const char *const marks[] = { "<local-command-caveat>",
	    "<command-name>", "<local-command-stdout>",
	    "<local-command-stderr>" };
	const char *row = hl_str(o, "rowSource"), *t;
	size_t i;

	if (row != NULL && strcmp(row, "local") == 0)
		return true;
	if ((t = json_string_value(content)) == NULL)
		return false;
	for (i = 0; i < sizeof marks / sizeof marks[0]; i++) {
		if (strncmp(t, marks[i], strlen(marks[i])) == 0)
			return true;
	}
	return false;
}

/* A prompt with pasted images (AGT-IMAGE): blocks, an image among them. */
static int
image_prompt(json_t *o, json_t *content)
{
	const char *type;
	size_t i;
	json_t *b;
	int image = 0;

	if (!json_is_array(content) || json_is_true(json_object_get(o,
	    "isMeta")))
		return 0;
	json_array_foreach(content, i, b) {
		type = json_string_value(json_object_get(b, "type"));
		if (type != NULL && strcmp(type, "tool_result") == 0)
			return 0;
		if (type != NULL && strcmp(type, "image") == 0)
			image = 1;
	}
	return image;
}

static int
collect(json_t *o, size_t index, void *arg)
{
	struct recs *rs = arg;
	const char *type = hl_str(o, "type"), *ts = hl_str(o, "timestamp");
	json_t *msg = json_object_get(o, "message");
	struct rec r;

	memset(&r, 0, sizeof r);
	r.order = index;
	if (type == NULL || ts == NULL)
		return 0;
	snprintf(r.ts, sizeof r.ts, "%s", ts);
	if (strcmp(type, "user") == 0) {
		json_t *c = json_object_get(msg, "content");

		/*
		 * A slash command run in the CLI (agent_configure's /model),
		 * recorded when the next prompt goes: no prompt of a turn.
		 */
		if (local_command(o, c))
			return 0;
		r.kind = json_is_string(c) || image_prompt(o, c) ? R_PROMPT :
		    R_USER;
		r.text = text_of(c);
		/* A tool result's own text counts for a queued message too. */
		if (r.kind == R_USER && r.text == NULL) {
			char *dump = json_dumps(c, JSON_COMPACT);

			r.text = dump;
		}
	} else if (strcmp(type, "assistant") == 0) {
		const char *stop = hl_str(o, "message.stop_reason");
		const char *why = hl_str(o, "error");

		if (json_is_true(json_object_get(o, "isApiErrorMessage")))
			r.kind = why != NULL && strcmp(why, "rate_limit") == 0 ?
			    R_LIMIT : R_API_ERROR;
		else if (stop != NULL && strcmp(stop, "end_turn") == 0)
			r.kind = R_ANSWER;
		else
			return 0;
		r.text = text_of(json_object_get(msg, "content"));
	} else if (strcmp(type, "system") == 0) {
		const char *sub = hl_str(o, "subtype");

		if (sub == NULL || strcmp(sub, "turn_duration") != 0)
			return 0;
		r.kind = R_END;
	} else if (strcmp(type, "queue-operation") == 0) {
		const char *op = hl_str(o, "operation");

		if (op == NULL || strcmp(op, "enqueue") != 0)
			return 0;
		r.kind = R_ENQUEUE;
		r.text = strdup(hl_str(o, "content") ? hl_str(o, "content") :
		    "");
	} else {
		return 0;
	}
	if (rs->n == rs->cap) {
		rs->cap = rs->cap == 0 ? 64 : rs->cap * 2;
		rs->v = realloc(rs->v, rs->cap * sizeof *rs->v);
		if (rs->v == NULL)
			abort();
	}
	rs->v[rs->n++] = r;
	return 0;
}

static int
by_time(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;
	int c = strcmp(x->ts, y->ts);

	return c != 0 ? c : x->order < y->order ? -1 : x->order > y->order;
}

static void
recs_load(struct recs *rs, const char *bytes, size_t len)
{
	memset(rs, 0, sizeof *rs);
	hl_jsonl_each(bytes, len, collect, rs);
	if (rs->n > 1)
		qsort(rs->v, rs->n, sizeof *rs->v, by_time);
}

static void
recs_free(struct recs *rs)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		free(rs->v[i].text);
	free(rs->v);
}

/* A queued message reached the conversation: a later user record holds it. */
static bool
reached(const struct recs *rs, size_t from, const char *queued)
{
	size_t i;

	for (i = from; i < rs->n; i++) {
		if ((rs->v[i].kind == R_PROMPT || rs->v[i].kind == R_USER) &&
		    rs->v[i].text != NULL && *queued != '\0' &&
		    strstr(rs->v[i].text, queued) != NULL)
			return true;
	}
	return false;
}

/*
 * Where each turn starts: a prompt that is not a queued message of the
 * turn before it.  Returns how many; starts[] gets their record indexes.
 */
static size_t
turn_starts(const struct recs *rs, size_t *starts, size_t max)
{
	size_t i, k, n = 0;
	bool queued;

	for (i = 0; i < rs->n; i++) {
		if (rs->v[i].kind != R_PROMPT)
			continue;
		queued = false;
		/* Enqueued after the current turn began, with this text. */
		for (k = n > 0 ? starts[n - 1] : 0; n > 0 && k < i && !queued;
		    k++)
			queued = rs->v[k].kind == R_ENQUEUE &&
			    rs->v[k].text != NULL && rs->v[i].text != NULL &&
			    strcmp(rs->v[k].text, rs->v[i].text) == 0;
		if (!queued && n < max)
			starts[n++] = i;
	}
	return n;
}

unsigned
claude_count_turns(const char *bytes, size_t len)
{
	struct recs rs;
	size_t *starts, n;

	recs_load(&rs, bytes, len);
	starts = calloc(rs.n + 1, sizeof *starts);
	n = starts == NULL ? 0 : turn_starts(&rs, starts, rs.n + 1);
	free(starts);
	recs_free(&rs);
	return (unsigned)n;
}

int
claude_read_turn(const struct aiterm_host *host, const char *bytes,
    size_t len, unsigned index, struct aiterm_turn *turn,
    struct aiterm_error *err)
{
	struct recs rs;
	size_t *starts, n, i, from, to, nanswers = 0;
	const char *error_text = NULL, *last_answer = NULL;
	const char *error_reason = "api_error";
	bool ended = false, interrupted = false, waiting = false;
	bool error_last = false;	/* nothing of the turn after the error */

	(void)err;
	recs_load(&rs, bytes, len);
	starts = calloc(rs.n + 1, sizeof *starts);
	n = starts == NULL ? 0 : turn_starts(&rs, starts, rs.n + 1);
	turn->state = AITERM_TURN_NONE;
	turn->reason = "prompt_not_recorded";
	if (index >= n)
		goto out;
	from = starts[index];
	to = index + 1 < n ? starts[index + 1] : rs.n;
	for (i = from; i < to; i++) {
		struct rec *r = &rs.v[i];

		switch (r->kind) {
		case R_PROMPT:
			ended = false;
			error_last = false;
			last_answer = NULL;
			break;
		case R_USER:
			error_last = false;
			if (r->text != NULL && strstr(r->text,
			    "[Request interrupted by user") != NULL)
				interrupted = true;
			break;
		case R_ANSWER:
			last_answer = r->text;
			ended = false;
			error_last = false;
			break;
		case R_API_ERROR:
		case R_LIMIT:
			error_text = r->text;
			error_reason = r->kind == R_LIMIT ? "rate_limited" :
			    "api_error";
			error_last = true;
			break;
		case R_END:
			ended = true;
			if (last_answer != NULL) {
				if (nanswers++ > 0)
					host->buf_add(turn->answer, "\n\n", 2);
				host->buf_add(turn->answer, last_answer,
				    strlen(last_answer));
				last_answer = NULL;
			}
			break;
		case R_ENQUEUE:
			if (!reached(&rs, i + 1, r->text))
				waiting = true;
			break;
		case R_OTHER:
			break;
		}
	}
	if (error_text != NULL && (ended || error_last)) {
		turn->state = AITERM_TURN_ERROR;
		turn->reason = error_reason;
		host->buf_add(turn->answer, error_text, strlen(error_text));
	} else if (interrupted && !ended) {
		turn->state = AITERM_TURN_ERROR;
		turn->reason = "interrupted";
		host->buf_printf(turn->answer, "The turn was interrupted (a "
		    "permission was denied or Esc was pressed).");
	} else if (ended && !waiting && nanswers > 0) {
		turn->state = AITERM_TURN_DONE;
		turn->reason = "turn_duration";
	} else {
		turn->state = AITERM_TURN_STARTED;
		turn->reason = waiting ? "queued_message_pending" :
		    "in_progress";
	}
out:
	free(starts);
	recs_free(&rs);
	return 0;
}
