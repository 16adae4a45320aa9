#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <uv.h>

#include "plugin/host.h"
#include "pty/muxjob.h"
#include "pty/output.h"
#include "pty/secretpage.h"
#include "pty/session.h"
#include "util/buf.h"
#include "util/http.h"
#include "util/loop.h"
#include "util/wipe.h"
#include "util/xmalloc.h"

#define TOKEN_BYTES	32		/* 256 bits */
#define TOKEN_HEX	(TOKEN_BYTES * 2)
#define SECRET_MAX	256		/* what one literal send takes */
#define CONNS_MAX	16
#define CONN_MS		10000		/* a request takes at most this */
#define SWEEP_MS	5000

struct offer {
	struct offer	*next;
	char		 token[TOKEN_HEX + 1];
	char		 id[SECRET_PAGE_ID_MAX];
	char		*session;
	long		 pid;
	char		 start_id[PROC_START_ID_MAX];
	char		 prompt[SECRET_PROMPT_MAX];
	char		 program[64];
	char		*command;	/* the session's last command, or NULL */
	uint64_t	 deadline;	/* uv_now */
};

struct typing;

struct conn {
	struct typing	*typing;	/* its POST on the worker, or NULL */
	uv_tcp_t	 tcp;
	uv_timer_t	 timer;
	uv_write_t	 wr;
	int		 handles;	/* open: 2, then counted down */
	bool		 answered;
	char		 buf[HTTP_HEAD_MAX + HTTP_BODY_MAX + 1];
	size_t		 len;
	char		*resp;
	size_t		 resp_len;
};

/* A POST's secret on its way into the pane (the multiplexer's thread). */
struct typing {
	struct conn	*conn;
	struct offer	*offer;		/* taken out of the list */
	char		 secret[SECRET_MAX + 1];
	size_t		 len;
	bool		 typed;
	char		 why[256];	/* the multiplexer's refusal, or "" */
};

static struct {
	uv_tcp_t	*listener;	/* NULL: not listening */
	uv_timer_t	*sweep;
	int		 port;
	struct offer	*offers;
	int		 conns;
	void		(*on_typed)(const char *id);
} page;

void
secret_page_on_typed(void (*cb)(const char *id))
{
	page.on_typed = cb;
}

static void
offer_free(struct offer *o)
{
	if (o == NULL)
		return;
	mem_wipe(o->token, sizeof o->token);
	free(o->session);
	free(o->command);
	free(o);
}

/* Take o out of the list (not freed). */
static void
offer_unlink(struct offer *o)
{
	struct offer **pp;

	for (pp = &page.offers; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == o) {
			*pp = o->next;
			o->next = NULL;
			return;
		}
	}
}

static void
handle_free(uv_handle_t *h)
{
	free(h);
}

/* No offer and no request left: the port closes. */
static void
maybe_stop(void)
{
	if (page.offers != NULL || page.conns > 0)
		return;
	if (page.listener != NULL)
		uv_close((uv_handle_t *)page.listener, handle_free);
	if (page.sweep != NULL)
		uv_close((uv_handle_t *)page.sweep, handle_free);
	page.listener = NULL;
	page.sweep = NULL;
}

static void
on_sweep(uv_timer_t *t)
{
	struct offer **pp = &page.offers, *o;
	uint64_t now = uv_now(t->loop);

	while ((o = *pp) != NULL) {
		if (now >= o->deadline) {
			*pp = o->next;
			offer_free(o);
		} else
			pp = &o->next;
	}
	maybe_stop();
}

