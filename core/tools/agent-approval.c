/*
 * agent_approval and claude_approval (AGT-APPROVAL): what an agent asks to
 * be allowed, read off its screen by the harness plugin, and the answer.
 *
 * Without choice the tool returns the approval as shown and, for each
 * choice the plugin knows, a digest of (launch id, kind, subject, choice):
 * a digest authorises exactly one choice for exactly this approval of
 * this launch.  With choice and digest it takes the session's send lock,
 * looks at the screen again and types the choice's keys only when the
 * same approval is still there; changed, gone or unreadable: nothing is
 * typed, and the result says why.  claude_approval is the same for
 * Claude Code sessions only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "agent/harness.h"
#include "agent/input.h"
#include "agent/record.h"
#include "agent/screen.h"
#include "plugin/host.h"
#include "pty/muxjob.h"
#include "pty/session.h"
#include "state/lock.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/loop.h"
#include "util/sha256.h"
#include "util/xmalloc.h"

#define DIGEST_HEX	16
/* After the keys: how long the dialog may take to leave the screen. */
#define LEAVE_SETTLE_MS	40
#define LEAVE_MAX_MS	3000

struct answer;

struct seen {
	struct agent_record	 rec;
	struct harness		 h;
	struct aiterm_approval	 a;
	struct aiterm_buf	 subject;
	int			 found;		/* 1, 0 none, -1 unreadable */
};

static void
digest(const struct seen *s, const char *choice, char out[DIGEST_HEX + 1])
{
	struct aiterm_buf b = BUF_INIT;

	buf_printf(&b, "%s\n%s\n%s\n", s->rec.launch_id, s->a.kind, choice);
	buf_add(&b, buf_str(&s->subject), s->subject.len);
	sha256_hex(b.data, b.len, out, DIGEST_HEX);
	buf_free(&b);
}

/* The session's record, harness and the approval on its screen now. */
static int
observe(const char *id, const char *only, struct seen *s,
    struct aiterm_error *err)
{
	struct agent_screen scr;

	memset(s, 0, sizeof *s);
	if (agent_record_read(id, &s->rec, NULL) != 0)
		return error_set(err, "%s is not an agent session (agent_launch "
		    "starts one)", id);
	if (only != NULL && strcmp(s->rec.harness, only) != 0)
		return error_set(err, "%s runs %s, not %s: use agent_approval",
		    id, s->rec.harness, only);
	if (harness_find(s->rec.harness, &s->h, err) != 0)
		return -1;
	if (s->h.ops->approval == NULL)
		return error_set(err, "the %s harness has no approvals to "
		    "inspect", s->h.id);
	if (agent_screen_read(&s->h, id, &scr, err) != 0)
		return -1;
	s->a.subject = &s->subject;
	s->found = scr.verdict.state == AITERM_SCREEN_EXITED ? 0 :
	    s->h.ops->approval(host_get(), &(struct aiterm_screen){
	    buf_str(&scr.text), scr.text.len, scr.pane.cols, scr.pane.rows,
	    scr.pane.cursor_x, scr.pane.cursor_y }, &s->a);
	agent_screen_free(&scr);
	return 0;
}

static void
seen_free(struct seen *s)
{
	agent_record_free(&s->rec);
	buf_free(&s->subject);
}

/*
 * An observation on the multiplexer's thread (pty/muxjob.h), then `then`
 * on the loop with what it saw (rc, err, s).
 */
struct obs_job {
	char		 id[SESSION_ID_MAX + 1];
	const char	*only;
	struct seen	 s;
	int		 rc;
	struct aiterm_error err;
	void		(*then)(struct obs_job *);
	/* What `then` needs: the call and its arguments, or an answer. */
	struct tool_call *call;
	const char	*tool, *choice, *want;
	char		*lock;
	struct answer	*an;
};

static void
obs_work(void *arg)
{
	struct obs_job *j = arg;

	j->rc = observe(j->id, j->only, &j->s, &j->err);
}

static void
obs_done(void *arg)
{
	struct obs_job *j = arg;

	j->then(j);
	seen_free(&j->s);
	error_clear(&j->err);
	free(j->lock);
	free(j);
}

