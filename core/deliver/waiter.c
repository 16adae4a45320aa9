#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "deliver/claim.h"
#include "deliver/waiter.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

#define REREAD_MS	1000	/* without inotify, or as a backstop */

/* A watch on the folder of d's record. */
static int
watch_open(const struct delivery *d)
{
#ifdef __linux__
	char *dir = delivery_dir(d->place);
	int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);

	if (fd >= 0 && inotify_add_watch(fd, dir, IN_CLOSE_WRITE |
	    IN_MOVED_TO | IN_CREATE) < 0) {
		close(fd);
		fd = -1;
	}
	free(dir);
	return fd;
#else
	(void)d;
	return -1;
#endif
}

static void
watch_wait(int fd, int ms)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	char drain[4096];

	if (fd < 0) {
		usleep((useconds_t)ms * 1000);
		return;
	}
	if (poll(&pf, 1, ms) > 0)
		while (read(fd, drain, sizeof drain) > 0)
			;
}

enum waited
delivery_wait(const char *id, long long deadline_ms, bool (*stop)(void *),
    void *arg, struct delivery *d, struct aiterm_error *err)
{
	int fd = -1, left;
	enum waited w;

	for (;;) {
		if (delivery_read(id, d, err) != 0) {
			w = WAITED_GONE;
			break;
		}
		if (fd < 0)
			fd = watch_open(d);
		/* As a reader sees it: handed over, or a hand-over cut. */
		delivery_seen(d);
		if (d->state == DELIVERY_READY ||
		    d->state == DELIVERY_SUBMITTED) {
			w = WAITED_READY;
			break;
		}
		if (d->state == DELIVERY_FAILED ||
		    d->state == DELIVERY_UNKNOWN) {
			w = WAITED_FAILED;
			break;
		}
		if (stop != NULL && stop(arg)) {
			w = WAITED_STOPPED;
			break;
		}
		left = deadline_ms < 0 ? REREAD_MS : (int)(deadline_ms -
		    session_now_ms());
		if (left <= 0) {
			w = WAITED_TIMEOUT;
			break;
		}
		watch_wait(fd, left < REREAD_MS ? left : REREAD_MS);
	}
	if (fd >= 0)
		close(fd);
	return w;
}