/* Hex of n random bytes from the OS into out (2n + 1 bytes). */
static int
random_hex(char *out, size_t n, struct aiterm_error *err)
{
	unsigned char b[TOKEN_BYTES];
	size_t i;
	int rc;

	if ((rc = uv_random(NULL, NULL, b, n, 0, NULL)) != 0)
		return error_set(err, "no random bytes for the secret page: %s",
		    uv_strerror(rc));
	for (i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	mem_wipe(b, sizeof b);
	return 0;
}

/* ---- answers ---- */

static void
html_escape(struct aiterm_buf *b, const char *s)
{
	for (; *s != '\0'; s++) {
		switch (*s) {
		case '&': buf_adds(b, "&amp;"); break;
		case '<': buf_adds(b, "&lt;"); break;
		case '>': buf_adds(b, "&gt;"); break;
		case '"': buf_adds(b, "&quot;"); break;
		case '\'': buf_adds(b, "&#39;"); break;
		default: buf_addc(b, *s);
		}
	}
}

static const char *
reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 400: return "Bad Request";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 409: return "Conflict";
	case 411: return "Length Required";
	case 413: return "Content Too Large";
	case 415: return "Unsupported Media Type";
	case 431: return "Request Header Fields Too Large";
	case 501: return "Not Implemented";
	case 503: return "Service Unavailable";
	default: return "HTTP Version Not Supported";
	}
}

static void conn_close(struct conn *c);

static void
written(uv_write_t *wr, int status)
{
	(void)status;
	conn_close(wr->data);
}

/* The whole answer, then the connection closes (no keep-alive). */
static void
answer(struct conn *c, int status, const char *title, const char *body)
{
	struct aiterm_buf b = BUF_INIT, html = BUF_INIT;
	uv_buf_t ub;

	if (c->answered)
		return;
	c->answered = true;
	buf_adds(&html, "<!doctype html><html><head><meta charset=\"utf-8\">"
	    "<title>Aiterm: ");
	html_escape(&html, title);
	buf_printf(&html, "</title><style>body{font:16px sans-serif;max-width:"
	    "40em;margin:2em auto}code{background:#eee;padding:0 .2em}"
	    "</style></head><body><h1>");
	html_escape(&html, title);
	buf_printf(&html, "</h1>%s</body></html>\n", body);
	buf_printf(&b, "HTTP/1.1 %d %s\r\n"
	    "Content-Type: text/html; charset=utf-8\r\n"
	    "Content-Length: %zu\r\n"
	    "Cache-Control: no-store\r\n"
	    "Content-Security-Policy: default-src 'none'; style-src "
	    "'unsafe-inline'; form-action 'self'; frame-ancestors 'none'\r\n"
	    "Referrer-Policy: same-origin\r\n"
	    "X-Content-Type-Options: nosniff\r\n"
	    "X-Frame-Options: DENY\r\n"
	    "Connection: close\r\n\r\n%s", status, reason(status), html.len,
	    buf_str(&html));
	buf_free(&html);
	c->resp_len = b.len;
	c->resp = buf_steal(&b, NULL);
	ub = uv_buf_init(c->resp, (unsigned)c->resp_len);
	c->wr.data = c;
	if (uv_write(&c->wr, (uv_stream_t *)&c->tcp, &ub, 1, written) != 0)
		conn_close(c);
}

static void
refuse(struct conn *c, int status, const char *why)
{
	struct aiterm_buf body = BUF_INIT;

	buf_adds(&body, "<p>");
	html_escape(&body, why);
	buf_adds(&body, "</p>");
	answer(c, status, "refused", buf_str(&body));
	buf_free(&body);
}

/* The form: what it is for, never the pane's other output. */
static void
show_form(struct conn *c, const struct offer *o)
{
	struct aiterm_buf b = BUF_INIT;

	buf_adds(&b, "<p>A terminal of Aiterm waits for a secret. Type it "
	    "here; it goes into that terminal only, never to the AI.</p><dl>"
	    "<dt>Session</dt><dd><code id=\"session\">");
	html_escape(&b, o->session);
	buf_adds(&b, "</code></dd><dt>Command</dt><dd><code id=\"command\">");
	html_escape(&b, o->command != NULL ? o->command : o->program);
	buf_adds(&b, "</code></dd><dt>Prompt</dt><dd><code id=\"prompt\">");
	html_escape(&b, o->prompt);
	buf_printf(&b, "</code></dd></dl><form method=\"post\" action=\"/s/%s\">"
	    "<input type=\"hidden\" name=\"token\" value=\"%s\">"
	    "<input type=\"password\" name=\"secret\" id=\"secret\" "
	    "autocomplete=\"off\" maxlength=\"%d\" autofocus> "
	    "<button type=\"submit\" id=\"send\">Send to the terminal</button>"
	    "</form><p>This page works once and for %d minutes.</p>",
	    o->token, o->token, SECRET_MAX, SECRET_PAGE_TTL_MS / 60000);
	answer(c, 200, "a secret for a terminal", buf_str(&b));
	buf_free(&b);
}

