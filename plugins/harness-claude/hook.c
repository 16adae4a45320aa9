/*
 * aiterm-hook-claude: Aiterm's side of Claude Code's user-settings hooks
 * (DLV-CLAUDE, ADR 0015), installed by aiterm-setup as aiterm-hook
 * commands, which run this program with the same argv:
 *
 *   aiterm-hook claude-pre  [--state-dir DIR]   PreToolUse
 *   aiterm-hook claude-post [--state-dir DIR]   PostToolUse, asyncRewake
 *   aiterm-hook claude-end  [--state-dir DIR]   SessionEnd
 *
 * Each reads the hook's JSON on stdin.  pre saves which conversation
 * (session_id, agent_id) made the call (tool_use_id) for the server to
 * find; post waits for the delivery that call made, prints the answer on
 * stderr and exits 2, which wakes the parent with it (0 at once when the
 * call made none, or its conversation ended: /clear, exit), and the
 * delivery is submitted only once that write is whole (unknown when it
 * failed or was cut, ADR 0032); end marks the conversation over.  A hook that cannot do its part says why on stderr
 * and exits 1 (a non-blocking error for Claude Code).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "deliver/waiter.h"
#include "hook/hook.h"
#include "parent-hooks.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

static const char *
str(json_t *in, const char *key)
{
	const char *v = json_string_value(json_object_get(in, key));

	return v != NULL ? v : "";
}

static int
pre(json_t *in)
{
	struct aiterm_error err = ERROR_INIT;
	const char *ref = str(in, "tool_use_id");
	char *dir = state_path(CLAUDE_HOOKS_DIR), *path, *text;
	json_t *rec;
	int rc = 0;

	if (!delivery_ref_valid(ref)) {
		free(dir);
		return 0;	/* not a call the server can match */
	}
	rec = json_pack("{s:s, s:s, s:s}", "session_id", str(in,
	    "session_id"), "tool_name", str(in, "tool_name"), "cwd", str(in,
	    "cwd"));
	if (json_object_get(in, "agent_id") != NULL)
		json_object_set(rec, "agent_id", json_object_get(in,
		    "agent_id"));
	text = json_dumps(rec, JSON_COMPACT);
	path = state_path(CLAUDE_HOOKS_DIR "/%s.pre.json", ref);
	if (state_mkdir(dir, &err) != 0 || atomic_replace(path, text,
	    strlen(text), &err) != 0) {
		fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		rc = 1;
	}
	error_clear(&err);
	json_decref(rec);
	free(text);
	free(path);
	free(dir);
	return rc;
}

/* The delivery a call made: its link, else the receipt's "delivery:". */
static bool
delivery_of(json_t *in, char id[DELIVERY_ID_MAX + 1])
{
	const char *ref = str(in, "tool_use_id"), *p;
	char *path, *text = NULL, *resp;
	size_t len;
	bool ok = false;

	if (delivery_ref_valid(ref)) {
		path = state_path(CLAUDE_HOOKS_DIR "/%s.delivery", ref);
		if (file_read(path, &text, &len, NULL) == 0 && len == 17) {
			memcpy(id, text, 17);
			id[17] = '\0';
			ok = delivery_id_valid(id);
		}
		free(text);
		free(path);
	}
	if (ok)
		return true;
	resp = json_dumps(json_object_get(in, "tool_response"),
	    JSON_COMPACT | JSON_ENCODE_ANY);
	p = resp != NULL ? strstr(resp, "delivery: d") : NULL;
	if (p != NULL && strlen(p + 10) >= 17) {
		memcpy(id, p + 10, 17);
		id[17] = '\0';
		ok = delivery_id_valid(id);
	}
	free(resp);
	return ok;
}

/* SessionEnd of the conversation the answer was for. */
static bool
ended(void *arg)
{
	const struct delivery *d = arg;
	char *path = state_path(CLAUDE_HOOKS_DIR "/ended-%s", d->conversation);
	struct stat st;
	bool gone = stat(path, &st) == 0;

	free(path);
	return gone;
}

