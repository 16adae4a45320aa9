/*
 * One queue of sends per session, in this server (PTY-SEND, issue 37):
 * sends to one session are typed in the order they were received, and a
 * waited send keeps its place at the head until its wait has ended, so
 * the next command is typed only once the result of the one before is
 * taken.  Other servers on the state root are kept out by the session's
 * send lock (pty/send.c); this queue orders the callers of one server.
 * Loop thread only.
 */
#ifndef AITERM_PTY_SENDQ_H
#define AITERM_PTY_SENDQ_H

struct sendq;

/* A place in a queue; lives in its owner (a send job). */
struct sendq_slot {
	struct sendq_slot	*next;
	struct sendq		*q;
	void			(*go)(struct sendq_slot *);
	int			 head;	/* go has been called */
};

/*
 * Join the session's queue.  go(slot) is called once the slot is at the
 * head: before this returns when the queue was empty, else from the
 * sendq_leave of the slot ahead.
 */
void		sendq_join(struct sendq_slot *slot, const char *session,
		    void (*go)(struct sendq_slot *));
/* Leave, at the head or still waiting; the next slot's go runs. */
void		sendq_leave(struct sendq_slot *slot);
/* Slots ahead of this one. */
unsigned	sendq_ahead(const struct sendq_slot *slot);

#endif
