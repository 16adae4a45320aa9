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
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deliver/waiter.h"
#include "hook/hook.h"
#include "util/linerpc.h"
#include "util/xmalloc.h"

#define RPC_MS	30000

static const char *
rpc_error(json_t *res)
{
	const char *m = json_string_value(json_object_get(json_object_get(res,
	    "error"), "message"));

	return m != NULL ? m : "";
}

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

/* Whether a page of thread/queue/list holds our message already. */
static bool
queued(json_t *res, const char *id, const char **next)
{
	json_t *r = json_object_get(res, "result"), *item, *list;
	size_t i;

	list = json_object_get(r, "items");
	if (list == NULL)
		list = json_object_get(r, "data");
	*next = json_string_value(json_object_get(r, "nextCursor"));
	json_array_foreach(list, i, item) {
		const char *c = json_string_value(json_object_get(item,
		    "clientUserMessageId"));

		if (c != NULL && strcmp(c, id) == 0)
			return true;
	}
	return false;
}

static int
hand_over(struct linerpc *r, struct delivery *d, const char *text)
{
	const char *bin = getenv("AITERM_CODEX_BIN"), *next = NULL;
	char *argv[] = { (char *)(bin != NULL && *bin ? bin : "codex"),
	    "app-server", NULL };
	json_t *env = json_pack("{s:s}", "CODEX_HOME", d->home), *res;
	char *cursor = NULL;
	bool already = false;
	int pages;

	if (linerpc_start(r, argv, env, false) != 0) {
		json_decref(env);
		finish(d, DELIVERY_FAILED, r->why);
		return 1;
	}
	json_decref(env);
	res = linerpc_call(r, "initialize", json_pack("{s:{s:s, s:s}, "
	    "s:{s:b}}", "clientInfo", "name", "aiterm", "version",
	    PACKAGE_VERSION, "capabilities", "experimentalApi", 1), RPC_MS);
	if (res == NULL || json_object_get(res, "error") != NULL) {
		finish(d, DELIVERY_FAILED, res != NULL ? rpc_error(res) : r->why);
		json_decref(res);
		return 1;
	}
	json_decref(res);
	linerpc_notify(r, "initialized", NULL);
	for (pages = 0; pages < 100 && !already; pages++) {
		res = linerpc_call(r, "thread/queue/list", cursor != NULL ?
		    json_pack("{s:s, s:s}", "threadId", d->conversation,
		    "cursor", cursor) : json_pack("{s:s}", "threadId",
		    d->conversation), RPC_MS);
		if (res == NULL || json_object_get(res, "error") != NULL) {
			/* The thread is not there: Codex refuses it. */
			finish(d, DELIVERY_FAILED, res != NULL ? rpc_error(res) :
			    r->why);
			json_decref(res);
			free(cursor);
			return 1;
		}
		already = queued(res, d->id, &next);
		free(cursor);
		cursor = next != NULL ? xstrdup(next) : NULL;
		json_decref(res);
		if (cursor == NULL)
			break;
	}
	free(cursor);
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
	text = xasprintf("Aiterm: the answer of %s (turn %u, delivery %s):\n"
	    "%.*s", d.session, d.turn, d.id, (int)len, body);
	rc = hand_over(&r, &d, text);
	linerpc_stop(&r, 5000);
	free(r.why);
	free(text);
	free(body);
	return rc;
}

static const struct hook_verb verbs[] = {
	{ "codex-queue", NULL, queue },
};

int
main(int argc, char **argv)
{
	return hook_main(argc, argv, verbs, sizeof verbs / sizeof verbs[0],
	    "usage: aiterm-hook codex-queue [--state-dir DIR] DELIVERY_ID\n"
	    "       aiterm-hook --help\n");
}
