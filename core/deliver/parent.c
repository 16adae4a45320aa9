#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/child.h"
#include "deliver/observe.h"
#include "deliver/parent.h"
#include "plugin/host.h"
#include "state/stateroot.h"
#include "util/path.h"
#include "util/xmalloc.h"

#ifndef AITERM_BINDIR
#define AITERM_BINDIR "/usr/local/bin"
#endif

/* Why a dispatch has no record is cut at this many bytes, as it was. */
#define WHY_MAX	319

/*
 * The call's parent into d (its receiver's kind, or "wait", and what the
 * call tells of it); its receiver (NULL: none, the waiter).  With
 * prepare, also whether it can take an answer now: -1 with err if not.
 */
static int
parent_of_call(const struct call_origin *o, bool prepare, struct delivery *d,
    const struct aiterm_receiver_ops **r, struct aiterm_error *err)
{
	struct aiterm_parent parent;
	int rc = 0;

	*r = receiver_of_origin(o, &parent);
	if (prepare && *r != NULL && (*r)->prepare != NULL)
		rc = (*r)->prepare(host_get(), &parent, err);
	delivery_set_parent(d, &parent);
	snprintf(d->parent, sizeof d->parent, "%s", *r != NULL ? (*r)->kind :
	    "wait");
	return rc;
}

int
parent_delivery_check(const struct call_origin *o, struct aiterm_error *err)
{
	const struct aiterm_receiver_ops *r;
	struct delivery d;

	memset(&d, 0, sizeof d);
	return parent_of_call(o, true, &d, &r, err);
}

/* Why there is no record: err, cut at WHY_MAX bytes, into p->err. */
static void
no_record(struct parent_delivery *p, struct aiterm_error *err)
{
	error_set(&p->err, "%.*s", WHY_MAX, error_msg(err));
	error_clear(err);
}

int
parent_delivery_begin(struct parent_delivery *p, const struct call_origin *o,
    const char *session)
{
	struct aiterm_error err = ERROR_INIT;
	int child_fd, rc;

	memset(p, 0, sizeof *p);
	p->lock_fd = -1;
	if (parent_of_call(o, true, &p->d, &p->r, &err) != 0)
		goto refuse;
	if ((child_fd = child_claim(NULL, session, &p->d, &err)) == -2)
		goto refuse;
	if (child_fd < 0)
		goto without;
	rc = delivery_begin(session, &p->d, &p->lock_fd, &err);
	close(child_fd);
	if (rc == 0) {
		error_clear(&err);
		return 0;
	}
	p->lock_fd = -1;
without:
	/* The waiter can be done without; a receiver's promise cannot. */
	if (p->r == NULL) {
		no_record(p, &err);
		return 0;
	}
refuse:
	no_record(p, &err);
	return -1;
}

int
parent_child_free(const struct call_origin *o, const char *host,
    const char *session, struct aiterm_error *err)
{
	const struct aiterm_receiver_ops *r;
	struct delivery d;
	int fd;

	memset(&d, 0, sizeof d);
	parent_of_call(o, false, &d, &r, err);
	if ((fd = child_claim(host, session, &d, err)) == -2)
		return -1;
	if (fd >= 0)
		close(fd);
	error_clear(err);
	return 0;
}

/* A parent whose receiver hands the answer over by itself. */
static void
self_receipt(const struct parent_delivery *p, struct aiterm_buf *text,
    json_t *sc, const char *how)
{
	buf_printf(text, "delivery: %s waiting; the answer comes back by "
	    "itself (%s)\n", p->d.id, how);
	json_object_set_new(sc, "parent_delivery", json_pack("{s:s, s:s}",
	    "delivery_id", p->d.id, "state",
	    delivery_state_name(DELIVERY_WAITING)));
	json_object_set_new(sc, "wait_process", json_null());
	json_object_set_new(sc, "wait_command", json_null());
}

