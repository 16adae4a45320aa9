#include <stdlib.h>
#include <string.h>

#include "pty/sendq.h"
#include "util/xmalloc.h"

/* A session's queue: only while it has slots. */
struct sendq {
	struct sendq		*next;
	char			*session;
	struct sendq_slot	*head;
};

static struct sendq *queues;

static struct sendq *
queue_of(const char *session)
{
	struct sendq *q;

	for (q = queues; q != NULL; q = q->next) {
		if (strcmp(q->session, session) == 0)
			return q;
	}
	q = xcalloc(1, sizeof *q);
	q->session = xstrdup(session);
	q->next = queues;
	queues = q;
	return q;
}

static void
queue_drop(struct sendq *gone)
{
	struct sendq **p;

	for (p = &queues; *p != NULL; p = &(*p)->next) {
		if (*p == gone) {
			*p = gone->next;
			free(gone->session);
			free(gone);
			return;
		}
	}
}

void
sendq_join(struct sendq_slot *slot, const char *session,
    void (*go)(struct sendq_slot *))
{
	struct sendq *q = queue_of(session);
	struct sendq_slot **p;

	slot->next = NULL;
	slot->q = q;
	slot->go = go;
	slot->head = 0;
	for (p = &q->head; *p != NULL; p = &(*p)->next)
		;
	*p = slot;
	if (q->head == slot) {
		slot->head = 1;
		go(slot);
	}
}

void
sendq_leave(struct sendq_slot *slot)
{
	struct sendq *q = slot->q;
	struct sendq_slot **p, *next;

	if (q == NULL)
		return;
	for (p = &q->head; *p != NULL && *p != slot; p = &(*p)->next)
		;
	if (*p == NULL)
		return;
	*p = slot->next;
	slot->q = NULL;
	next = q->head;
	if (next == NULL) {
		queue_drop(q);
		return;
	}
	if (!next->head) {
		next->head = 1;
		next->go(next);
	}
}

unsigned
sendq_ahead(const struct sendq_slot *slot)
{
	const struct sendq_slot *s;
	unsigned n = 0;

	if (slot->q == NULL)
		return 0;
	for (s = slot->q->head; s != NULL && s != slot; s = s->next)
		n++;
	return n;
}