/* ---- typing, on the multiplexer's thread ---- */

static void
type_work(void *arg)
{
	struct typing *t = arg;
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_mux_ops *mux = session_mux(&err);
	struct aiterm_pane_info info;
	char start[PROC_START_ID_MAX], prompt[SECRET_PROMPT_MAX];

	memset(&info, 0, sizeof info);
	if (mux != NULL && mux->pane_info(host_get(), t->offer->session,
	    &info, &err) == 0 && info.exists && !info.dead &&
	    info.pid == t->offer->pid &&
	    proc_start_id(info.pid, start, sizeof start) == 0 &&
	    strcmp(start, t->offer->start_id) == 0 &&
	    secret_pane_waits(t->offer->session, &info, prompt) &&
	    strcmp(prompt, t->offer->prompt) == 0) {
		/* Never by a way that leaves it in a process argument. */
		if (mux->send_secret == NULL)
			error_set(&err, "the multiplexer plugin cannot type a "
			    "secret without putting it in a process argument "
			    "(it has no send_secret, ABI 2.5)");
		else
			t->typed = mux->send_secret(host_get(),
			    t->offer->session, t->secret, t->len, &err) == 0;
		if (!t->typed)
			snprintf(t->why, sizeof t->why, "%s", error_msg(&err));
	}
	mem_wipe(t->secret, sizeof t->secret);
	error_clear(&err);
}

static void
type_done(void *arg)
{
	struct typing *t = arg;

	if (t->conn != NULL)
		t->conn->typing = NULL;
	if (t->typed && page.on_typed != NULL)
		page.on_typed(t->offer->id);
	if (t->conn == NULL)
		;	/* timed out or closed meanwhile */
	else if (t->typed)
		answer(t->conn, 200, "sent", "<p id=\"result\">Sent to the "
		    "terminal. You can close this page.</p>");
	else if (t->why[0] != '\0') {
		struct aiterm_buf why = BUF_INIT;

		buf_printf(&why, "Nothing was typed: %s. Type it in the "
		    "terminal itself (attach to session %s).", t->why,
		    t->offer->session);
		refuse(t->conn, 503, buf_str(&why));
		buf_free(&why);
	} else
		refuse(t->conn, 409, "The terminal no longer waits at that "
		    "prompt; nothing was typed.");
	offer_free(t->offer);
	free(t);
	maybe_stop();
}

/* ---- requests ---- */

static struct offer *
offer_by_token(const char *token)
{
	struct offer *o;
	unsigned char diff;
	size_t i;

	if (strlen(token) != TOKEN_HEX)
		return NULL;
	for (o = page.offers; o != NULL; o = o->next) {
		/* The same time whatever the first wrong byte. */
		for (diff = 0, i = 0; i < TOKEN_HEX; i++)
			diff |= (unsigned char)(o->token[i] ^ token[i]);
		if (diff == 0 && uv_now(core_loop()) < o->deadline)
			return o;
	}
	return NULL;
}