/* A parent without a receiver: the waiter's command line. */
static void
waiter_receipt(const struct parent_delivery *p, struct aiterm_buf *text,
    json_t *sc, const char *lead)
{
	struct aiterm_buf cmd = BUF_INIT;
	char *waiter = path_sibling("aiterm-wait", AITERM_BINDIR);
	json_t *argv;

	argv = json_pack("[s, s, s, s]", waiter, "--state-dir", state_root(),
	    p->d.id);
	buf_add_sq(&cmd, waiter);
	buf_adds(&cmd, " --state-dir ");
	buf_add_sq(&cmd, state_root());
	buf_printf(&cmd, " %s", p->d.id);
	buf_printf(text, "delivery: %s waiting; %s: %s\n", p->d.id, lead,
	    buf_str(&cmd));
	json_object_set_new(sc, "parent_delivery", json_pack("{s:s, s:s}",
	    "delivery_id", p->d.id, "state",
	    delivery_state_name(DELIVERY_WAITING)));
	json_object_set_new(sc, "wait_process", json_pack("{s:o}", "argv",
	    argv));
	json_object_set_new(sc, "wait_command", json_string(buf_str(&cmd)));
	buf_free(&cmd);
	free(waiter);
}

void
parent_delivery_sent(struct parent_delivery *p,
    const struct dispatch_result *d, struct aiterm_buf *text, json_t *sc)
{
	struct aiterm_error err = ERROR_INIT;
	char cursor[sizeof p->d.cursor];

	if (p->lock_fd < 0) {
		if (d->status == 0 && p->err.msg != NULL)
			buf_printf(text, "delivery: none (%s)\n",
			    error_msg(&p->err));
		return;
	}
	/* Nothing sent, or joined a running turn: no new boundary. */
	if (d->status != 0 || d->route == ROUTE_STEERED) {
		delivery_abandon(&p->d, p->lock_fd);
		p->lock_fd = -1;
		return;
	}
	agent_event_cursor(d->turn, d->index, cursor, sizeof cursor);
	if (parent_delivery_confirm(p, d->turn, cursor, text, sc, &err) != 0) {
		buf_printf(text, "delivery: none (%s)\n", error_msg(&err));
		error_clear(&err);
	}
}

/* The receipt's line (text) and fields (sc): the receiver's or the waiter's. */
static void
receipt(const struct parent_delivery *p, struct aiterm_buf *text, json_t *sc)
{
	if (p->r == NULL)
		waiter_receipt(p, text, sc, "its answer is printed by");
	else if (!p->r->offer_waiter)
		self_receipt(p, text, sc, p->r->how);
	else {
		struct aiterm_buf lead = BUF_INIT;

		buf_printf(&lead, "your next tool call gets the answer (%s); "
		    "if you end your turn first, run", p->r->how);
		waiter_receipt(p, text, sc, buf_str(&lead));
		json_object_set_new(sc, "wait_command", json_null());
		buf_free(&lead);
	}
}

int
parent_delivery_confirm(struct parent_delivery *p, unsigned turn,
    const char *cursor, struct aiterm_buf *text, json_t *sc,
    struct aiterm_error *err)
{
	struct aiterm_parent parent;

	p->d.turn = turn;
	snprintf(p->d.cursor, sizeof p->d.cursor, "%s", cursor);
	delivery_parent(&p->d, &parent);
	if (delivery_write(&p->d, err) != 0 || (p->r != NULL &&
	    p->r->linked != NULL && p->r->linked(host_get(), p->d.id, &parent,
	    err) != 0)) {
		delivery_abandon(&p->d, p->lock_fd);
		p->lock_fd = -1;
		return -1;
	}
	receipt(p, text, sc);
	delivery_observe(&p->d, p->lock_fd);
	p->lock_fd = -1;
	return 0;
}

int
parent_delivery_prepare(struct parent_delivery *p,
    const struct call_origin *o, struct aiterm_error *err)
{
	memset(p, 0, sizeof *p);
	p->lock_fd = -1;
	return parent_of_call(o, true, &p->d, &p->r, err);
}