static void
forget(json_t *in)
{
	const char *ref = str(in, "tool_use_id");
	char *path;

	if (!delivery_ref_valid(ref))
		return;
	path = state_path(CLAUDE_HOOKS_DIR "/%s.pre.json", ref);
	unlink(path);
	free(path);
	path = state_path(CLAUDE_HOOKS_DIR "/%s.delivery", ref);
	unlink(path);
	free(path);
}

/*
 * The claimed body to Claude Code (stderr, which it reads once the hook
 * exits 2): submitted once written whole, unknown when the write failed
 * or was cut (a closed pipe, stderr closed: the body is kept, never
 * written again).  Until then the record reads ready; a hook ended in
 * the middle (Claude Code's timeout, a kill) reads unknown.
 */
static int
hand_over(struct delivery *d, int claim, const char *body, size_t len)
{
	struct aiterm_error err = ERROR_INIT;
	bool ok;

	ok = fprintf(stderr, "Aiterm: the answer of %s (turn %u, delivery "
	    "%s):\n", d->session, d->turn, d->id) > 0 &&
	    fwrite(body, 1, len, stderr) == len && fflush(stderr) == 0 &&
	    !ferror(stderr);
	if (delivery_handed(d, claim, ok ? DELIVERY_SUBMITTED :
	    DELIVERY_UNKNOWN, ok ? NULL : HANDOVER_WRITE_FAILED, &err) != 0)
		ok = false;
	error_clear(&err);
	return ok ? 2 : 1;	/* 2: Claude Code's signal to wake the parent */
}

static int
post(json_t *in)
{
	struct aiterm_error err = ERROR_INIT;
	char id[DELIVERY_ID_MAX + 1], *body = NULL;
	struct delivery d;
	size_t len = 0;
	int claim, rc = 0;

	if (!delivery_of(in, id)) {
		forget(in);
		return 0;
	}
	if (delivery_read(id, &d, &err) != 0) {
		fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		error_clear(&err);
		forget(in);
		return 1;
	}
	/*
	 * Only a delivery made for this Claude conversation: Grok Build also
	 * runs the hooks of ~/.claude/settings.json, and a delivery for any
	 * other parent is someone else's to hand over.
	 */
	if (strcmp(d.parent, "claude") != 0 || strcmp(d.conversation,
	    str(in, "session_id")) != 0) {
		forget(in);
		return 0;
	}
	switch (delivery_wait(id, -1, ended, &d, &d, &err)) {
	case WAITED_READY:
		rc = delivery_claim(&d, "claude-post", &body, &len, &claim,
		    &err);
		if (rc == 0)
			rc = hand_over(&d, claim, body, len);
		else
			rc = rc == 1 ? 0 : 1;
		break;
	case WAITED_FAILED:
		fprintf(stderr, "Aiterm: delivery %s of %s turn %u is %s "
		    "(%s); pty_read agent_transcript=true shows the turn\n",
		    d.id, d.session, d.turn, delivery_state_name(d.state),
		    d.outcome);
		rc = 2;
		break;
	case WAITED_STOPPED:
		rc = 0;	/* the conversation ended: not into a new one */
		break;
	default:
		fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		rc = 1;
		break;
	}
	fflush(stderr);
	error_clear(&err);
	free(body);
	forget(in);
	return rc;
}

static int
end(json_t *in)
{
	struct aiterm_error err = ERROR_INIT;
	const char *conv = str(in, "session_id");
	char *dir = state_path(CLAUDE_HOOKS_DIR), *path;
	int rc = 0;

	if (!delivery_ref_valid(conv)) {
		free(dir);
		return 0;
	}
	path = state_path(CLAUDE_HOOKS_DIR "/ended-%s", conv);
	if (state_mkdir(dir, &err) != 0 || atomic_replace(path, "", 0,
	    &err) != 0) {
		fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		rc = 1;
	}
	error_clear(&err);
	free(path);
	free(dir);
	return rc;
}

static const struct hook_verb verbs[] = {
	{ "claude-pre", pre, NULL },
	{ "claude-post", post, NULL },
	{ "claude-end", end, NULL },
};

int
main(int argc, char **argv)
{
	return hook_main(argc, argv, verbs, sizeof verbs / sizeof verbs[0],
	    "usage: aiterm-hook claude-pre|claude-post|claude-end "
	    "[--state-dir DIR] < hook-input.json\n"
	    "       aiterm-hook --help\n");
}
