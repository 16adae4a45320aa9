#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "deliver/claude.h"
#include "deliver/codex.h"
#include "mcp/server.h"
#include "plugin/host.h"
#include "state/stateroot.h"
#include "util/path.h"
#include "util/xmalloc.h"

static const char *
thread_of(json_t *meta)
{
	const char *t = json_string_value(json_object_get(json_object_get(
	    meta, "x-codex-turn-metadata"), "thread_id"));

	return t != NULL ? t : json_string_value(json_object_get(meta,
	    "threadId"));
}

bool
codex_parent_of(struct tool_call *call, struct delivery *d)
{
	const char *name = json_string_value(json_object_get(
	    tool_call_client_info(call), "name"));
	const char *thread = thread_of(tool_call_meta(call));
	const char *home = getenv("CODEX_HOME"), *h = getenv("HOME");

	if (name == NULL || strncmp(name, "codex", 5) != 0 ||
	    !claude_ref_valid(thread))
		return false;
	snprintf(d->conversation, sizeof d->conversation, "%s", thread);
	if (home != NULL && *home != '\0')
		snprintf(d->home, sizeof d->home, "%s", home);
	else
		snprintf(d->home, sizeof d->home, "%s/.codex", h ? h : "");
	return true;
}

static void
closed(uv_handle_t *h)
{
	free(h);
}

static void
exited(uv_process_t *p, int64_t status, int sig)
{
	(void)status;
	(void)sig;
	uv_close((uv_handle_t *)p, closed);
}

void
codex_parent_deliver(const struct delivery *d)
{
	uv_process_options_t o;
	uv_stdio_container_t io[3];
	uv_process_t *p = xcalloc(1, sizeof *p);
	char *hook = path_sibling("aiterm-hook", AITERM_BINDIR);
	char *argv[] = { hook, "codex-queue", "--state-dir",
	    (char *)state_root(), (char *)d->id, NULL };
	int rc;

	memset(&o, 0, sizeof o);
	memset(io, 0, sizeof io);
	io[0].flags = io[1].flags = io[2].flags = UV_IGNORE;
	o.file = hook;
	o.args = argv;
	o.stdio = io;
	o.stdio_count = 3;
	o.exit_cb = exited;
	o.flags = UV_PROCESS_DETACHED;
	if ((rc = uv_spawn(server_loop(), p, &o)) != 0) {
		host_get()->log(AITERM_LOG_ERROR, "deliver", "cannot start %s "
		    "for %s: %s", hook, d->id, uv_strerror(rc));
		uv_close((uv_handle_t *)p, closed);
	} else
		uv_unref((uv_handle_t *)p);
	free(hook);
}
