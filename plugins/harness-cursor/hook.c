/*
 * aiterm-hook-cursor: Cursor's hooks (DLV-CURSOR, ADR 0017), installed by
 * aiterm-setup in ~/.cursor/hooks.json as aiterm-hook commands, which run
 * this program with the same argv; as documented (hooks.json version 1;
 * every input has conversation_id):
 *
 *   cursor-after   afterMCPExecution: the tool's result_json names the
 *                  delivery the call made ("delivery: d..."); it is
 *                  tied to the conversation.  Prints {}.
 *   cursor-post    postToolUse: each delivery of this conversation that
 *                  is ready is claimed and its answer printed as
 *                  {"additional_context": ...}, which Cursor adds to the
 *                  conversation; a failed one is said the same way.
 *
 * A claim taken by a waiter (the parent ended its turn first and ran the
 * receipt's wait_process) means this hook says nothing of it.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <jansson.h>

#include "deliver/waiter.h"
#include "hook/hook.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* Under the state root: a folder per conversation, a file per delivery. */
#define CURSOR_HOOKS_DIR	"cursor-parent-hooks"

static const char *
conversation(json_t *in)
{
	const char *c = json_string_value(json_object_get(in,
	    "conversation_id"));

	return delivery_ref_valid(c) ? c : NULL;
}

/* The first "d" + 16 hex within 20 bytes after a "delivery" in text. */
static bool
find_id(const char *text, char id[DELIVERY_ID_MAX + 1])
{
	const char *p, *d;

	for (p = text; (p = strstr(p, "delivery")) != NULL; p++) {
		for (d = p + 8; *d != '\0' && d < p + 24; d++) {
			if (*d != 'd' || strlen(d) < 17)
				continue;
			memcpy(id, d, 17);
			id[17] = '\0';
			if (delivery_id_valid(id))
				return true;
		}
	}
	return false;
}

static int
after(json_t *in)
{
	struct aiterm_error err = ERROR_INIT;
	const char *conv = conversation(in);
	const char *result = json_string_value(json_object_get(in,
	    "result_json"));
	char id[DELIVERY_ID_MAX + 1], *dir, *path, *text = NULL;
	int rc = 0;

	if (result == NULL)	/* an object in some versions */
		result = text = json_dumps(json_object_get(in, "result_json"),
		    JSON_COMPACT | JSON_ENCODE_ANY);
	if (conv != NULL && result != NULL && find_id(result, id)) {
		dir = state_path(CURSOR_HOOKS_DIR "/%s", conv);
		path = state_path(CURSOR_HOOKS_DIR "/%s/%s", conv, id);
		if (state_mkdir(dir, &err) != 0 || atomic_replace(path, "", 0,
		    &err) != 0) {
			fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
			rc = 1;
		}
		free(dir);
		free(path);
	}
	error_clear(&err);
	free(text);
	puts("{}");
	return rc;
}

/* The deliveries this run claimed, handed over once the output is out. */
struct claimed {
	struct delivery	*d;
	int		*claim;
	size_t		 n;
};

/* Each claimed delivery submitted when ok (its text written whole). */
static void
handed_all(struct claimed *c, bool ok)
{
	struct aiterm_error err = ERROR_INIT;
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (delivery_handed(&c->d[i], c->claim[i], ok ?
		    DELIVERY_SUBMITTED : DELIVERY_UNKNOWN, ok ? NULL :
		    HANDOVER_WRITE_FAILED, &err) != 0)
			fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		error_clear(&err);
	}
	free(c->d);
	free(c->claim);
}

/* One pending delivery into ctx (and c); true when it is settled. */
static bool
take(const char *id, struct aiterm_buf *ctx, struct claimed *c)
{
	struct aiterm_error err = ERROR_INIT;
	struct delivery d;
	char *body = NULL;
	size_t len;
	int claim, rc;

	if (delivery_read(id, &d, &err) != 0) {
		error_clear(&err);
		return true;	/* gone: forget it */
	}
	/* Grok Build runs ~/.cursor/hooks.json too: only Cursor's deliveries. */
	if (strcmp(d.parent, "cursor") != 0)
		return true;
	if (d.state == DELIVERY_FAILED || d.state == DELIVERY_UNKNOWN) {
		buf_printf(ctx, "Aiterm: delivery %s of %s turn %u is %s (%s); "
		    "pty_read agent_transcript=true shows the turn.\n", d.id,
		    d.session, d.turn, delivery_state_name(d.state), d.outcome);
		return true;
	}
	if (d.state != DELIVERY_READY)
		return false;	/* still waiting */
	rc = delivery_claim(&d, "cursor-post", &body, &len, &claim, &err);
	if (rc == 0) {
		buf_printf(ctx, "Aiterm: the answer of %s (turn %u, delivery "
		    "%s):\n%.*s%s", d.session, d.turn, d.id, (int)len, body,
		    len > 0 && body[len - 1] == '\n' ? "" : "\n");
		c->d = xrealloc(c->d, (c->n + 1) * sizeof *c->d);
		c->claim = xrealloc(c->claim, (c->n + 1) * sizeof *c->claim);
		c->d[c->n] = d;
		c->claim[c->n++] = claim;
	}
	error_clear(&err);
	free(body);
	return true;
}

static int
post(json_t *in)
{
	const char *conv = conversation(in);
	struct aiterm_buf ctx = BUF_INIT;
	struct claimed c = { NULL, NULL, 0 };
	struct dirent *e;
	bool ok;
	char *dir, *path;
	json_t *out;
	DIR *dp;

	if (conv == NULL) {
		puts("{}");
		return 0;
	}
	dir = state_path(CURSOR_HOOKS_DIR "/%s", conv);
	if ((dp = opendir(dir)) != NULL) {
		while ((e = readdir(dp)) != NULL) {
			if (!delivery_id_valid(e->d_name) ||
			    !take(e->d_name, &ctx, &c))
				continue;
			path = state_path(CURSOR_HOOKS_DIR "/%s/%s", conv,
			    e->d_name);
			unlink(path);
			free(path);
		}
		closedir(dp);
	}
	free(dir);
	if (ctx.len == 0) {
		puts("{}");
		return 0;
	}
	out = json_pack("{s:s}", "additional_context", buf_str(&ctx));
	ok = json_dumpf(out, stdout, JSON_COMPACT) == 0 && putchar('\n') !=
	    EOF && fflush(stdout) == 0;
	json_decref(out);
	buf_free(&ctx);
	handed_all(&c, ok);
	return ok ? 0 : 1;
}

static const struct hook_verb verbs[] = {
	{ "cursor-after", after, NULL },
	{ "cursor-post", post, NULL },
};

int
main(int argc, char **argv)
{
	return hook_main(argc, argv, verbs, sizeof verbs / sizeof verbs[0],
	    "usage: aiterm-hook cursor-after|cursor-post [--state-dir DIR] "
	    "< hook-input.json\n"
	    "       aiterm-hook --help\n");
}
