/*
 * Talking to the official `codex app-server` for the Codex parent's hook
 * program (DLV-CODEX, ADR 0016): started with the parent's CODEX_HOME,
 * initialized with experimentalApi (which the queue methods need).
 */
#ifndef AITERM_CODEX_APPSERVER_H
#define AITERM_CODEX_APPSERVER_H

#include <jansson.h>

#include "deliver/store.h"
#include "util/linerpc.h"

#define RPC_MS	30000

/* An error response's message, "" when it has none. */
const char	*rpc_error(json_t *res);
/*
 * Start and initialize `codex app-server` of home ($AITERM_CODEX_BIN,
 * else codex on PATH): 0, or -1 with *why (valid until the next call).
 */
int		 codex_open(struct linerpc *r, const char *home,
		    const char **why);
/*
 * Every queued submission of thread (all pages of thread/queue/list), a
 * new array; NULL when Codex refuses (no such thread) or does not answer
 * (*why, valid until the next call).
 */
json_t		*queue_all(struct linerpc *r, const char *thread,
		    const char **why);
/* The queued submission whose clientUserMessageId is id, or NULL. */
json_t		*queued(json_t *all, const char *id);
/* What the parent reads: who answered, which turn, the delivery, body. */
char		*answer_text(const struct delivery *d, const char *body,
		    size_t len);

/* The Steer hooks (hook-steer.c): the hook's JSON input; exit status. */
int		 steer_post(json_t *in);
int		 steer_stop(json_t *in);

#endif