static void
handle_post(struct conn *c, const struct http_request *req, struct offer *o,
    const char *origin)
{
	const char *type = http_header(req, "content-type");
	const char *from = http_header(req, "origin");
	char token[TOKEN_HEX + 2];
	struct typing *t;
	long n;

	/* A browser always sends Origin with a form's POST. */
	if (from == NULL || strcmp(from, origin) != 0) {
		refuse(c, 403, "Wrong origin.");
		return;
	}
	if (type == NULL || strncasecmp(type,
	    "application/x-www-form-urlencoded", 33) != 0) {
		refuse(c, 415, "A form, please.");
		return;
	}
	if (http_form_field(req->body, req->body_len, "token", token,
	    sizeof token) != TOKEN_HEX || strcmp(token, o->token) != 0) {
		refuse(c, 403, "Wrong form token.");
		return;
	}
	t = xcalloc(1, sizeof *t);
	n = http_form_field(req->body, req->body_len, "secret", t->secret,
	    sizeof t->secret);
	mem_wipe(c->buf, sizeof c->buf);
	if (n <= 0 || strcspn(t->secret, "\x01\x02\x03\x04\x05\x06\x07\x08"
	    "\t\n\x0b\x0c\r\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19"
	    "\x1a\x1b\x1c\x1d\x1e\x1f\x7f") != (size_t)n) {
		mem_wipe(t->secret, sizeof t->secret);
		free(t);
		refuse(c, 400, "Empty, too long (256 bytes at most) or with "
		    "control characters; nothing was typed.");
		return;
	}
	/* One use: the offer is gone whatever comes of it. */
	offer_unlink(o);
	t->conn = c;
	c->typing = t;
	t->offer = o;
	t->len = (size_t)n;
	muxjob_run(type_work, type_done, t);
}

static void
handle(struct conn *c, const struct http_request *req)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	int sslen = sizeof ss;
	char host[32], origin[48];
	const char *h = http_header(req, "host");
	struct offer *o;

	snprintf(host, sizeof host, "127.0.0.1:%d", page.port);
	snprintf(origin, sizeof origin, "http://%s", host);
	if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &sslen) != 0 ||
	    ss.ss_family != AF_INET ||
	    in->sin_addr.s_addr != htonl(INADDR_LOOPBACK)) {
		refuse(c, 403, "Only from 127.0.0.1.");
		return;
	}
	if (h == NULL || strcmp(h, host) != 0) {
		refuse(c, 403, "Wrong host.");
		return;
	}
	if (strncmp(req->target, "/s/", 3) != 0 ||
	    (o = offer_by_token(req->target + 3)) == NULL) {
		refuse(c, 404, "This link is not valid (any more): it works "
		    "once and for a few minutes.");
		return;
	}
	if (strcmp(req->method, "GET") == 0)
		show_form(c, o);
	else if (strcmp(req->method, "POST") == 0)
		handle_post(c, req, o, origin);
	else
		refuse(c, 405, "GET or POST only.");
}

static void
conn_handle_closed(uv_handle_t *h)
{
	struct conn *c = h->data;

	if (--c->handles > 0)
		return;
	mem_wipe(c->buf, sizeof c->buf);
	free(c->resp);
	free(c);
	page.conns--;
	maybe_stop();
}

static void
conn_close(struct conn *c)
{
	if (uv_is_closing((uv_handle_t *)&c->tcp))
		return;
	/* A POST still on the worker answers no one now. */
	if (c->typing != NULL)
		c->typing->conn = NULL;
	c->typing = NULL;
	uv_close((uv_handle_t *)&c->timer, conn_handle_closed);
	uv_close((uv_handle_t *)&c->tcp, conn_handle_closed);
}

static void
conn_alloc(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	struct conn *c = h->data;

	(void)hint;
	*b = uv_buf_init(c->buf + c->len, (unsigned)(sizeof c->buf - 1 -
	    c->len));
}

static void
conn_read(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct conn *c = s->data;
	struct http_request req;
	int status = 400, rc;

	(void)b;
	if (n < 0) {
		conn_close(c);
		return;
	}
	if (n == 0 || c->answered)
		return;
	c->len += (size_t)n;
	rc = http_parse(c->buf, c->len, &req, &status);
	if (rc == 0 && c->len < sizeof c->buf - 1)
		return;
	uv_read_stop(s);
	if (rc == 1)
		handle(c, &req);
	else
		refuse(c, rc == 0 ? 413 : status, "Bad request.");
}

static void
conn_timeout(uv_timer_t *t)
{
	conn_close(t->data);
}