static struct obs_job *
obs_job(const char *id, const char *only, void (*then)(struct obs_job *))
{
	struct obs_job *j = xcalloc(1, sizeof *j);

	snprintf(j->id, sizeof j->id, "%s", id);
	j->only = only;
	j->then = then;
	return j;
}

static bool
has_choice(const struct seen *s, const char *choice)
{
	size_t i;

	for (i = 0; s->a.choices != NULL && s->a.choices[i] != NULL; i++) {
		if (strcmp(s->a.choices[i], choice) == 0)
			return true;
	}
	return false;
}

static void
inspect(struct tool_call *call, const char *tool, const char *id,
    struct seen *s)
{
	struct aiterm_buf t = BUF_INIT;
	char d[DIGEST_HEX + 1];
	json_t *choices;
	size_t i;

	if (s->found <= 0) {
		tool_call_reply(call, xasprintf(s->found == 0 ? "no approval on "
		    "the screen of %s" : "%s shows an approval its harness "
		    "cannot read; pty_read screen=true shows it", id),
		    json_pack("{s:s, s:b}", "session_id", id, "pending", 0));
		return;
	}
	choices = json_array();
	buf_printf(&t, "%s asks (%s):\n%s\n", id, s->a.kind,
	    buf_str(&s->subject));
	for (i = 0; s->a.choices[i] != NULL; i++) {
		digest(s, s->a.choices[i], d);
		buf_printf(&t, "%s: %s session_id=%s choice=%s digest=%s\n",
		    s->a.choices[i], tool, id, s->a.choices[i], d);
		json_array_append_new(choices, json_pack("{s:s, s:s}", "choice",
		    s->a.choices[i], "digest", d));
	}
	buf_printf(&t, "(a digest answers this approval with its choice "
	    "only)");
	tool_call_reply(call, buf_steal(&t, NULL), json_pack("{s:s, s:b, s:s, "
	    "s:s, s:o}", "session_id", id, "pending", 1, "kind", s->a.kind,
	    "subject", buf_str(&s->subject), "choices", choices));
}

struct answer {
	struct tool_call	*call;
	char			 id[SESSION_ID_MAX + 1];
	char			 choice[33];	/* the schema's 32, and its NUL */
	char			 digest[DIGEST_HEX + 1];
	char			*lock;
	const char		*only;
	uv_fs_event_t		 watch;
	uv_timer_t		 look, deadline;
	int			 open;
	bool			 done;
	int			 jobs;		/* looks in flight */
	bool			 gone;		/* the last look had it gone */
	uint64_t		 gone_at;	/* since, loop ms */
};

static void
an_free(struct answer *an)
{
	if (an->open == 0 && an->jobs == 0) {
		free(an->lock);
		free(an);
	}
}

static void
an_closed(uv_handle_t *h)
{
	struct answer *an = h->data;

	an->open--;
	an_free(an);
}

/* The reply, once the dialog has left the screen (or the deadline). */
static void
an_end(struct answer *an, bool gone)
{
	if (an->done)
		return;
	an->done = true;
	lock_release(an->lock, NULL);
	tool_call_reply(an->call, xasprintf("answered %s%s; read the turn's "
	    "answer with pty_read agent_transcript=true wait=true",
	    an->choice, gone ? "" : " (the dialog has not left the screen "
	    "yet)"), json_pack("{s:s, s:s}", "session_id", an->id, "answered",
	    an->choice));
	uv_fs_event_stop(&an->watch);
	uv_timer_stop(&an->look);
	uv_timer_stop(&an->deadline);
	uv_close((uv_handle_t *)&an->watch, an_closed);
	uv_close((uv_handle_t *)&an->look, an_closed);
	uv_close((uv_handle_t *)&an->deadline, an_closed);
}

static void an_look(uv_timer_t *t);

/*
 * Gone, or the next dialog, in two looks in a row LEAVE_SETTLE_MS apart:
 * the answer was taken.  One look can read a frame that a TUI is
 * redrawing (Gemini's, under load), the dialog half erased.
 */
