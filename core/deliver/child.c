#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "deliver/child.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

struct owed {
	const char		*key;	/* the child's (delivery_child_key) */
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
	char key[CHILD_KEY_MAX];
	struct delivery d;

	if (o->found || delivery_read(id, &d, &err) != 0) {
		error_clear(&err);
		return;
	}
	delivery_child_key(d.remote, d.session, key, sizeof key);
	if (strcmp(key, o->key) == 0 &&
	    d.state == DELIVERY_WAITING && !same_parent(&d, o->by)) {
		o->to = d;
		o->found = true;
	}
}

int
child_claim(const char *host, const char *session, const struct delivery *d,
    struct aiterm_error *err)
{
	enum delivery_place place = host != NULL && *host != '\0' ?
	    DELIVERY_RELAYED : DELIVERY_HERE;
	char *dir = delivery_dir(place), *path, key[CHILD_KEY_MAX];
	struct owed o = { .key = key, .by = d };
	int fd = -1;

	delivery_child_key(host, session, key, sizeof key);
	path = xasprintf("%s/child-%s.lock", dir, key);
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
		    "sending to session %s%s%s right now; nothing was sent, "
		    "try again", session, place == DELIVERY_RELAYED ? " on " :
		    "", place == DELIVERY_RELAYED ? host : "");
		return -2;
	}
	delivery_each(check_one, &o);
	if (o.found) {
		close(fd);
		error_set(err, "CHILD_CLAIMED: session %s%s%s owes its "
		    "answer to another parent (%s, delivery %s); nothing was "
		    "sent (read it with pty_read, or send once %s is done)",
		    session, place == DELIVERY_RELAYED ? " on " : "",
		    place == DELIVERY_RELAYED ? host : "", o.to.parent, o.to.id,
		    o.to.id);
		return -2;
	}
	return fd;
}
