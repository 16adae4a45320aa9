#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "remote/askpass.h"
#include "util/buf.h"
#include "util/loop.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define PROMPT_MAX	1024

struct askpass {
	uv_pipe_t	 listen;
	char		*path;
	char		*secret;
	int		 answered, refs;
};

struct apconn {
	uv_pipe_t	 pipe;
	uv_write_t	 w;
	struct askpass	*a;
	struct aiterm_buf in;
	char		*reply;
	size_t		 replylen;
};

/* What ssh asks for that we answer: a key's passphrase or a password. */
static const char *const answered_prompts[] = {
	"passphrase for", "password:", "Password:", "password for",
};
/* And what we never answer, whatever else the prompt says. */
static const char *const refused_prompts[] = {
	"continue connecting", "(yes/no", "fingerprint", "Allow use of key",
};

void
secret_wipe(char *s)
{
	volatile char *p = s;

	if (s == NULL)
		return;
	while (*p != '\0')
		*p++ = '\0';
}

static bool
prompt_answered(const char *prompt)
{
	size_t i;

	for (i = 0; i < sizeof refused_prompts / sizeof refused_prompts[0];
	    i++) {
		if (strstr(prompt, refused_prompts[i]) != NULL)
			return false;
	}
	for (i = 0; i < sizeof answered_prompts / sizeof answered_prompts[0];
	    i++) {
		if (strstr(prompt, answered_prompts[i]) != NULL)
			return true;
	}
	return false;
}

static void
askpass_unref(struct askpass *a)
{
	if (--a->refs > 0)
		return;
	secret_wipe(a->secret);
	free(a->secret);
	free(a->path);
	free(a);
}

static void
conn_closed(uv_handle_t *hd)
{
	struct apconn *c = hd->data;

	if (c->reply != NULL) {
		memset(c->reply, 0, c->replylen);
		free(c->reply);
	}
	buf_free(&c->in);
	askpass_unref(c->a);
	free(c);
}

static void
conn_wrote(uv_write_t *w, int status)
{
	struct apconn *c = w->data;

	(void)status;
	uv_close((uv_handle_t *)&c->pipe, conn_closed);
}

/* Only our own user's processes may ask. */
static bool
peer_is_us(uv_pipe_t *p)
{
	uv_os_fd_t fd;
	uid_t uid;

	if (uv_fileno((uv_handle_t *)p, &fd) != 0)
		return false;
#ifdef SO_PEERCRED
	{
		struct ucred cr;
		socklen_t n = sizeof cr;

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &n) != 0)
			return false;
		uid = cr.uid;
	}
#else
	{
		gid_t gid;

		if (getpeereid(fd, &uid, &gid) != 0)
			return false;
	}
#endif
	return uid == getuid();
}

static void
conn_alloc(uv_handle_t *hd, size_t size, uv_buf_t *b)
{
	(void)hd;
	b->base = xmalloc(size);
	b->len = size;
}

/* The prompt, up to its newline; then the answer (or nothing) and close. */
static void
conn_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct apconn *c = s->data;
	uv_buf_t out;
	bool done = n < 0;

	if (n > 0) {
		buf_add(&c->in, b->base, (size_t)n);
		done = memchr(c->in.data, '\n', c->in.len) != NULL ||
		    c->in.len > PROMPT_MAX;
	}
	free(b->base);
	if (!done)
		return;
	uv_read_stop(s);
	if (c->in.len > 0 && c->in.len <= PROMPT_MAX &&
	    prompt_answered(buf_str(&c->in)) && c->a->secret != NULL) {
		c->replylen = strlen(c->a->secret);
		c->reply = xstrdup(c->a->secret);
		c->a->answered++;
	}
	c->w.data = c;
	out = uv_buf_init(c->reply != NULL ? c->reply : "",
	    (unsigned)c->replylen);
	if (uv_write(&c->w, s, &out, 1, conn_wrote) != 0)
		uv_close((uv_handle_t *)&c->pipe, conn_closed);
}

static void
on_connection(uv_stream_t *server, int status)
{
	struct askpass *a = server->data;
	struct apconn *c;

	if (status != 0)
		return;
	c = xcalloc(1, sizeof *c);
	c->a = a;
	a->refs++;
	uv_pipe_init(core_loop(), &c->pipe, 0);
	c->pipe.data = c;
	if (uv_accept(server, (uv_stream_t *)&c->pipe) != 0 ||
	    !peer_is_us(&c->pipe)) {
		uv_close((uv_handle_t *)&c->pipe, conn_closed);
		return;
	}
	uv_read_start((uv_stream_t *)&c->pipe, conn_alloc, conn_read);
}

static void
listen_closed(uv_handle_t *hd)
{
	askpass_unref(hd->data);
}

struct askpass *
askpass_start(const char *path, const char *secret, char **why)
{
	struct askpass *a;
	char *too_long;
	int rc;

	if ((too_long = path_socket_too_long(path, 0)) != NULL) {
		*why = xasprintf("cannot listen for the askpass helper: %s",
		    too_long);
		free(too_long);
		return NULL;
	}
	a = xcalloc(1, sizeof *a);
	a->path = xstrdup(path);
	a->secret = xstrdup(secret);
	a->refs = 1;
	uv_pipe_init(core_loop(), &a->listen, 0);
	a->listen.data = a;
	unlink(path);
	if ((rc = uv_pipe_bind(&a->listen, path)) != 0 ||
	    (rc = chmod(path, 0600) == 0 ? 0 : UV_EPERM) != 0 ||
	    (rc = uv_listen((uv_stream_t *)&a->listen, 4, on_connection))
	    != 0) {
		*why = xasprintf("cannot listen on %s for the askpass helper: "
		    "%s", path, uv_strerror(rc));
		unlink(path);
		uv_close((uv_handle_t *)&a->listen, listen_closed);
		return NULL;
	}
	return a;
}

int
askpass_answered(const struct askpass *a)
{
	return a->answered;
}

void
askpass_stop(struct askpass *a)
{
	unlink(a->path);
	secret_wipe(a->secret);
	free(a->secret);
	a->secret = NULL;
	uv_close((uv_handle_t *)&a->listen, listen_closed);
}
