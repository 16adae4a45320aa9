/*
 * The Steer hooks of a Codex parent (DLV-CODEX, ADR 0016), which
 * aiterm-setup --codex-steer puts in $CODEX_HOME/hooks.json, synchronous:
 *
 *   aiterm-hook codex-post   PostToolUse: a ready answer goes into the
 *                            running turn's context after a tool call
 *                            (hookSpecificOutput.additionalContext)
 *   aiterm-hook codex-stop   Stop: an answer that arrived while the final
 *                            reply was written continues the same turn
 *                            ({"decision": "block", "reason": ...})
 *
 * Codex gives the thread as session_id on stdin; the home is the
 * CODEX_HOME Codex runs with.  The answers are the ones codex-queue put
 * on that thread's official queue (submitted deliveries of this home and
 * thread); an answer not taken here stays there and runs when the
 * parent is idle.  With none, the hook ends at once without starting
 * anything.  Else: every page of thread/queue/list; for each of ours
 * still queued, take it (deliver/codexhook.h: an exclusive hard link, so
 * of racing hooks one has it), ask Codex to delete it, and print only the
 * bodies whose deletion Codex answered true for.  An output cut short is
 * unknown: the body stays, never resent.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hook-appserver.h"
#include "deliver/claim.h"
#include "deliver/codexhook.h"
#include "state/atomic.h"
#include "util/buf.h"
#include "util/xmalloc.h"

struct found {
	const char	*thread;
	char		*home;
	struct delivery	*v;
	size_t		 n;
};

/* A submitted answer of this home and thread that no hook took yet. */
static void
candidate(const char *id, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct found *f = arg;
	struct delivery d;

	if (delivery_read(id, &d, &err) != 0) {
		error_clear(&err);
		return;
	}
	delivery_seen(&d);
	if (d.place != DELIVERY_HERE || strcmp(d.parent, "codex") != 0 ||
	    d.state != DELIVERY_SUBMITTED || strcmp(d.conversation,
	    f->thread) != 0 || strcmp(d.home, f->home) != 0 ||
	    codexhook_held(&d))
		return;
	f->v = xrealloc(f->v, (f->n + 1) * sizeof *f->v);
	f->v[f->n++] = d;
}

static char *
home_of(void)
{
	const char *home = getenv("CODEX_HOME"), *h = getenv("HOME");

	return home != NULL && *home != '\0' ? xstrdup(home) :
	    xasprintf("%s/.codex", h != NULL ? h : "");
}

/* Take d out of the queue (item) for this hook: its text, or NULL. */
static char *
take(struct linerpc *r, const struct delivery *d, json_t *item, char **rec)
{
	struct aiterm_error err = ERROR_INIT;
	char *path = delivery_path(d, "body"), *body = NULL, *text = NULL;
	size_t len;
	json_t *res;
	const char *qid = json_string_value(json_object_get(item, "id"));
	enum codexhook_state st;

	*rec = NULL;
	if (qid == NULL || file_read(path, &body, &len, &err) != 0 ||
	    codexhook_take(d, body, len, rec, &err) != 0)
		goto out;
	res = linerpc_call(r, "thread/queue/delete", json_pack("{s:s, s:s}",
	    "threadId", d->conversation, "queuedSubmissionId", qid), RPC_MS);
	if (res == NULL)
		st = CODEXHOOK_UNKNOWN;	/* deleted or not: cannot be told */
	else if (json_is_true(json_object_get(json_object_get(res, "result"),
	    "deleted")))
		st = CODEXHOOK_REMOVING;	/* ours to print */
	else
		st = CODEXHOOK_QUEUED;	/* Codex ran it, or refused */
	json_decref(res);
	if (st == CODEXHOOK_REMOVING)
		text = answer_text(d, body, len);
	else {
		(void)codexhook_set(*rec, st, st == CODEXHOOK_UNKNOWN ?
		    "delete_unanswered" : "not_deleted", &err);
		free(*rec);
		*rec = NULL;
	}
out:
	if (err.msg != NULL)
		fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
	error_clear(&err);
	free(body);
	free(path);
	return text;
}

/* Print what the hook hands Codex; every taken record says how it went. */
static int
emit(bool stop, const char *text, char **recs, size_t n)
{
	struct aiterm_error err = ERROR_INIT;
	json_t *out = stop ? json_pack("{s:s, s:s}", "decision", "block",
	    "reason", text) : json_pack("{s:{s:s, s:s}}", "hookSpecificOutput",
	    "hookEventName", "PostToolUse", "additionalContext", text);
	char *s = json_dumps(out, JSON_COMPACT);
	size_t len = strlen(s), i;
	bool whole;

	whole = fwrite(s, 1, len, stdout) == len && fputc('\n', stdout) !=
	    EOF && fflush(stdout) == 0;
	for (i = 0; i < n; i++) {
		if (codexhook_set(recs[i], whole ? CODEXHOOK_EMITTED :
		    CODEXHOOK_UNKNOWN, whole ? NULL : "write_failed", &err) != 0)
			fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		error_clear(&err);
	}
	json_decref(out);
	free(s);
	return whole ? 0 : 1;
}

static int
steer(json_t *in, bool stop)
{
	struct found f = { NULL, NULL, NULL, 0 };
	struct aiterm_buf all_text = BUF_INIT;
	struct linerpc r;
	const char *why = NULL;
	json_t *queue = NULL, *item;
	char **recs = NULL, *text;
	size_t i, n = 0;
	int rc = 0;

	f.thread = json_string_value(json_object_get(in, "session_id"));
	if (f.thread == NULL || !delivery_ref_valid(f.thread))
		return 0;	/* not a thread an answer can be owed to */
	f.home = home_of();
	delivery_each(candidate, &f);
	memset(&r, 0, sizeof r);
	if (f.n == 0)
		goto out;
	if (codex_open(&r, f.home, &why) != 0 ||
	    (queue = queue_all(&r, f.thread, &why)) == NULL) {
		/* They stay in the queue, which runs them when idle. */
		fprintf(stderr, "aiterm-hook: %s: %s\n", stop ? "codex-stop" :
		    "codex-post", why != NULL ? why : "no app-server");
		goto out;
	}
	for (i = 0; i < f.n; i++) {
		if ((item = queued(queue, f.v[i].id)) == NULL)
			continue;	/* not queued yet, or run already */
		recs = xrealloc(recs, (n + 1) * sizeof *recs);
		if ((text = take(&r, &f.v[i], item, &recs[n])) == NULL)
			continue;
		if (all_text.len > 0)
			buf_adds(&all_text, "\n\n");
		buf_adds(&all_text, text);
		free(text);
		n++;
	}
	if (n > 0)
		rc = emit(stop, all_text.data, recs, n);
out:
	if (r.pid > 0)
		linerpc_stop(&r, 5000);
	free(r.why);
	for (i = 0; i < n; i++)
		free(recs[i]);
	free(recs);
	buf_free(&all_text);
	json_decref(queue);
	free(f.v);
	free(f.home);
	return rc;
}

int
steer_post(json_t *in)
{
	return steer(in, false);
}

int
steer_stop(json_t *in)
{
	return steer(in, true);
}
