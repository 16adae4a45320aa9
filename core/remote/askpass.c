#include "config.h"

#include <sys/types.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "proc/proc.h"
#include "remote/askpass.h"
#include "util/buf.h"
#include "util/loop.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define PROMPT_MAX	1024
/*
 * Answers one ssh gets at most.  It runs with NumberOfPasswordPrompts=1,
 * so it asks once for each thing the secret can be: a key's passphrase,
 * a password, a keyboard-interactive password.  A secret that was none
 * of them is forgotten after that ssh fails (relay.c).
 */
#define ASKPASS_ANSWERS_MAX	3
/* Refusals written to stderr per socket; later ones are only counted. */
#define ASKPASS_LOGGED_MAX	4

struct askpass {
	uv_pipe_t	 listen;
	char		*path;
	char		*secret;
	long		 ssh_pid;	/* 0 until askpass_child */
	char		 ssh_start[PROC_START_ID_MAX];
	int		 answered, refused, refs;
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

/* The peer's uid and pid, as the kernel saw them at connect(2). */
static int
peer_cred(uv_pipe_t *p, uid_t *uid, long *pid)
{
	uv_os_fd_t fd;

	if (uv_fileno((uv_handle_t *)p, &fd) != 0)
		return -1;
#if defined(SO_PEERCRED)
	{
		struct ucred cr;
		socklen_t n = sizeof cr;

		if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &n) != 0)
			return -1;
		*uid = cr.uid;
		*pid = (long)cr.pid;
	}
#elif defined(LOCAL_PEERPID)
	{
		gid_t gid;
		pid_t pp;
		socklen_t n = sizeof pp;

		if (getpeereid(fd, uid, &gid) != 0 ||
		    getsockopt(fd, SOL_LOCAL, LOCAL_PEERPID, &pp, &n) != 0)
			return -1;
		*pid = (long)pp;
	}
#else
	return -1;	/* no peer pid: nobody is answered */
#endif
	return 0;
}

/*
 * Why the peer may not ask, or NULL when it may: only the askpass that
 * our ssh ran, a process of our uid whose parent is the very ssh we
 * spawned (its pid with the start identity it had then: not a process
 * that took the pid over), and only while that ssh has answers left.
 * OpenSSH forks the askpass itself (readpass.c), so the parent is
 * exactly that ssh, not some ancestor.
 */
static const char *
peer_refusal(const struct askpass *a, uid_t uid, long pid)
{
	struct proc_table t = PROC_TABLE_INIT;
	bool ssh_same = false, child = false;
	size_t i;

	if (uid != getuid())
		return "another user";
	if (a->ssh_pid <= 0)
		return "no ssh of ours runs yet";
	if (a->answered >= ASKPASS_ANSWERS_MAX)
		return "the ssh was answered as often as it asks";
	if (pid <= 0 || proc_tree_read(&t, a->ssh_pid) != 0) {
		proc_table_free(&t);
		return "its process cannot be read";
	}
	for (i = 0; i < t.n; i++) {
		if (t.procs[i].pid == a->ssh_pid)
			ssh_same = strcmp(t.procs[i].start_id,
			    a->ssh_start) == 0;
		else if (t.procs[i].pid == pid)
			child = t.procs[i].ppid == a->ssh_pid;
	}
	proc_table_free(&t);
	if (!ssh_same)
		return "the ssh it was for has ended";
	if (!child)
		return "not a process the ssh started";
	return NULL;
}

/* Only the askpass of our own ssh is answered; the rest is logged. */
static bool
peer_allowed(struct askpass *a, uv_pipe_t *p)
{
	const char *why;
	uid_t uid = (uid_t)-1;
	long pid = 0;

	why = peer_cred(p, &uid, &pid) != 0 ? "its credentials cannot be "
	    "read" : peer_refusal(a, uid, pid);
	if (why == NULL)
		return true;
	if (a->refused++ < ASKPASS_LOGGED_MAX)
		fprintf(stderr, "aiterm-mcp: askpass socket %s: refused pid "
		    "%ld uid %ld (%s); the secret was not given\n", a->path,
		    pid, (long)uid, why);
	return false;
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
	    prompt_answered(buf_str(&c->in)) && c->a->secret != NULL &&
	    c->a->answered < ASKPASS_ANSWERS_MAX) {
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
	    !peer_allowed(a, &c->pipe)) {
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

void
askpass_child(struct askpass *a, long pid)
{
	if (proc_start_id(pid, a->ssh_start, sizeof a->ssh_start) == 0)
		a->ssh_pid = pid;
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
