/*
 * Reading stdin, framing lines, dispatching them, and writing replies.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/observe.h"
#include "mcp/jsonrpc.h"
#include "mcp/server-int.h"
#include "pty/muxjob.h"
#include "pty/secretpage.h"
#include "remote/handover.h"
#include "state/errtally.h"
#include "util/buf.h"
#include "util/loop.h"

struct server *the_server;

static const char *const level_names[] = {
	[AITERM_LOG_DEBUG] = "debug",
	[AITERM_LOG_INFO] = "info",
	[AITERM_LOG_NOTICE] = "notice",
	[AITERM_LOG_WARNING] = "warning",
	[AITERM_LOG_ERROR] = "error",
};

/* Blocking write of the whole buffer, waiting out a non-blocking stdout. */
static int
write_all(int fd, const char *p, size_t len)
{
	struct pollfd pfd = { .fd = fd, .events = POLLOUT };
	ssize_t n;

	while (len > 0) {
		n = write(fd, p, len);
		if (n >= 0) {
			p += n;
			len -= (size_t)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			poll(&pfd, 1, -1);
			continue;
		}
		return -1;
	}
	return 0;
}

void
server_send(json_t *msg)
{
	char *text;
	size_t len;
	struct aiterm_buf line = BUF_INIT;

	text = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (text == NULL)
		return;
	len = strlen(text);
	buf_add(&line, text, len);
	buf_addc(&line, '\n');
	free(text);
	if (write_all(STDOUT_FILENO, line.data, line.len) != 0 &&
	    the_server != NULL && !the_server->stopping) {
		/* The client is gone (EPIPE): stop; sessions live on. */
		errtally_note(ERRTALLY_STDOUT_CLOSED);
		fprintf(stderr, "aiterm-mcp: stdout closed (%s); exiting\n",
		    strerror(errno));
		server_stop(0);
	}
	buf_free(&line);
}

void
server_log(enum aiterm_log_level level, const char *logger,
    const char *fmt, ...)
{
	struct server *s = the_server;
	va_list ap;
	char *text;

	if (s == NULL || !s->initialized || level < s->log_level ||
	    level > AITERM_LOG_ERROR)
		return;
	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	if (text == NULL)
		return;
	if (s->local)		/* CTL-CLI: stdout is the command's */
		fprintf(stderr, "aiterm: %s: %s: %s\n", level_names[level],
		    logger, text);
	else
		server_send(jsonrpc_notification("notifications/message",
		    json_pack("{s:s, s:s, s:s}", "level", level_names[level],
		    "logger", logger, "data", text)));
	free(text);
}

static void
dispatch(json_t *root)
{
	struct jsonrpc_msg msg;
	const struct method *m;

	jsonrpc_classify(root, &msg);
	switch (msg.kind) {
	case JSONRPC_INVALID:
		server_send(jsonrpc_error(msg.id, msg.code, "%s", msg.message));
		return;
	case JSONRPC_RESPONSE:
		/* Our only requests: elicitations (issue 36). */
		elicit_response(msg.id, json_object_get(root, "result"),
		    json_object_get(root, "error"));
		return;
	case JSONRPC_NOTIFICATION:
		m = method_find(msg.method);
		if (m != NULL && m->notification != NULL)
			m->notification(msg.params);
		return;		/* never answered, even when unknown */
	case JSONRPC_REQUEST:
		break;
	}
	m = method_find(msg.method);
	if (m == NULL || m->request == NULL) {
		server_send(jsonrpc_error(msg.id, JSONRPC_METHOD_NOT_FOUND,
		    "Method not found: %s", msg.method));
		return;
	}
	if (!m->before_init && !the_server->initialized) {
		server_send(jsonrpc_error(msg.id, JSONRPC_INVALID_REQUEST,
		    "Invalid Request: server not initialized; send "
		    "initialize first"));
		return;
	}
	if (msg.params != NULL && !json_is_object(msg.params)) {
		server_send(jsonrpc_error(msg.id, JSONRPC_INVALID_PARAMS,
		    "Invalid params: params must be an object"));
		return;
	}
	m->request(msg.id, msg.params);
}

static bool
blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (strchr(" \t\r", line[i]) == NULL)
			return false;
	}
	return true;
}

static void
on_line(void *arg, const char *line, size_t len)
{
	json_error_t jerr;
	json_t *root, *id;
	const char *what;

	(void)arg;
	if (the_server->stopping || blank(line, len))
		return;
	root = json_loadb(line, len, JSON_DECODE_ANY, &jerr);
	if (root == NULL && (what = jsonrpc_beyond_limits(line, len, &jerr,
	    &id)) != NULL) {
		/* JSON, only beyond the parser's limits: answer its id. */
		server_send(jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
		    "Invalid params: %s (at line %d, column %d)", what,
		    jerr.line, jerr.column));
		json_decref(id);
		return;
	}
	if (root == NULL) {
		server_send(jsonrpc_error(NULL, JSONRPC_PARSE_ERROR,
		    "Parse error: %s at line %d, column %d", jerr.text,
		    jerr.line, jerr.column));
		return;
	}
	dispatch(root);
	json_decref(root);
}

