#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/syscall.h>
#endif
#include <uv.h>

#include "util/loop.h"
#include "util/watch.h"
#include "util/xmalloc.h"

struct path_watch {
	uv_fs_event_t	 ev;
	char		 target[PATH_MAX];
	char		 watched[PATH_MAX];	/* "" when nothing is */
	watch_cb	 cb;
	void		*arg;
	bool		 stopped;
};

/* The longest prefix of target (at a '/') that exists, into out. */
static void
deepest(const char *target, char *out, size_t size)
{
	struct stat st;
	char *slash;

	snprintf(out, size, "%s", target);
	while (out[0] != '\0' && stat(out, &st) != 0) {
		slash = strrchr(out, '/');
		if (slash == NULL || slash == out) {
			snprintf(out, size, "/");
			return;
		}
		*slash = '\0';
	}
}

static void on_event(uv_fs_event_t *h, const char *name, int events,
    int status);

/* Watch the deepest existing part of the target; true when it moved. */
static bool
rearm(struct path_watch *w)
{
	char now[PATH_MAX];

	deepest(w->target, now, sizeof now);
	if (strcmp(now, w->watched) == 0)
		return false;
	if (w->watched[0] != '\0')
		uv_fs_event_stop(&w->ev);
	snprintf(w->watched, sizeof w->watched, "%s", now);
	if (uv_fs_event_start(&w->ev, on_event, w->watched, 0) != 0)
		w->watched[0] = '\0';
	return true;
}

static void
on_event(uv_fs_event_t *h, const char *name, int events, int status)
{
	struct path_watch *w = h->data;

	(void)name;
	(void)events;
	(void)status;
	if (w->stopped)
		return;
	rearm(w);
	w->cb(w->arg);
}

struct path_watch *
path_watch_start(const char *target, watch_cb cb, void *arg)
{
	struct path_watch *w = xcalloc(1, sizeof *w);

	uv_fs_event_init(core_loop(), &w->ev);
	w->ev.data = w;
	w->cb = cb;
	w->arg = arg;
	snprintf(w->target, sizeof w->target, "%s", target);
	rearm(w);
	return w;
}

void
path_watch_retarget(struct path_watch *w, const char *target)
{
	if (strcmp(w->target, target) == 0)
		return;
	snprintf(w->target, sizeof w->target, "%s", target);
	rearm(w);
}

static void
closed(uv_handle_t *h)
{
	free(h->data);
}

void
path_watch_stop(struct path_watch *w)
{
	w->stopped = true;
	uv_fs_event_stop(&w->ev);
	uv_close((uv_handle_t *)&w->ev, closed);
}

struct pid_watch {
	uv_poll_t	 poll;
	int		 fd;
	watch_cb	 cb;
	void		*arg;
	bool		 stopped;
};

static void
on_exit_ready(uv_poll_t *h, int status, int events)
{
	struct pid_watch *w = h->data;

	(void)status;
	(void)events;
	if (w->stopped)
		return;
	uv_poll_stop(&w->poll);
	w->cb(w->arg);
}

struct pid_watch *
pid_watch_start(long pid, watch_cb cb, void *arg)
{
#if defined(__linux__) && defined(SYS_pidfd_open)
	struct pid_watch *w;
	int fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);

	if (pid <= 0 || fd < 0)
		return NULL;
	w = xcalloc(1, sizeof *w);
	w->fd = fd;
	w->cb = cb;
	w->arg = arg;
	if (uv_poll_init(core_loop(), &w->poll, fd) != 0) {
		close(fd);
		free(w);
		return NULL;
	}
	w->poll.data = w;
	uv_poll_start(&w->poll, UV_READABLE, on_exit_ready);
	return w;
#else
	(void)pid;
	(void)cb;
	(void)arg;
	return NULL;
#endif
}

static void
pid_closed(uv_handle_t *h)
{
	struct pid_watch *w = h->data;

	close(w->fd);
	free(w);
}

void
pid_watch_stop(struct pid_watch *w)
{
	if (w == NULL)
		return;
	w->stopped = true;
	uv_poll_stop(&w->poll);
	uv_close((uv_handle_t *)&w->poll, pid_closed);
}