static void
on_connection(uv_stream_t *server, int status)
{
	struct conn *c;

	if (status != 0)
		return;
	c = xcalloc(1, sizeof *c);
	uv_tcp_init(core_loop(), &c->tcp);
	uv_timer_init(core_loop(), &c->timer);
	c->tcp.data = c->timer.data = c;
	c->handles = 2;
	page.conns++;
	if (uv_accept(server, (uv_stream_t *)&c->tcp) != 0 ||
	    page.conns > CONNS_MAX) {
		conn_close(c);
		return;
	}
	uv_timer_start(&c->timer, conn_timeout, CONN_MS, 0);
	uv_read_start((uv_stream_t *)&c->tcp, conn_alloc, conn_read);
}

/* The listener on 127.0.0.1 and an ephemeral port. */
static int
listen_start(struct aiterm_error *err)
{
	struct sockaddr_in addr;
	struct sockaddr_storage ss;
	int len = sizeof ss, rc;

	uv_tcp_t *l;

	if (page.listener != NULL)
		return 0;
	uv_ip4_addr("127.0.0.1", 0, &addr);
	l = xcalloc(1, sizeof *l);
	uv_tcp_init(core_loop(), l);
	if ((rc = uv_tcp_bind(l, (struct sockaddr *)&addr, 0)) != 0 ||
	    (rc = uv_listen((uv_stream_t *)l, 8, on_connection)) != 0 ||
	    (rc = uv_tcp_getsockname(l, (struct sockaddr *)&ss, &len)) != 0) {
		uv_close((uv_handle_t *)l, handle_free);
		return error_set(err, "the secret page cannot listen on "
		    "127.0.0.1: %s", uv_strerror(rc));
	}
	page.port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	page.listener = l;
	uv_unref((uv_handle_t *)l);
	page.sweep = xcalloc(1, sizeof *page.sweep);
	uv_timer_init(core_loop(), page.sweep);
	uv_timer_start(page.sweep, on_sweep, SWEEP_MS, SWEEP_MS);
	uv_unref((uv_handle_t *)page.sweep);
	return 0;
}

static void
offer_url(const struct offer *o, char url[SECRET_PAGE_URL_MAX],
    char id[SECRET_PAGE_ID_MAX])
{
	snprintf(url, SECRET_PAGE_URL_MAX, "http://127.0.0.1:%d/s/%s",
	    page.port, o->token);
	snprintf(id, SECRET_PAGE_ID_MAX, "%s", o->id);
}

int
secret_page_offer(const struct secret_where *w, char url[SECRET_PAGE_URL_MAX],
    char id[SECRET_PAGE_ID_MAX], struct aiterm_error *err)
{
	struct offer *o, *old = NULL;

	for (o = page.offers; o != NULL; o = o->next) {
		if (strcmp(o->session, w->session) != 0)
			continue;
		if (o->pid == w->pid && strcmp(o->start_id, w->start_id) == 0 &&
		    strcmp(o->prompt, w->prompt) == 0 &&
		    uv_now(core_loop()) < o->deadline) {
			offer_url(o, url, id);
			return 0;
		}
		old = o;
	}
	if (old != NULL) {
		offer_unlink(old);
		offer_free(old);
	}
	if (listen_start(err) != 0)
		return -1;
	o = xcalloc(1, sizeof *o);
	if (random_hex(o->token, TOKEN_BYTES, err) != 0 ||
	    random_hex(o->id, (SECRET_PAGE_ID_MAX - 1) / 2, err) != 0) {
		free(o);
		maybe_stop();
		return -1;
	}
	o->session = xstrdup(w->session);
	o->pid = w->pid;
	snprintf(o->start_id, sizeof o->start_id, "%s", w->start_id);
	snprintf(o->prompt, sizeof o->prompt, "%s", w->prompt);
	snprintf(o->program, sizeof o->program, "%s", w->program);
	o->command = output_last_command(w->session);
	o->deadline = uv_now(core_loop()) + SECRET_PAGE_TTL_MS;
	o->next = page.offers;
	page.offers = o;
	offer_url(o, url, id);
	return 0;
}

bool
secret_page_pending(void)
{
	return page.offers != NULL || page.conns > 0;
}

void
secret_page_close(void)
{
	struct offer *o;

	while ((o = page.offers) != NULL) {
		page.offers = o->next;
		offer_free(o);
	}
	maybe_stop();
}
