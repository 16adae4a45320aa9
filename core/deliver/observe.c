#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/expire.h"
#include "util/loop.h"
#include "deliver/observe.h"
#include "deliver/receiver.h"
#include "plugin/host.h"
#include "tools/tool.h"
#include "util/xmalloc.h"

struct observer {
	struct delivery	 d;
	int		 lock_fd;
	uv_timer_t	 retry;		/* a relayed read's next try */
	unsigned	 retry_ms;	/* 0: no timer */
};

static void	observe(struct observer *ob);

static void
observer_closed(uv_handle_t *h)
{
	free(h->data);
}

static void
observer_free(struct observer *ob)
{
	close(ob->lock_fd);
	if (ob->retry_ms == 0) {
		free(ob);
		return;
	}
	ob->retry.data = ob;
	uv_close((uv_handle_t *)&ob->retry, observer_closed);
}

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
	observer_free(ob);
}

/*
 * What a relayed read fails with while the host is away (ssh's own end,
 * no connection yet, a secret this server no longer holds): the same turn
 * is read again later, never resent.
 */
static const char *const transient[] = {
	"REMOTE_CONNECTION_LOST", "REMOTE_UNREACHABLE", "REMOTE_AUTH_FAILED",
};

/* The longest wait pty_read's schema allows (PTY_WAIT_PROPS). */
#define READ_MAX_S	3600
#define RETRY_FIRST_MS	1000
#define RETRY_MAX_MS	60000

static long long
deadline_ms(const struct delivery *d)
{
	return d->created_ms + (long long)DELIVERY_TTL_S * 1000;
}

static void
retry_due(uv_timer_t *t)
{
	observe(t->data);
}

static void
observed_remote(void *arg, json_t *result)
{
	struct observer *ob = arg;
	const char *text = result_text(result), *state;
	size_t i;

	/* A relayed wait lasts at most READ_MAX_S: the next one goes on. */
	state = json_string_value(json_object_get(json_object_get(result,
	    "structuredContent"), "state"));
	if (!json_is_true(json_object_get(result, "isError")) &&
	    state != NULL && strcmp(state, "running") == 0 &&
	    session_now_ms() < deadline_ms(&ob->d)) {
		observe(ob);
		return;
	}

	if (json_is_true(json_object_get(result, "isError")) &&
	    session_now_ms() + ob->retry_ms < deadline_ms(&ob->d)) {
		for (i = 0; i < sizeof transient / sizeof transient[0]; i++) {
			if (strstr(text, transient[i]) == NULL)
				continue;
			if (ob->retry_ms == 0) {
				uv_timer_init(core_loop(), &ob->retry);
				ob->retry.data = ob;
				ob->retry_ms = RETRY_FIRST_MS;
			} else if ((ob->retry_ms *= 2) > RETRY_MAX_MS)
				ob->retry_ms = RETRY_MAX_MS;
			host_get()->log(AITERM_LOG_INFO, "deliver", "%s: %s "
			    "again in %u ms: %s", ob->d.id, ob->d.remote,
			    ob->retry_ms, text);
			uv_timer_start(&ob->retry, retry_due, ob->retry_ms, 0);
			return;
		}
	}
	observed(arg, result);
}

/*
 * The turn's end, read where the child runs: here with the server's own
 * pty_read, on another host with a relayed one (remote/handover.h).
 */
static void
observe(struct observer *ob)
{
	const struct delivery *d = &ob->d;
	long long left = (deadline_ms(d) - session_now_ms()) / 1000;
	json_t *args;

	if (d->remote[0] != '\0' && left > READ_MAX_S)
		left = READ_MAX_S;
	args = json_pack("{s:s, s:b, s:b, s:I, s:i}", "session_id",
	    d->session, "agent_transcript", 1, "wait", 1, "timeout",
	    (json_int_t)(left > 1 ? left : 1), "turn", (int)d->turn);

	if (d->remote[0] == '\0') {
		tool_call_internal("pty_read", args, observed, ob);
		return;
	}
	json_object_set_new(args, "remote", json_string(d->remote));
	(void)tool_call_checked("pty_read", args, observed_remote, ob);
}

void
delivery_observe(const struct delivery *d, int lock_fd)
{
	struct observer *ob = xcalloc(1, sizeof *ob);

	ob->d = *d;
	ob->lock_fd = lock_fd;
	observe(ob);
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
