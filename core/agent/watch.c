#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uv.h>

#include "agent/watch.h"
#include "mcp/server.h"
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

	uv_fs_event_init(server_loop(), &w->ev);
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
