/*
 * harness-gemini: turns in Gemini CLI's chat file (0.61.0, recorded in
 * tests/harness/fixtures/gemini-cli-0.61.0), AGT-GEMINI.
 *
 * ~/.gemini/tmp/<project id>/chats/session-<time>-<id8>.jsonl is a log of
 * changes to a list of messages: a header line ({sessionId, projectHash,
 * ...}); {"$set": {...}} lines (lastUpdated, or the whole "messages"
 * list); and message lines {id, timestamp, type, content}, a line whose
 * id was seen before rewriting that message.  Types: "user" (content: a
 * list of parts; a prompt has text parts, a tool's result a
 * functionResponse part), "gemini" (content: the text, or a list of
 * parts; "toolCalls" once the message's tool calls are known), "error"
 * (an API error, content its text), "info" ("Request cancelled.", ...).
 *
 * No line marks the end of a turn.  A reply's text is written ~50 ms
 * before the same message is rewritten with its tool calls, so "done"
 * here is only a candidate: the plugin sets AITERM_TURN_ENDS_IDLE and
 * the core takes it once the screen is idle (ABI 2.4, ADR 0039).
 *
 * After a cancelled turn or an API error Gemini rewrites its history: a
 * user line with the <session_context> block again, then the earlier
 * messages under new ids, then a "$set" of the whole list, without the
 * prompt that failed.  Such a replay is not new turns: the prompts in it
 * are matched to those already counted, in order.  So a turn, once
 * counted, keeps its index.
 *
 * Text sent while a turn runs is queued by Gemini ("Queued (press ↑ to
 * edit):") and submitted when the turn ends, as a prompt line of its own:
 * here it is a turn of its own (the queue-based count of ADR 0039).
 *
 * Another Gemini's start-up clean-up may delete this launch's file after
 * its prompt was written (it read the file before): the next record makes
 * the file anew, without its header or its first prompt (ADR 0039; seen
 * in the fan-out test).  A file that opens with no header, and whose first
 * message is the model's, lost the first turn's prompt: that message is
 * the first turn's, its prompt unknown.  The clean-up spares a file that
 * holds a prompt, so only the first can be lost.
 */
#include <string.h>

#include "gemini.h"
#include "json.h"

#define SESSION_CONTEXT	"<session_context>"

enum line_kind { L_OTHER, L_PROMPT, L_CONTEXT, L_REPLY, L_TOOLS, L_ERROR,
	L_CANCEL, L_LIST };

/* What one line is. */
static enum line_kind
line_kind(struct js line, struct js *content)
{
	struct js type, set, part, text;

	if (js_get(line, "$set", &set))
		return js_get(set, "messages", &part) ? L_LIST : L_OTHER;
	if (!js_get(line, "type", &type) || !js_get(line, "content", content))
		return L_OTHER;
	if (js_is(type, "user")) {
		if (!js_at(*content, 0, &part) || !js_get(part, "text", &text))
			return L_OTHER;		/* a tool's result */
		return js_starts(text, SESSION_CONTEXT) ? L_CONTEXT : L_PROMPT;
	}
	if (js_is(type, "gemini"))
		return js_get(line, "toolCalls", &part) ? L_TOOLS : L_REPLY;
	if (js_is(type, "error"))
		return L_ERROR;
	if (js_is(type, "info") && js_starts(*content, "Request cancelled"))
		return L_CANCEL;
	return L_OTHER;
}

/* The text of content: a string, or the text parts of a list. */
static void
content_text(const struct aiterm_host *host, struct js c,
    struct aiterm_buf *out)
{
	struct js part, text;
	size_t i;

	if (js_peek(c) == '"') {
		js_str(host, c, out);
		return;
	}
	for (i = 0; js_at(c, i, &part); i++)
		if (js_get(part, "text", &text))
			js_str(host, text, out);
}

struct walk {
	const struct aiterm_host *host;
	bool		 headless;	/* the file opens with a message */
	unsigned	 n;		/* prompts counted */
	bool		 replay;	/* inside a rewrite of the history */
	unsigned	 seen;		/* prompts of the replay so far */
	unsigned	 want;		/* the turn read, or -1 */
	bool		 in, over;	/* inside it; past it */
	struct aiterm_turn *turn;
	struct aiterm_buf *answer;	/* the last reply's text */
	bool		 has_answer;
};

