#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/codex.h"
#include "deliver/observe.h"
#include "tools/tool.h"
#include "util/xmalloc.h"

/* A receiver waits this long for a turn (seed 000: 24 hours). */
#define OBSERVE_S	(24 * 3600)

struct observer {
	struct delivery	 d;
	int		 lock_fd;
};

static const char *
result_text(json_t *result)
{
	const char *t = json_string_value(json_object_get(json_array_get(
	    json_object_get(result, "content"), 0), "text"));

	return t != NULL ? t : "";
}

static void
observed(void *arg, json_t *result)
{
	struct observer *ob = arg;
	struct aiterm_error err = ERROR_INIT;
	const char *text = result_text(result), *state;
	json_t *sc = json_object_get(result, "structuredContent");

	state = json_string_value(json_object_get(sc, "state"));
	if (json_is_true(json_object_get(result, "isError"))) {
		/* The server is ending: the next one takes the record over. */
		if (strcmp(text, "cancelled") != 0)
			delivery_store(&ob->d, "failed", "read_failed", text,
			    strlen(text), &err);
	} else if (state != NULL && strcmp(state, "running") == 0) {
		delivery_store(&ob->d, "failed", "timeout", text,
		    strlen(text), &err);
	} else if (delivery_store(&ob->d, "ready", state != NULL ? state :
	    "ended", text, strlen(text), &err) == 0 &&
	    strcmp(ob->d.parent, "codex") == 0) {
		codex_parent_deliver(&ob->d);
	}
	error_clear(&err);
	close(ob->lock_fd);
	free(ob);
}

void
delivery_observe(const struct delivery *d, int lock_fd)
{
	struct observer *ob = xcalloc(1, sizeof *ob);

	ob->d = *d;
	ob->lock_fd = lock_fd;
	tool_call_internal("pty_read", json_pack("{s:s, s:b, s:b, s:i, s:i}",
	    "session_id", d->session, "agent_transcript", 1, "wait", 1,
	    "timeout", OBSERVE_S, "turn", (int)d->turn), observed, ob);
}

/* A waiting record: taken over when its owner's lock is free. */
static void
resume_one(const char *id, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct delivery d;
	int fd;

	(void)arg;
	if (delivery_read(id, &d, &err) != 0 ||
	    strcmp(d.state, "waiting") != 0 || (fd = delivery_take(id)) < 0) {
		error_clear(&err);
		return;
	}
	if (d.turn == 0) {
		/* Its owner died between saving it and the send's answer. */
		delivery_store(&d, "unknown", "send_interrupted", "", 0, &err);
		error_clear(&err);
		close(fd);
		return;
	}
	d.owner_pid = (long)getpid();
	proc_start_id(d.owner_pid, d.owner_start, sizeof d.owner_start);
	delivery_write(&d, &err);
	error_clear(&err);
	delivery_observe(&d, fd);
}

void
delivery_resume(void)
{
	delivery_each(resume_one, NULL);
}
