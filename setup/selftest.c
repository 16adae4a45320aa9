#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "selftest.h"
#include "util/linerpc.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define STEP_MS		30000	/* one request's answer */
#define PROBE_WORD	"aiterm-setup-probe"
#define PROBE_EXIT	3

static void
why(struct linerpc *m, char *text)
{
	free(m->why);
	m->why = text;
}

/* A tools/call; its result's text, or NULL with m->why. */
static char *
tool(struct linerpc *m, const char *name, json_t *args, json_t **sc)
{
	json_t *res = linerpc_call(m, "tools/call", json_pack("{s:s, s:o}",
	    "name", name, "arguments", args), STEP_MS), *r, *text;
	char *out = NULL;

	if (res == NULL)
		return NULL;
	r = json_object_get(res, "result");
	text = json_object_get(json_array_get(json_object_get(r, "content"),
	    0), "text");
	if (r == NULL || json_is_true(json_object_get(r, "isError")))
		why(m, xasprintf("%s failed: %s", name, text != NULL ?
		    json_string_value(text) : json_string_value(json_object_get(
		    json_object_get(res, "error"), "message"))));
	else
		out = xstrdup(json_string_value(text) != NULL ?
		    json_string_value(text) : "");
	if (sc != NULL && r != NULL)
		*sc = json_incref(json_object_get(r, "structuredContent"));
	json_decref(res);
	return out;
}


/* initialize, pty_open, the probe, pty_close. */
static int
converse(struct linerpc *m, json_t *facts)
{
	json_t *res, *sc = NULL;
	char *text, *session;
	const char *version;
	int ok;

	/* A program: it asks for structuredContent (ADR 0006). */
	res = linerpc_call(m, "initialize", json_pack("{s:s, s:{s:{s:{}}}, "
	    "s:{s:s, s:s}}", "protocolVersion", "2025-06-18", "capabilities",
	    "experimental", "aiterm/structuredContent", "clientInfo",
	    "name", "aiterm-setup", "version", PACKAGE_VERSION), STEP_MS);
	if (res == NULL)
		return -1;
	version = json_string_value(json_object_get(json_object_get(
	    json_object_get(res, "result"), "serverInfo"), "version"));
	json_object_set_new(facts, "server_version", json_string(version ?
	    version : "?"));
	json_decref(res);
	if (linerpc_notify(m, "notifications/initialized", NULL) != 0)
		return -1;
	if ((text = tool(m, "pty_open", json_object(), &sc)) == NULL)
		return -1;
	free(text);
	session = xstrdup(json_string_value(json_object_get(sc,
	    "session_id")) ? json_string_value(json_object_get(sc,
	    "session_id")) : "");
	json_decref(sc);
	if (*session == '\0') {
		why(m, xstrdup("pty_open gave no session_id"));
		free(session);
		return -1;
	}
	text = tool(m, "pty_send", json_pack("{s:s, s:s, s:b, s:i}",
	    "session_id", session, "text", "sh -c 'echo " PROBE_WORD
	    "; exit 3'", "wait", 1, "timeout", 20), NULL);
	/* The output, then the exit line (ADR 0029). */
	ok = text != NULL && strstr(text, PROBE_WORD "\nexit 3") != NULL;
	if (text != NULL && !ok)
		why(m, xasprintf("the probe command came back without its "
		    "output or exit code %d: %s", PROBE_EXIT, text));
	free(text);
	text = tool(m, "pty_close", json_pack("{s:s}", "session_id",
	    session), NULL);
	json_object_set_new(facts, "session", json_string(session));
	free(session);
	if (text == NULL)
		return -1;
	free(text);
	return ok ? 0 : -1;
}

int
selftest_run(const char *server, json_t *env, json_t **facts, char **out)
{
	char *argv[] = { (char *)server, NULL };
	struct linerpc m;
	int rc, st;

	*facts = json_object();
	rc = linerpc_start(&m, argv, env, true) == 0 ? converse(&m, *facts) :
	    -1;
	st = linerpc_stop(&m, 10000);
	if (rc == 0 && st != 0)
		why(&m, xasprintf("the server did not exit 0 when its stdin "
		    "closed (status %d)", st));
	json_object_set_new(*facts, "probe", json_string(rc == 0 && st == 0 ?
	    "passed" : "failed"));
	*out = m.why;
	return rc == 0 && st == 0 ? 0 : -1;
}
