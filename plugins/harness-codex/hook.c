/*
 * aiterm-hook-codex, run as aiterm-hook codex-queue [--state-dir DIR] ID
 * (receiver-codex spawns it): hand a ready delivery to a Codex parent
 * (DLV-CODEX, ADR 0016).  Claims the body (one hand-over), then speaks
 * to `codex app-server` of the parent's CODEX_HOME on stdio: initialize
 * (experimentalApi, which the queue methods need), thread/read (the
 * thread exists), every page of thread/queue/list (not queued before:
 * our clientUserMessageId is the delivery id), thread/queue/add.  Codex
 * runs the queued message as the thread's next turn: at once when it is
 * idle, after the running turn otherwise.  The record ends submitted
 * (Codex took it), failed (it refused, with why) or unknown (the answer
 * was lost on the way: it may or may not be queued; never resent).
 *
 * codex-post and codex-stop are the Steer hooks (hook-steer.c).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hook-appserver.h"
#include "deliver/waiter.h"
#include "hook/hook.h"
#include "util/xmalloc.h"

/* The claim this program holds on the delivery it hands over. */
static int claim = -1;

static void
finish(struct delivery *d, enum delivery_state state, const char *why)
{
	struct aiterm_error err = ERROR_INIT;

	if (delivery_handed(d, claim, state, why, &err) != 0)
		fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
	claim = -1;
	error_clear(&err);
	if (why != NULL && state != DELIVERY_SUBMITTED)
		fprintf(stderr, "aiterm-hook: delivery %s %s: %s\n", d->id,
		    delivery_state_name(state), why);
}

static int
hand_over(struct linerpc *r, struct delivery *d, const char *text)
{
	const char *why;
	json_t *all, *res;
	bool already;

	if (codex_open(r, d->home, &why) != 0) {
		finish(d, DELIVERY_FAILED, why);
		return 1;
	}
	if ((all = queue_all(r, d->conversation, &why)) == NULL) {
		/* The thread is not there: Codex refuses it. */
		finish(d, DELIVERY_FAILED, why);
		return 1;
	}
	already = queued(all, d->id) != NULL;
	json_decref(all);
	if (already) {
		finish(d, DELIVERY_SUBMITTED, NULL);
		return 0;
	}
	res = linerpc_call(r, "thread/queue/add", json_pack("{s:s, s:s, "
	    "s:[{s:s, s:s}]}", "threadId", d->conversation,
	    "clientUserMessageId", d->id, "input", "type", "text", "text",
	    text), RPC_MS);
	if (res == NULL) {
		finish(d, DELIVERY_UNKNOWN, r->why);
		return 1;
	}
	if (json_object_get(res, "error") != NULL) {
		finish(d, DELIVERY_FAILED, rpc_error(res));
		json_decref(res);
		return 1;
	}
	json_decref(res);
	finish(d, DELIVERY_SUBMITTED, NULL);
	return 0;
}

static int
queue(const char *id)
{
	struct aiterm_error err = ERROR_INIT;
	struct linerpc r;
	struct delivery d;
	char *body = NULL, *text;
	size_t len;
	int rc;

	if (delivery_read(id, &d, &err) != 0 || d.state != DELIVERY_READY ||
	    strcmp(d.parent, "codex") != 0) {
		fprintf(stderr, "aiterm-hook: codex-queue: %s\n", err.msg ?
		    error_msg(&err) : "not a ready delivery to a Codex parent");
		error_clear(&err);
		return 1;
	}
	if ((rc = delivery_claim(&d, "codex-queue", &body, &len, &claim,
	    &err)) != 0) {
		if (rc < 0)
			fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		error_clear(&err);
		return rc < 0 ? 1 : 0;	/* someone else handed it over */
	}
	memset(&r, 0, sizeof r);
	text = answer_text(&d, body, len);
	rc = hand_over(&r, &d, text);
	linerpc_stop(&r, 5000);
	free(r.why);
	free(text);
	free(body);
	return rc;
}

static const struct hook_verb verbs[] = {
	{ "codex-queue", NULL, queue },
	{ "codex-post", steer_post, NULL },
	{ "codex-stop", steer_stop, NULL },
};

int
main(int argc, char **argv)
{
	return hook_main(argc, argv, verbs, sizeof verbs / sizeof verbs[0],
	    "usage: aiterm-hook codex-queue [--state-dir DIR] DELIVERY_ID\n"
	    "       aiterm-hook codex-post|codex-stop [--state-dir DIR] "
	    "< hook-input.json\n"
	    "       aiterm-hook --help\n");
}
