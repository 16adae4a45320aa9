/*
 * The Codex parent's app-server client (hook-appserver.h).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hook-appserver.h"
#include "util/xmalloc.h"

const char *
rpc_error(json_t *res)
{
	const char *m = json_string_value(json_object_get(json_object_get(res,
	    "error"), "message"));

	return m != NULL ? m : "";
}


/*
 * Every queued submission of thread (all pages of thread/queue/list), a
 * new array; NULL when Codex refuses (no such thread) or does not answer
 * (*why, valid until the next call).
 */
json_t *
queue_all(struct linerpc *r, const char *thread, const char **why)
{
	static char msg[512];
	json_t *all = json_array(), *res, *list;
	const char *next;
	char *cursor = NULL;
	int pages;

	for (pages = 0; pages < 100; pages++) {
		res = linerpc_call(r, "thread/queue/list", cursor != NULL ?
		    json_pack("{s:s, s:s}", "threadId", thread, "cursor",
		    cursor) : json_pack("{s:s}", "threadId", thread), RPC_MS);
		free(cursor);
		cursor = NULL;
		if (res == NULL || json_object_get(res, "error") != NULL) {
			snprintf(msg, sizeof msg, "%s", res != NULL ?
			    rpc_error(res) : r->why != NULL ? r->why :
			    "no answer");
			*why = msg;
			json_decref(res);
			json_decref(all);
			return NULL;
		}
		list = json_object_get(json_object_get(res, "result"), "data");
		json_array_extend(all, list);
		next = json_string_value(json_object_get(json_object_get(res,
		    "result"), "nextCursor"));
		cursor = next != NULL ? xstrdup(next) : NULL;
		json_decref(res);
		if (cursor == NULL)
			break;
	}
	free(cursor);
	return all;
}

/* The queued submission whose clientUserMessageId is id, or NULL. */
json_t *
queued(json_t *all, const char *id)
{
	json_t *item;
	size_t i;

	json_array_foreach(all, i, item) {
		const char *c = json_string_value(json_object_get(item,
		    "clientUserMessageId"));

		if (c != NULL && strcmp(c, id) == 0)
			return item;
	}
	return NULL;
}

/*
 * `codex app-server` of home ($AITERM_CODEX_BIN, else codex on PATH),
 * initialized with experimentalApi (the queue methods need it): 0, or
 * -1 with r->why (or *why: Codex's refusal).
 */
int
codex_open(struct linerpc *r, const char *home, const char **why)
{
	const char *bin = getenv("AITERM_CODEX_BIN");
	char *argv[] = { (char *)(bin != NULL && *bin ? bin : "codex"),
	    "app-server", NULL };
	json_t *env = json_pack("{s:s}", "CODEX_HOME", home), *res;
	static char msg[512];

	*why = NULL;
	if (linerpc_start(r, argv, env, false) != 0) {
		json_decref(env);
		*why = r->why;
		return -1;
	}
	json_decref(env);
	res = linerpc_call(r, "initialize", json_pack("{s:{s:s, s:s}, "
	    "s:{s:b}}", "clientInfo", "name", "aiterm", "version",
	    PACKAGE_VERSION, "capabilities", "experimentalApi", 1), RPC_MS);
	if (res == NULL || json_object_get(res, "error") != NULL) {
		snprintf(msg, sizeof msg, "%s", res != NULL ? rpc_error(res) :
		    r->why);
		*why = msg;
		json_decref(res);
		return -1;
	}
	json_decref(res);
	linerpc_notify(r, "initialized", NULL);
	return 0;
}

char *
answer_text(const struct delivery *d, const char *body, size_t len)
{
	return xasprintf("Aiterm: the answer of %s (turn %u, delivery %s):\n"
	    "%.*s", d->session, d->turn, d->id, (int)len, body);
}