static void
an_looked(struct obs_job *j)
{
	struct answer *an = j->an;
	char d[DIGEST_HEX + 1];
	uint64_t now;
	bool same = false;

	an->jobs--;
	if (an->done) {
		an_free(an);
		return;
	}
	if (j->rc == 0 && j->s.found > 0) {
		digest(&j->s, an->choice, d);
		same = strcmp(d, an->digest) == 0;
	}
	if (same) {
		an->gone = false;
		return;
	}
	now = uv_now(core_loop());
	if (!an->gone) {
		an->gone = true;
		an->gone_at = now;
	} else if (now >= an->gone_at + LEAVE_SETTLE_MS) {
		an_end(an, true);
		return;
	}
	/*
	 * The next look LEAVE_SETTLE_MS on; a look that came back sooner
	 * (two were in flight) is not the second.
	 */
	uv_timer_start(&an->look, an_look, LEAVE_SETTLE_MS, 0);
}

static void
an_look(uv_timer_t *t)
{
	struct answer *an = t->data;
	struct obs_job *j;

	if (an->done)
		return;
	j = obs_job(an->id, an->only, an_looked);
	j->an = an;
	an->jobs++;
	muxjob_run(obs_work, obs_done, j);
}

static void
an_change(uv_fs_event_t *h, const char *name, int events, int status)
{
	struct answer *an = h->data;

	(void)name;
	(void)events;
	(void)status;
	if (!an->done && !uv_is_active((uv_handle_t *)&an->look))
		uv_timer_start(&an->look, an_look, LEAVE_SETTLE_MS, 0);
}

static void
an_deadline(uv_timer_t *t)
{
	an_end(t->data, false);
}

static void
answered(void *arg, int status, const struct aiterm_error *err)
{
	struct answer *an = arg;
	char *log;

	if (status != 0) {
		tool_call_fail(an->call, "approval: typing the answer failed: "
		    "%s", error_msg(err));
		an->done = true;
		lock_release(an->lock, NULL);
		uv_close((uv_handle_t *)&an->watch, an_closed);
		uv_close((uv_handle_t *)&an->look, an_closed);
		uv_close((uv_handle_t *)&an->deadline, an_closed);
		return;
	}
	/* The pane's output says when the dialog goes; the lock stays till then. */
	log = session_path(an->id, "output.log");
	uv_fs_event_start(&an->watch, an_change, log, 0);
	free(log);
	uv_timer_start(&an->deadline, an_deadline, LEAVE_MAX_MS, 0);
	uv_timer_start(&an->look, an_look, LEAVE_SETTLE_MS, 0);
}

/* Inside the lock: the same approval still on the screen, then its keys. */
static void
answer_seen(struct obs_job *j)
{
	const struct aiterm_input_step *keys;
	struct seen *s = &j->s;
	struct answer *an;
	char d[DIGEST_HEX + 1];

	if (j->rc != 0) {
		tool_call_fail(j->call, "%s: nothing typed: %s", j->tool,
		    error_msg(&j->err));
		goto out_unlock;
	}
	if (s->found <= 0) {
		tool_call_fail(j->call, "%s: nothing typed: %s", j->tool,
		    s->found == 0 ? "no approval is on the screen any more" :
		    "the approval on the screen cannot be read");
		goto out_unlock;
	}
	if (!has_choice(s, j->choice) ||
	    (keys = s->h.ops->approval_keys(j->choice)) == NULL) {
		tool_call_fail(j->call, "%s: nothing typed: '%s' is not a "
		    "choice of this approval", j->tool, j->choice);
		goto out_unlock;
	}
	digest(s, j->choice, d);
	if (strcmp(d, j->want) != 0) {
		tool_call_fail(j->call, "%s: nothing typed: the approval "
		    "changed (it is now %s: %s); inspect it again", j->tool,
		    s->a.kind, buf_str(&s->subject));
		goto out_unlock;
	}
	an = xcalloc(1, sizeof *an);
	an->call = j->call;
	snprintf(an->id, sizeof an->id, "%s", j->id);
	snprintf(an->choice, sizeof an->choice, "%s", j->choice);
	snprintf(an->digest, sizeof an->digest, "%s", j->want);
	an->only = j->only;
	an->lock = j->lock;
	j->lock = NULL;
	uv_fs_event_init(core_loop(), &an->watch);
	uv_timer_init(core_loop(), &an->look);
	uv_timer_init(core_loop(), &an->deadline);
	an->watch.data = an->look.data = an->deadline.data = an;
	an->open = 3;
	agent_input_play(j->id, keys, NULL, 0, answered, an);
	return;
out_unlock:
	lock_release(j->lock, NULL);
}