/* A prompt (its content, or NULL when the clean-up took it) opens turn n. */
static void
start_turn(struct walk *w, const struct js *c)
{
	if (w->in)
		w->over = true;
	else if (w->n == w->want && w->turn != NULL) {
		w->in = true;
		w->turn->state = AITERM_TURN_STARTED;
		w->turn->reason = "in_progress";
		if (w->turn->prompt != NULL && c != NULL)
			content_text(w->host, *c, w->turn->prompt);
	}
	w->n++;
}

static void
each_line(struct walk *w, struct js line)
{
	struct js c;
	enum line_kind k = line_kind(line, &c);

	if (k == L_LIST) {
		w->replay = false;
		return;
	}
	if (k == L_CONTEXT) {
		/* The first is the session's start; a later one a replay. */
		w->replay = w->n > 0;
		w->seen = 0;
		return;
	}
	if (w->replay) {
		if (k == L_PROMPT && ++w->seen > w->n)
			w->replay = false;	/* more than a replay holds */
		else
			return;
	}
	/* The model speaks first in a file the clean-up cut: turn 0's. */
	if (w->headless && w->n == 0 && (k == L_REPLY || k == L_TOOLS ||
	    k == L_ERROR || k == L_CANCEL))
		start_turn(w, NULL);
	if (k == L_PROMPT) {
		start_turn(w, &c);
		return;
	}
	if (!w->in || w->turn->state == AITERM_TURN_ERROR)
		return;
	switch (k) {
	case L_TOOLS:
		w->has_answer = false;
		w->turn->reason = "tool_calls";
		break;
	case L_REPLY:
		w->host->buf_free(w->answer);
		w->answer = w->host->buf_new();
		content_text(w->host, c, w->answer);
		w->has_answer = w->host->buf_len(w->answer) > 0;
		w->turn->reason = w->has_answer ? "reply" : "in_progress";
		break;
	case L_ERROR:
		w->turn->state = AITERM_TURN_ERROR;
		w->turn->reason = "api_error";
		content_text(w->host, c, w->turn->answer);
		break;
	case L_CANCEL:
		w->turn->state = AITERM_TURN_ERROR;
		w->turn->reason = "cancelled";
		content_text(w->host, c, w->turn->answer);
		break;
	default:
		break;
	}
}

static void
walk(struct walk *w, const char *bytes, size_t len)
{
	const char *p = bytes, *end = bytes + len, *nl;

	w->headless = len > 0 && (len < strlen(GEMINI_HEADER) ||
	    memcmp(bytes, GEMINI_HEADER, strlen(GEMINI_HEADER)) != 0);
	while (p < end && !w->over) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		each_line(w, (struct js){ p, nl });
		p = nl + 1;
	}
}

unsigned
gemini_count_turns(const char *bytes, size_t len)
{
	struct walk w;

	memset(&w, 0, sizeof w);
	w.want = (unsigned)-1;
	walk(&w, bytes, len);
	return w.n;
}

int
gemini_read_turn(const struct aiterm_host *host, const char *bytes,
    size_t len, unsigned index, struct aiterm_turn *turn,
    struct aiterm_error *err)
{
	struct walk w;

	(void)err;
	memset(&w, 0, sizeof w);
	w.host = host;
	w.want = index;
	w.turn = turn;
	w.answer = host->buf_new();
	turn->state = AITERM_TURN_NONE;
	turn->reason = "prompt_not_recorded";
	walk(&w, bytes, len);
	if (turn->state == AITERM_TURN_STARTED && w.has_answer) {
		/* A candidate: the core waits for an idle screen. */
		turn->state = AITERM_TURN_DONE;
		turn->reason = "reply";
		host->buf_add(turn->answer, host->buf_data(w.answer),
		    host->buf_len(w.answer));
	}
	host->buf_free(w.answer);
	return 0;
}