static void
on_too_large(void *arg, size_t total)
{
	(void)arg;
	server_send(jsonrpc_error(NULL, JSONRPC_INVALID_REQUEST,
	    "Invalid Request: message too large: %zu bytes exceeds the "
	    "limit of %zu bytes (--max-message-bytes)", total,
	    the_server->opts.max_message));
}

static void
on_eof(void)
{
	framer_finish(&the_server->framer);
	server_stop(0);
}

static void
alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
	static char chunk[65536];

	(void)h;
	(void)suggested;
	buf->base = chunk;
	buf->len = sizeof chunk;
}

static void
read_cb(uv_stream_t *stream, ssize_t n, const uv_buf_t *buf)
{
	(void)stream;
	if (n > 0)
		framer_feed(&the_server->framer, buf->base, (size_t)n);
	else if (n < 0)
		on_eof();
}

static void file_read_cb(uv_fs_t *req);

static void
file_read_next(void)
{
	struct server *s = the_server;
	uv_buf_t b = uv_buf_init(s->file_buf, sizeof s->file_buf);

	uv_fs_read(s->loop, &s->file_req, STDIN_FILENO, &b, 1, -1,
	    file_read_cb);
}

static void
file_read_cb(uv_fs_t *req)
{
	ssize_t n = req->result;

	uv_fs_req_cleanup(req);
	if (n > 0 && !the_server->stopping) {
		framer_feed(&the_server->framer, the_server->file_buf,
		    (size_t)n);
		if (!the_server->stopping)
			file_read_next();
		return;
	}
	if (!the_server->stopping)
		on_eof();
}

static void
on_signal(uv_signal_t *h, int signum)
{
	(void)h;
	fprintf(stderr, "aiterm-mcp: %s received; exiting\n",
	    strsignal(signum));
	server_stop(0);
}

/*
 * The signals that end the server the orderly way: SIGHUP too (a closed
 * terminal, issue 37), so that a send on its way is typed whole and its
 * lock given back instead of being cut by the default action.
 */
static const int stop_signums[SERVER_STOP_SIGNALS] = {
	SIGTERM, SIGINT, SIGHUP,
};

void
server_stop_signals(uv_loop_t *loop, uv_signal_t *h, uv_signal_cb cb,
    void *data)
{
	size_t i;

	for (i = 0; i < SERVER_STOP_SIGNALS; i++) {
		uv_signal_init(loop, &h[i]);
		h[i].data = data;
		uv_signal_start(&h[i], cb, stop_signums[i]);
		uv_unref((uv_handle_t *)&h[i]);
	}
}

void
server_stop(int status)
{
	struct server *s = the_server;

	if (s->stopping)
		return;
	s->stopping = true;
	s->exit_status = status;
	calls_cancel_all();
	delivery_observe_stop();
	/* Calls whose multiplexer work is in flight finish now. */
	muxjob_drain();
	secret_page_close();
	if (!s->in_is_file)
		uv_read_stop((uv_stream_t *)&s->in);
	uv_stop(s->loop);
}

static int
open_stdin(struct server *s)
{
	uv_handle_type t = uv_guess_handle(STDIN_FILENO);
	int rc;

	switch (t) {
	case UV_TTY:
		rc = uv_tty_init(s->loop, &s->in.tty, STDIN_FILENO, 1);
		break;
	case UV_NAMED_PIPE:
		rc = uv_pipe_init(s->loop, &s->in.pipe, 0);
		if (rc == 0)
			rc = uv_pipe_open(&s->in.pipe, STDIN_FILENO);
		break;
	case UV_FILE:
		s->in_is_file = true;
		file_read_next();
		return 0;
	default:
		fprintf(stderr, "aiterm-mcp: stdin is not a pipe, a terminal "
		    "or a file\n");
		return -1;
	}
	if (rc == 0)
		rc = uv_read_start((uv_stream_t *)&s->in, alloc_cb, read_cb);
	if (rc != 0)
		fprintf(stderr, "aiterm-mcp: cannot read stdin: %s\n",
		    uv_strerror(rc));
	return rc == 0 ? 0 : -1;
}

void
server_init(struct server *s, const struct server_options *opts,
    uv_loop_t *loop)
{
	memset(s, 0, sizeof *s);
	the_server = s;
	s->opts = *opts;
	s->loop = loop;
	core_loop_set(loop);
	/* A relayed turn's delivery is read through the relay. */
	remote_deliveries_init();
	elicit_init();
	s->log_level = AITERM_LOG_WARNING;
	framer_init(&s->framer, opts->max_message, on_line, on_too_large,
	    NULL);
}

void
server_fini(struct server *s)
{
	framer_free(&s->framer);
	json_decref(s->client_info);
	json_decref(s->client_caps);
	s->client_info = s->client_caps = NULL;
	the_server = NULL;
	core_loop_set(NULL);
}

int
server_run(const struct server_options *opts)
{
	static struct server s;

	server_init(&s, opts, uv_default_loop());
	signal(SIGPIPE, SIG_IGN);
	server_stop_signals(s.loop, s.stop_signals, on_signal, NULL);
	if (open_stdin(&s) != 0)
		return 1;
	uv_run(s.loop, UV_RUN_DEFAULT);
	server_fini(&s);
	return s.exit_status;
}
