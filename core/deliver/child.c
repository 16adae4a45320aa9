#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "deliver/child.h"
#include "state/stateroot.h"

struct owed {
	const char		*session;
	const struct delivery	*by;	/* the new delivery (its parent) */
	struct delivery		 to;	/* a waiting one of another parent */
	bool			 found;
};

static bool
same_parent(const struct delivery *a, const struct delivery *b)
{
	return strcmp(a->parent, b->parent) == 0 &&
	    strcmp(a->conversation, b->conversation) == 0;
}

static void
check_one(const char *id, void *arg)
{
	struct owed *o = arg;
	struct aiterm_error err = ERROR_INIT;
	struct delivery d;

	if (o->found || delivery_read(id, &d, &err) != 0) {
		error_clear(&err);
		return;
	}
	if (strcmp(d.session, o->session) == 0 &&
	    d.state == DELIVERY_WAITING && !same_parent(&d, o->by)) {
		o->to = d;
		o->found = true;
	}
}

int
child_claim(const char *session, const struct delivery *d,
    struct aiterm_error *err)
{
	char *dir = delivery_dir(), *path;
	struct owed o = { .session = session, .by = d };
	int fd = -1;

	path = state_path("parent-deliveries/child-%s.lock", session);
	if (state_mkdir(dir, err) == 0 &&
	    (fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600)) < 0)
		error_set(err, "cannot lock child %s: %s", session,
		    strerror(errno));
	free(path);
	free(dir);
	if (fd < 0)
		return -1;
	/* Held only while a folder is read and a record written. */
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		error_set(err, "CHILD_CLAIM_BUSY: another server is "
		    "sending to session %s right now; nothing was sent, try "
		    "again", session);
		return -2;
	}
	delivery_each(check_one, &o);
	if (o.found) {
		close(fd);
		error_set(err, "CHILD_CLAIMED: session %s owes its "
		    "answer to another parent (%s, delivery %s); nothing was "
		    "sent (read it with pty_read, or send once %s is done)",
		    session, o.to.parent, o.to.id, o.to.id);
		return -2;
	}
	return fd;
}
