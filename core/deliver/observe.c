#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/expire.h"
#include "deliver/observe.h"
#include "deliver/receiver.h"
#include "plugin/host.h"
#include "tools/tool.h"
#include "util/xmalloc.h"

struct observer {
	struct delivery	 d;
	int		 lock_fd;
};

/* A ready record's answer to its receiver, when that hands it over. */
static void
hand_over(const struct delivery *d)
{
	const struct aiterm_receiver_ops *r = receiver_of_kind(d->parent);
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_parent parent;

	if (r == NULL || r->ready == NULL)
		return;
	delivery_parent(d, &parent);
	if (r->ready(host_get(), d->id, &parent, &err) != 0)
		host_get()->log(AITERM_LOG_ERROR, "deliver", "%s: %s", d->id,
		    error_msg(&err));
	error_clear(&err);
}

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
	    "ended", text, strlen(text), &err) == 0)
		hand_over(&ob->d);
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
	    "timeout", DELIVERY_TTL_S, "turn", (int)d->turn), observed, ob);
}

/*
 * A record whose owner is gone, taken over when its lock is free: a
 * waiting one is observed again from its boundary; a ready one goes to
 * its receiver again (what that starts claims it exclusively, so a body
 * already handed over is not handed over twice), unless nobody claimed
 * it for DELIVERY_TTL_S: then it is failed, whoever its owner.
 */
static void
resume_one(const char *id, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct delivery d;
	int fd;

	(void)arg;
	if (delivery_read(id, &d, &err) != 0 || delivery_expire(&d) ||
	    (strcmp(d.state, "waiting") != 0 &&
	    strcmp(delivery_state(&d), "ready") != 0) ||
	    (fd = delivery_take(id)) < 0) {
		error_clear(&err);
		return;
	}
	if (strcmp(d.state, "ready") == 0) {
		hand_over(&d);
		close(fd);
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
