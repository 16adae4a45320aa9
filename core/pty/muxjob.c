#include <stdlib.h>
#include <uv.h>

#include "pty/muxjob.h"
#include "util/loop.h"
#include "util/xmalloc.h"

struct job {
	void		(*work)(void *);
	void		(*done)(void *);
	void		*arg;
	struct job	*next;
};

/* Jobs to run (todo) and run (finished), and how many are in flight. */
static struct {
	uv_mutex_t	 lock;
	uv_cond_t	 cond;		/* todo gained a job, or one finished */
	struct job	*todo, *todo_tail;
	struct job	*finished;
	unsigned	 inflight;
	uv_thread_t	 thread;
	uv_async_t	 wake;		/* finished gained a job */
	int		 started;
} q;

static uv_mutex_t op_lock;
static uv_once_t op_once = UV_ONCE_INIT;
static const struct aiterm_mux_ops *real_ops;

static void
op_lock_init(void)
{
	uv_mutex_init(&op_lock);
}

static void
worker(void *unused)
{
	struct job *j;

	(void)unused;
	for (;;) {
		uv_mutex_lock(&q.lock);
		while (q.todo == NULL)
			uv_cond_wait(&q.cond, &q.lock);
		j = q.todo;
		if ((q.todo = j->next) == NULL)
			q.todo_tail = NULL;
		uv_mutex_unlock(&q.lock);
		j->work(j->arg);
		uv_mutex_lock(&q.lock);
		j->next = q.finished;
		q.finished = j;
		uv_cond_broadcast(&q.cond);
		uv_mutex_unlock(&q.lock);
		uv_async_send(&q.wake);
	}
}

/* The finished jobs' done callbacks, oldest first. */
static void
finish(void)
{
	struct job *list, *rev = NULL, *j;

	uv_mutex_lock(&q.lock);
	list = q.finished;
	q.finished = NULL;
	uv_mutex_unlock(&q.lock);
	while (list != NULL) {
		j = list;
		list = j->next;
		j->next = rev;
		rev = j;
	}
	while ((j = rev) != NULL) {
		rev = j->next;
		j->done(j->arg);
		free(j);
		if (--q.inflight == 0)
			uv_unref((uv_handle_t *)&q.wake);
	}
}

static void
woken(uv_async_t *a)
{
	(void)a;
	finish();
}

static void
start(void)
{
	uv_mutex_init(&q.lock);
	uv_cond_init(&q.cond);
	uv_async_init(core_loop(), &q.wake, woken);
	uv_unref((uv_handle_t *)&q.wake);
	if (uv_thread_create(&q.thread, worker, NULL) != 0)
		abort();
	q.started = 1;
}

void
muxjob_run(void (*work)(void *), void (*done)(void *), void *arg)
{
	struct job *j = xcalloc(1, sizeof *j);

	if (!q.started)
		start();
	j->work = work;
	j->done = done;
	j->arg = arg;
	/* A job in flight keeps the loop running until its done has run. */
	if (q.inflight++ == 0)
		uv_ref((uv_handle_t *)&q.wake);
	uv_mutex_lock(&q.lock);
	if (q.todo_tail != NULL)
		q.todo_tail->next = j;
	else
		q.todo = j;
	q.todo_tail = j;
	uv_cond_signal(&q.cond);
	uv_mutex_unlock(&q.lock);
}

void
muxjob_drain(void)
{
	if (!q.started)
		return;
	for (;;) {
		finish();
		if (q.inflight == 0)
			return;
		uv_mutex_lock(&q.lock);
		while (q.finished == NULL)
			uv_cond_wait(&q.cond, &q.lock);
		uv_mutex_unlock(&q.lock);
	}
}

/* The ops table behind the lock. */

#define LOCKED(call)	do {						\
	int rc_;							\
	uv_mutex_lock(&op_lock);					\
	rc_ = (call);							\
	uv_mutex_unlock(&op_lock);					\
	return rc_;							\
} while (0)

static int
l_probe(const struct aiterm_host *h, struct aiterm_mux_info *info,
    struct aiterm_error *err)
{
	LOCKED(real_ops->probe(h, info, err));
}

static int
l_create(const struct aiterm_host *h, const struct aiterm_mux_create *o,
    struct aiterm_error *err)
{
	LOCKED(real_ops->create(h, o, err));
}

static int
l_send_text(const struct aiterm_host *h, const char *s, const char *b,
    size_t len, int enter, struct aiterm_error *err)
{
	LOCKED(real_ops->send_text(h, s, b, len, enter, err));
}

static int
l_send_key(const struct aiterm_host *h, const char *s, const char *key,
    struct aiterm_error *err)
{
	LOCKED(real_ops->send_key(h, s, key, err));
}

static int
l_capture(const struct aiterm_host *h, const char *s, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	LOCKED(real_ops->capture(h, s, out, err));
}

static int
l_pane_info(const struct aiterm_host *h, const char *s,
    struct aiterm_pane_info *info, struct aiterm_error *err)
{
	LOCKED(real_ops->pane_info(h, s, info, err));
}

static int
l_list(const struct aiterm_host *h, aiterm_mux_list_cb cb, void *arg,
    struct aiterm_error *err)
{
	LOCKED(real_ops->list(h, cb, arg, err));
}

static int
l_set_env(const struct aiterm_host *h, const char *s, const char *k,
    const char *v, struct aiterm_error *err)
{
	LOCKED(real_ops->set_env(h, s, k, v, err));
}

static int
l_kill(const struct aiterm_host *h, const char *s, struct aiterm_error *err)
{
	LOCKED(real_ops->kill(h, s, err));
}

static const char *const *
l_key_names(void)
{
	return real_ops->key_names();
}

static int
l_paste(const struct aiterm_host *h, const char *s, const char *b, size_t len,
    struct aiterm_error *err)
{
	LOCKED(real_ops->paste(h, s, b, len, err));
}

static int
l_send_secret(const struct aiterm_host *h, const char *s, const char *b,
    size_t len, struct aiterm_error *err)
{
	LOCKED(real_ops->send_secret(h, s, b, len, err));
}

static int
l_pane_screen(const struct aiterm_host *h, const char *s,
    struct aiterm_pane_info *info, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	LOCKED(real_ops->pane_screen(h, s, info, out, err));
}

static struct aiterm_mux_ops locked;

const struct aiterm_mux_ops *
muxjob_locked(const struct aiterm_mux_ops *real, unsigned minor)
{
	uv_once(&op_once, op_lock_init);
	if (real_ops == real)
		return &locked;
	/* One multiplexer is loaded for the life of the process. */
	real_ops = real;
	locked.probe = real->probe ? l_probe : NULL;
	locked.create = real->create ? l_create : NULL;
	locked.send_text = real->send_text ? l_send_text : NULL;
	locked.send_key = real->send_key ? l_send_key : NULL;
	locked.capture = real->capture ? l_capture : NULL;
	locked.pane_info = real->pane_info ? l_pane_info : NULL;
	locked.list = real->list ? l_list : NULL;
	locked.set_env = real->set_env ? l_set_env : NULL;
	locked.kill = real->kill ? l_kill : NULL;
	locked.key_names = real->key_names ? l_key_names : NULL;
	locked.paste = real->paste ? l_paste : NULL;
	/* A member a plugin older than 2.5 does not have is never read. */
	locked.send_secret = minor >= 5 && real->send_secret ?
	    l_send_secret : NULL;
	locked.pane_screen = minor >= 5 && real->pane_screen ?
	    l_pane_screen : NULL;
	return &locked;
}