static void
answer(struct tool_call *call, const char *tool, const char *id,
    const char *only, const char *choice, const char *want)
{
	struct aiterm_error err = ERROR_INIT;
	struct lock_owner owner;
	struct obs_job *j;
	char *lock = session_path(id, "send.lock");
	int st;

	st = lock_acquire(lock, &owner, &err);
	if (st != LOCK_ACQUIRED) {
		tool_call_fail(call, "%s: nothing typed: %s", tool, st ==
		    LOCK_HELD ? "another sender is typing into the session" :
		    st == LOCK_STALE ? "a stale send lock (pty_close the "
		    "session to recover)" : error_msg(&err));
		free(lock);
		error_clear(&err);
		return;
	}
	j = obs_job(id, only, answer_seen);
	j->call = call;
	j->tool = tool;
	j->choice = choice;
	j->want = want;
	j->lock = lock;
	muxjob_run(obs_work, obs_done, j);
}

/* Without a choice: the approval as shown, with a digest per choice. */
static void
inspect_seen(struct obs_job *j)
{
	if (j->rc != 0)
		tool_call_fail(j->call, "%s: %s", j->tool, error_msg(&j->err));
	else
		inspect(j->call, j->tool, j->id, &j->s);
}

static void
approval_call(struct tool_call *call, const char *tool, const char *only)
{
	json_t *args = tool_call_args(call);
	const char *id = tool_call_session(call);
	const char *choice = json_string_value(json_object_get(args, "choice"));
	const char *want = json_string_value(json_object_get(args, "digest"));
	struct obs_job *j;

	if ((choice == NULL) != (want == NULL)) {
		tool_call_fail(call, "%s: choice and digest go together (inspect "
		    "first: it gives the digest of each choice)", tool);
		return;
	}
	if (choice != NULL) {
		answer(call, tool, id, only, choice, want);
		return;
	}
	j = obs_job(id, only, inspect_seen);
	j->call = call;
	j->tool = tool;
	muxjob_run(obs_work, obs_done, j);
}

/* By either name: an alias answers its harness's sessions only. */
static void
agent_approval_call(struct tool_call *call)
{
	approval_call(call, tool_call_name(call), tool_call_harness(call));
}

#define APPROVAL_INPUT \
	"{\"type\":\"object\",\"properties\":{" \
	"\"session_id\":{\"type\":\"string\"}," \
	"\"choice\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":32}," \
	"\"digest\":{\"type\":\"string\",\"minLength\":16,\"maxLength\":16}}," \
	"\"required\":[\"session_id\"],\"additionalProperties\":false}"

#define APPROVAL_OUTPUT \
	"{\"type\":\"object\",\"properties\":{" \
	"\"session_id\":{\"type\":\"string\"}," \
	"\"pending\":{\"type\":\"boolean\"}," \
	"\"kind\":{\"type\":\"string\"},\"subject\":{\"type\":\"string\"}," \
	"\"choices\":{\"type\":\"array\"}," \
	"\"answered\":{\"type\":\"string\"}},\"required\":[\"session_id\"]}"

const struct tool_entry tool_agent_approval = {
	.name = "agent_approval",
	.title = "Inspect or answer an agent's approval",
	.description = "The command or tool an agent session asks to run "
	    "(Codex, Claude Code), with a digest per choice. Answer with "
	    "choice and its digest: typed only if the same approval is still "
	    "on screen.",
	.input_schema = APPROVAL_INPUT,
	.output_schema = APPROVAL_OUTPUT,
	.hints = TOOL_DESTRUCTIVE | TOOL_OPEN_WORLD,
	.call = agent_approval_call,
	.relayable = true,
	.session_target = true,
};

const struct tool_entry tool_claude_approval = {
	.name = "claude_approval",
	.title = "Inspect or answer Claude Code's permission dialog",
	.description = "agent_approval for Claude Code sessions only.",
	.alias_of = &tool_agent_approval,
	.harness = "claude-code",
};
