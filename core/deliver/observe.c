#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/answer.h"
#include "deliver/claim.h"
#include "deliver/expire.h"
#include "deliver/observe.h"
#include "deliver/receiver.h"
#include "plugin/host.h"
#include "util/loop.h"
#include "util/xmalloc.h"

struct observer {
	struct delivery	 d;
	int		 lock_fd;
	struct agent_answer_wait *local;	/* the turn read here */
	void		*far;		/* the relayed read in flight */
	uv_timer_t	 retry;		/* a relayed read's next try */
	unsigned	 retry_ms;	/* 0: no timer */
	struct observer	*next;
};

/* Every observer of this process, for delivery_observe_stop(). */
static struct observer *observers;
static bool stopping;
static struct delivery_far_reader far_reader;

static void	observe(struct observer *ob);

static void
observer_closed(uv_handle_t *h)
{
	free(h->data);
}

static void
observer_free(struct observer *ob)
{
	struct observer **pp;

	for (pp = &observers; *pp != NULL && *pp != ob; pp = &(*pp)->next)
		;
	if (*pp != NULL)
		*pp = ob->next;
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

/*
 * The turn's end as read (state as agent/answer.h names it; NULL for a
 * read that failed, text then its message): the record stored.
 */
static void
observed(struct observer *ob, const char *state, const char *text)
{
	struct aiterm_error err = ERROR_INIT;

	if (state == NULL)
		delivery_store(&ob->d, DELIVERY_FAILED, "read_failed", text,
		    strlen(text), &err);
	else if (strcmp(state, "running") == 0)
		delivery_store(&ob->d, DELIVERY_FAILED, "timeout", text,
		    strlen(text), &err);
	else if (delivery_store(&ob->d, DELIVERY_READY, state, text,
	    strlen(text), &err) == 0)
		hand_over(&ob->d);
	error_clear(&err);
	observer_free(ob);
}

/*
 * The outcome a record keeps: the turn's state, or rate_limited for a turn
 * the vendor's usage limit ended (AGT-LIMIT; ADR 0011).
 */
static const char *
outcome_of(json_t *fields)
{
	const char *state = json_string_value(json_object_get(fields,
	    "state")), *reason = json_string_value(json_object_get(fields,
	    "reason"));

	if (state != NULL && strcmp(state, "error") == 0 && reason != NULL &&
	    strcmp(reason, "rate_limited") == 0)
		return reason;
	return state;
}

static void
answered(void *arg, struct agent_answer *a)
{
	struct observer *ob = arg;
	char *failed;

	ob->local = NULL;
	if (a->status == 0) {
		observed(ob, outcome_of(a->fields), a->text);
		return;
	}
	/* The same words as the pty_read tool's error. */
	failed = xasprintf("pty_read: %s", error_msg(&a->err));
	observed(ob, NULL, failed);
	free(failed);
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

static const char *
result_text(json_t *result)
{
	const char *t = json_string_value(json_object_get(json_array_get(
	    json_object_get(result, "content"), 0), "text"));

	return t != NULL ? t : "";
}

/* A read that failed over there again later, if the host may come back. */
static bool
retried(struct observer *ob, const char *text)
{
	size_t i;

	if (session_now_ms() + ob->retry_ms >= deadline_ms(&ob->d))
		return false;
	for (i = 0; i < sizeof transient / sizeof transient[0]; i++) {
		if (strstr(text, transient[i]) == NULL)
			continue;
		if (ob->retry_ms == 0) {
			uv_timer_init(core_loop(), &ob->retry);
			ob->retry.data = ob;
			ob->retry_ms = RETRY_FIRST_MS;
		} else if ((ob->retry_ms *= 2) > RETRY_MAX_MS)
			ob->retry_ms = RETRY_MAX_MS;
		host_get()->log(AITERM_LOG_INFO, "deliver", "%s: %s again in "
		    "%u ms: %s", ob->d.id, ob->d.remote, ob->retry_ms, text);
		uv_timer_start(&ob->retry, retry_due, ob->retry_ms, 0);
		return true;
	}
	return false;
}

static void
observed_far(void *arg, int status, const struct aiterm_error *err,
    json_t *result)
{
	struct observer *ob = arg;
	const char *text = status != 0 ? error_msg(err) : result_text(result);
	const char *state = outcome_of(json_object_get(result,
	    "structuredContent"));
	bool failed = status != 0 ||
	    json_is_true(json_object_get(result, "isError"));

	ob->far = NULL;
	/* Cancelled (our end stopping, or theirs): the next one takes over. */
	if (stopping || (failed && strcmp(text, "cancelled") == 0)) {
		observer_free(ob);
		return;
	}
	/* A relayed wait lasts at most READ_MAX_S: the next one goes on. */
	if (!failed && state != NULL && strcmp(state, "running") == 0 &&
	    session_now_ms() < deadline_ms(&ob->d)) {
		observe(ob);
		return;
	}
	if (failed && retried(ob, text))
		return;
	observed(ob, failed ? NULL : state != NULL ? state : "ended", text);
}

/*
 * The turn's end, read where the child runs: here with the turn-answer
 * engine, on another host with a relayed pty_read (remote/handover.h).
 */
static void
observe(struct observer *ob)
{
	const struct agent_answer_to to = { answered, NULL, ob };
	const struct delivery *d = &ob->d;
	long long left = (deadline_ms(d) - session_now_ms()) / 1000;
	struct agent_answer_wait *w;
	void *far;
	json_t *args;

	/*
	 * A read that ends at once (the session gone, a host that cannot be
	 * reached) has called back already, and ob may be freed: only a
	 * handle, not NULL, is kept.
	 */
	if (d->remote[0] == '\0') {
		w = agent_answer_wait(core_loop(), d->session, d->turn,
		    (double)(left > 1 ? left : 1), true, &to);
		if (w != NULL)
			ob->local = w;
		return;
	}
	if (far_reader.read == NULL) {
		observed(ob, NULL, "pty_read: no relay to read another host's "
		    "turn in this program");
		return;
	}
	if (left > READ_MAX_S)
		left = READ_MAX_S;
	args = json_pack("{s:s, s:b, s:b, s:I, s:i}", "session_id",
	    d->session, "agent_transcript", 1, "wait", 1, "timeout",
	    (json_int_t)(left > 1 ? left : 1), "turn", (int)d->turn);
	if ((far = far_reader.read(d->remote, args, observed_far, ob)) != NULL)
		ob->far = far;
}

void
delivery_observe(const struct delivery *d, int lock_fd)
{
	struct observer *ob = xcalloc(1, sizeof *ob);

	ob->d = *d;
	ob->lock_fd = lock_fd;
	ob->next = observers;
	observers = ob;
	observe(ob);
}

void
delivery_far_reader_set(const struct delivery_far_reader *r)
{
	far_reader = *r;
}

void
delivery_observe_stop(void)
{
	struct observer *ob, *next;

	stopping = true;
	/* Each is reading a turn or waiting to read it again (retry). */
	for (ob = observers; ob != NULL; ob = next) {
		next = ob->next;
		if (ob->local != NULL)
			agent_answer_cancel(ob->local);
		else if (ob->far != NULL)
			far_reader.cancel(ob->far);
		observer_free(ob);
	}
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
	    (d.state != DELIVERY_WAITING &&
	    delivery_state(&d) != DELIVERY_READY) ||
	    (fd = delivery_take(&d)) < 0) {
		error_clear(&err);
		return;
	}
	if (d.state == DELIVERY_READY) {
		hand_over(&d);
		close(fd);
		return;
	}
	if (d.turn == 0) {
		/* Its owner died between saving it and the send's answer. */
		delivery_store(&d, DELIVERY_UNKNOWN, "send_interrupted", "", 0,
		    &err);
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
