#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "agent/harness.h"
#include "deliver/parent.h"
#include "remote/askpass.h"
#include "remote/family.h"
#include "remote/farcmd.h"
#include "remote/handover.h"
#include "remote/records.h"
#include "remote/relay.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/envnum.h"
#include "util/loop.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define HOST_MAX	255
#define ERR_TAIL	600	/* ssh's stderr kept for messages */
#define START_MS	45000	/* ssh, auth, probe and initialize, at most */
#define START_MS_MIN	100
#define DRAIN_MS	200	/* ssh's stdout after its exit, at most */
#define MIN_VERSION	"0.1.0"	/* the far aiterm-mcp, at least: the relay's first */
/* ssh binds cm-%C as cm-<40 hex>.<16 random> first, then renames it. */
#define SSH_CM_EXTRA	(40 - 2 + 17)

extern char **environ;

struct remote_call {
	int			 id;
	struct remote_to	 to;
	char			*client;	/* the call's origin, a copy */
	json_t			*meta;
	struct rhost		*host;
	char			*tool;
	json_t			*args;
	struct remote_call	*next;
};

/*
 * What this process knows of a host past its connections: the family
 * (probed once) and the secret a caller gave (memory only).
 */
struct hinfo {
	char			 host[HOST_MAX + 1];
	enum remote_family	 family;
	char			*secret;
	struct hinfo		*next;
};

/* Where a connection is: the shell probe, the launch, then MCP. */
enum phase { PH_PROBE, PH_LAUNCH, PH_MCP };

struct rhost {
	char			 host[HOST_MAX + 1];
	struct hinfo		*info;
	uv_process_t		 proc;
	uv_pipe_t		 in, out, err;
	uv_timer_t		 deadline;
	unsigned		 start_ms;	/* its length */
	struct askpass		*ap;
	enum phase		 phase;
	struct aiterm_buf	 rd;
	char			 errtail[ERR_TAIL + 1];
	char			 nonce[48];	/* this connection's, unlike any profile line */
	bool			 ready, dead, asked;
	bool			 relaunch;	/* a Windows probe: start again */
	bool			 exited, out_eof;
	int64_t			 status;	/* ssh's, once exited */
	int			 next_id, open;
	struct remote_call	*waiting;	/* sent, no answer yet */
	struct remote_call	*queued;	/* until initialize is answered */
	struct rhost		*next;
};

static struct rhost *hosts;
static struct hinfo *infos;

static struct hinfo *
hinfo_find(const char *host)
{
	struct hinfo *i;

	for (i = infos; i != NULL && strcmp(i->host, host) != 0; i = i->next)
		;
	return i;
}

static struct hinfo *
hinfo_get(const char *host)
{
	struct hinfo *i = hinfo_find(host);

	if (i != NULL)
		return i;
	i = xcalloc(1, sizeof *i);
	snprintf(i->host, sizeof i->host, "%s", host);
	i->next = infos;
	infos = i;
	return i;
}

enum remote_family
remote_host_family(const char *host)
{
	struct hinfo *i = hinfo_find(host);

	return i != NULL ? i->family : REMOTE_FAM_UNKNOWN;
}

static void
hinfo_forget_secret(struct hinfo *i)
{
	secret_wipe(i->secret);
	free(i->secret);
	i->secret = NULL;
}

json_t *
remote_schema_property(void)
{
	/* Short: it is in eleven tools' schemas (16 o200k tokens each). */
	return json_pack("{s:s, s:s}", "type", "string", "description",
	    "ssh host to run this on");
}

json_t *
remote_schema_secret(void)
{
	/*
	 * No description: beside "remote" its name says it (8 o200k tokens
	 * in each of eleven schemas; "ssh passphrase or password" made 16).
	 */
	return json_pack("{s:s}", "type", "string");
}

/* A destination ssh takes, with no option in it. */
static bool
host_valid(const char *h)
{
	size_t i, n = strlen(h);

	if (n == 0 || n > HOST_MAX || h[0] == '-')
		return false;
	for (i = 0; i < n; i++) {
		if (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "0123456789.-_@:[]%", h[i]) == NULL)
			return false;
	}
	return true;
}

static void
rcall_free(struct remote_call *c)
{
	free(c->client);
	json_decref(c->meta);
	free(c->tool);
	json_decref(c->args);
	free(c);
}

/* A call ends with an error (the message as the caller's): freed. */
static void __attribute__((format(printf, 2, 3)))
rcall_fail(struct remote_call *c, const char *fmt, ...)
{
	struct aiterm_error err = ERROR_INIT;
	va_list ap;

	va_start(ap, fmt);
	error_vset(&err, fmt, ap);
	va_end(ap);
	c->to.done(c->to.arg, -1, &err, NULL);
	error_clear(&err);
	rcall_free(c);
}

/* Every call of h ends with why (sent ones: not resent). */
static void
fail_all(struct rhost *h, const char *why)
{
	struct remote_call *c, *next;

	for (c = h->waiting; c != NULL; c = next) {
		next = c->next;
		rcall_fail(c, "%s (remote %s): %s; it may have run there: read "
		    "again (same cursor), nothing was resent", c->tool,
		    h->host, why);
	}
	for (c = h->queued; c != NULL; c = next) {
		next = c->next;
		rcall_fail(c, "%s (remote %s): %s; nothing was sent", c->tool,
		    h->host, why);
	}
	h->waiting = h->queued = NULL;
}

static void
host_closed(uv_handle_t *hd)
{
	struct rhost *h = hd->data, **pp;

	if (--h->open > 0)
		return;
	for (pp = &hosts; *pp != NULL; pp = &(*pp)->next) {
		if (*pp == h) {
			*pp = h->next;
			break;
		}
	}
	buf_free(&h->rd);
	free(h);
}

static void
host_end(struct rhost *h, const char *why)
{
	if (h->dead)
		return;
	h->dead = true;
	fail_all(h, why);
	if (h->ap != NULL)
		askpass_stop(h->ap);
	h->ap = NULL;
	uv_close((uv_handle_t *)&h->deadline, host_closed);
	uv_close((uv_handle_t *)&h->in, host_closed);
	uv_close((uv_handle_t *)&h->out, host_closed);
	uv_close((uv_handle_t *)&h->err, host_closed);
}

static void
wrote(uv_write_t *w, int status)
{
	(void)status;
	free(w->data);
	free(w);
}

static void
send_msg(struct rhost *h, json_t *msg)
{
	char *line;
	size_t n;
	uv_write_t *w;
	uv_buf_t b;

	json_object_set_new(msg, "jsonrpc", json_string("2.0"));
	line = json_dumps(msg, JSON_COMPACT);
	json_decref(msg);
	if (line == NULL || h->dead) {
		free(line);
		return;
	}
	n = strlen(line);
	line = xrealloc(line, n + 2);
	line[n] = '\n';
	w = xcalloc(1, sizeof *w);
	w->data = line;
	b = uv_buf_init(line, (unsigned)n + 1);
	if (uv_write(w, (uv_stream_t *)&h->in, &b, 1, wrote) != 0)
		wrote(w, -1);
}

static void
send_call(struct rhost *h, struct remote_call *c)
{
	c->id = ++h->next_id;
	c->next = h->waiting;
	h->waiting = c;
	send_msg(h, json_pack("{s:i, s:s, s:{s:s, s:O}}", "id", c->id,
	    "method", "tools/call", "params", "name", c->tool, "arguments",
	    c->args));
}

/*
 * Why the far side's answer to initialize is not one the relay can use,
 * or NULL: an error, another program, or an aiterm-mcp older than
 * MIN_VERSION.
 */
static char *
refused_initialize(const struct rhost *h, json_t *msg)
{
	json_t *res = json_object_get(msg, "result");
	json_t *info = json_object_get(res, "serverInfo");
	const char *name = json_string_value(json_object_get(info, "name"));
	const char *ver = json_string_value(json_object_get(info, "version"));
	const char *err = json_string_value(json_object_get(
	    json_object_get(msg, "error"), "message"));

	if (!json_is_object(res))
		return xasprintf("REMOTE_AITERM_MISSING: %s: its aiterm-mcp "
		    "refused initialize (%s)", h->host, err != NULL ? err :
		    "no result");
	if (name == NULL || strcmp(name, "aiterm-mcp") != 0)
		return xasprintf("REMOTE_AITERM_MISSING: %s: the program run as "
		    "aiterm-mcp answered as %s %s", h->host,
		    name != NULL ? name : "(no name)", ver != NULL ? ver : "");
	if (ver == NULL || harness_version_cmp(ver, MIN_VERSION) < 0)
		return xasprintf("REMOTE_AITERM_TOO_OLD: %s has aiterm-mcp %s; "
		    "the relay needs %s or later", h->host,
		    ver != NULL ? ver : "(no version)", MIN_VERSION);
	return NULL;
}

/* One message from the far side: an answer to one of ours, or noise. */
static void
got(struct rhost *h, json_t *msg)
{
	struct remote_call **pp, *c;
	json_t *id = json_object_get(msg, "id"), *err, *result;
	struct call_origin origin;
	char *why;
	bool taken;

	if (!json_is_integer(id))
		return;	/* a notification (progress, log): not relayed */
	if (json_integer_value(id) == 0) {	/* initialize */
		uv_timer_stop(&h->deadline);
		if ((why = refused_initialize(h, msg)) != NULL) {
			host_end(h, why);
			free(why);
			uv_process_kill(&h->proc, SIGTERM);
			return;
		}
		h->ready = true;
		if (h->ap != NULL) {	/* authenticated: no more prompts */
			askpass_stop(h->ap);
			h->ap = NULL;
		}
		send_msg(h, json_pack("{s:s}", "method",
		    "notifications/initialized"));
		while ((c = h->queued) != NULL) {
			h->queued = c->next;
			send_call(h, c);
		}
		return;
	}
	for (pp = &h->waiting; *pp != NULL; pp = &(*pp)->next) {
		if ((*pp)->id == json_integer_value(id))
			break;
	}
	if ((c = *pp) == NULL)
		return;
	*pp = c->next;
	if ((err = json_object_get(msg, "error")) != NULL) {
		rcall_fail(c, "%s (remote %s): %s", c->tool, h->host,
		    json_string_value(json_object_get(err, "message")) ?
		    json_string_value(json_object_get(err, "message")) : "?");
		return;
	}
	result = json_object_get(msg, "result");
	origin.client = c->client;
	origin.meta = c->meta;
	remote_far_commands(h->host, result);
	taken = remote_handover(&origin, h->host, result);
	remote_records_note(h->host, c->tool, c->args, result, !taken);
	c->to.done(c->to.arg, 0, NULL, result);
	rcall_free(c);
}

static void
alloc_cb(uv_handle_t *hd, size_t size, uv_buf_t *b)
{
	(void)hd;
	b->base = xmalloc(size);
	b->len = size;
}

static void
send_text(struct rhost *h, const char *text)
{
	uv_write_t *w = xcalloc(1, sizeof *w);
	uv_buf_t b;

	w->data = xstrdup(text);
	b = uv_buf_init(w->data, (unsigned)strlen(text));
	if (uv_write(w, (uv_stream_t *)&h->in, &b, 1, wrote) != 0)
		wrote(w, -1);
}

static void	launch(struct rhost *h);
static void	ssh_ended(struct rhost *h);

/*
 * What the login shell made of "echo aiterm-probe-<n> %OS% $PSHOME", after
 * the nonce: cmd expands %OS% (and echoes the rest of the line as it is),
 * PowerShell $PSHOME (its echo puts each word on a line of its own, so
 * nothing follows the nonce), a POSIX-family shell (sh, bash, zsh, fish)
 * neither.
 */
static enum remote_family
probe_family(const char *rest)
{
	char os[64] = "", ps[8] = "";

	if (sscanf(rest, "%63s %7s", os, ps) < 1)
		return REMOTE_FAM_PWSH;
	if (strcmp(os, "%OS%") != 0)
		return REMOTE_FAM_CMD;
	if (ps[0] != '\0' && ps[0] != ';' && strcmp(ps, "$PSHOME") != 0 &&
	    strcmp(ps, "$PSHOME;") != 0)
		return REMOTE_FAM_PWSH;
	return REMOTE_FAM_POSIX;
}

/* MCP's first message: the far aiterm-mcp says what it is. */
static void
send_initialize(struct rhost *h)
{
	h->phase = PH_MCP;
	send_msg(h, json_pack("{s:i, s:s, s:{s:s, s:{s:{s:{}}}, "
	    "s:{s:s, s:s}}}", "id", 0, "method", "initialize", "params",
	    "protocolVersion", "2025-06-18", "capabilities",
	    "experimental", "aiterm/structuredContent", "clientInfo",
	    "name", "aiterm-relay", "version", PACKAGE_VERSION));
}

/* A line before MCP: profile noise, the probe's answer or our marker. */
static void
preamble_line(struct rhost *h, const char *line)
{
	size_t n = strlen(h->nonce);

	if (strncmp(line, h->nonce, n) != 0 || (line[n] != ' ' &&
	    line[n] != '\0'))
		return;	/* noise */
	if (h->phase == PH_PROBE) {
		h->info->family = probe_family(line + n);
		if (h->info->family == REMOTE_FAM_POSIX) {
			launch(h);
			return;
		}
		/*
		 * cmd or PowerShell ran the probe and nothing more: the next
		 * connection runs aiterm-mcp itself (relaunch, on exit).
		 */
		h->relaunch = true;
		uv_process_kill(&h->proc, SIGTERM);
	} else if (h->phase == PH_LAUNCH && strcmp(line + n, " ready") == 0)
		send_initialize(h);
}

static void
on_out(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct rhost *h = s->data;
	char *nl;
	size_t used;
	json_t *msg;

	if (n > 0) {
		buf_add(&h->rd, b->base, (size_t)n);
		buf_addc(&h->rd, '\0');
		h->rd.len--;
		while (!h->dead &&
		    (nl = memchr(h->rd.data, '\n', h->rd.len)) != NULL) {
			used = (size_t)(nl + 1 - h->rd.data);
			*nl = '\0';
			if (nl > h->rd.data && nl[-1] == '\r')
				nl[-1] = '\0';
			if (h->phase != PH_MCP)
				preamble_line(h, h->rd.data);
			else if ((msg = json_loads(h->rd.data, 0, NULL))
			    != NULL) {
				got(h, msg);
				json_decref(msg);
			}
			memmove(h->rd.data, nl + 1, h->rd.len - used + 1);
			h->rd.len -= used;
		}
	}
	free(b->base);
	if (n < 0) {
		uv_read_stop(s);
		h->out_eof = true;
		if (h->exited)
			ssh_ended(h);
	}
}

static void
on_err(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct rhost *h = s->data;
	size_t have = strlen(h->errtail), k;

	if (n > 0) {
		/* The last ERR_TAIL bytes ssh said. */
		for (k = 0; k < (size_t)n; k++) {
			if (have == ERR_TAIL) {
				memmove(h->errtail, h->errtail + 1, ERR_TAIL - 1);
				have--;
			}
			h->errtail[have++] = b->base[k] == '\n' ? ' ' :
			    b->base[k];
		}
		h->errtail[have] = '\0';
	}
	free(b->base);
	if (n < 0)
		uv_read_stop(s);
}

/* Why ssh ended, in words a caller can act on. */
static char *
why_ended(struct rhost *h, int64_t status)
{
	const char *tail = h->errtail;
	bool secret = h->ap != NULL && askpass_answered(h->ap) > 0;

	/* sh's 127, our launch line's words, cmd's and PowerShell's. */
	if (status == 127 || strstr(tail, "aiterm-remote: no ") != NULL ||
	    (!h->ready && strstr(tail, "is not recognized as ") != NULL))
		return xasprintf("REMOTE_AITERM_MISSING: %s has no aiterm-mcp "
		    "to run (%s)", h->host, tail);
	if (!h->ready && strstr(tail, "Permission denied") != NULL) {
		if (secret)	/* a wrong one is not tried again */
			hinfo_forget_secret(h->info);
		return xasprintf("REMOTE_AUTH_FAILED: ssh %s: %s (%s)",
		    h->host, secret ? "the remote_secret given was not "
		    "accepted" : h->asked ? "no key or agent was accepted and "
		    "the secret was not asked for" : "no key or agent was "
		    "accepted; pass remote_secret for a passphrase or password",
		    tail);
	}
	if (!h->ready)
		return xasprintf("REMOTE_UNREACHABLE: ssh %s exited with status "
		    "%lld before the remote aiterm-mcp answered (%s)", h->host,
		    (long long)status, tail);
	return xasprintf("REMOTE_CONNECTION_LOST: ssh %s exited with status "
	    "%lld (%s)", h->host, (long long)status, tail);
}

static struct rhost	*host_start(const char *host, char **why);

/*
 * After a Windows probe: a connection that runs aiterm-mcp itself (the
 * family is known now), and h's calls (queued: nothing was sent) go to it.
 */
static void
relaunch(struct rhost *h)
{
	struct rhost *n;
	char *why = NULL;

	if ((n = host_start(h->host, &why)) == NULL) {
		host_end(h, why);
		free(why);
		return;
	}
	n->queued = h->queued;
	h->queued = NULL;
	host_end(h, "relaunched");
}

/* ssh ended and its stdout is read (or DRAIN_MS passed): say why. */
static void
ssh_ended(struct rhost *h)
{
	char *why;

	if (h->dead)
		return;
	if (h->relaunch) {
		relaunch(h);
		return;
	}
	why = why_ended(h, h->status);
	host_end(h, why);
	free(why);
}

static void
on_drained(uv_timer_t *t)
{
	ssh_ended(t->data);
}

/*
 * The exit may come before the last of ssh's stdout (the probe's answer
 * of a shell that ends after it): the end waits for that, DRAIN_MS at most.
 */
static void
on_exit_cb(uv_process_t *p, int64_t status, int sig)
{
	struct rhost *h = p->data;

	h->status = sig != 0 ? 128 + sig : status;
	h->exited = true;
	uv_close((uv_handle_t *)p, host_closed);
	if (h->out_eof || h->dead)
		ssh_ended(h);
	else
		uv_timer_start(&h->deadline, on_drained, DRAIN_MS, 0);
}

void
remote_ssh_dest(const char *host, char **dest, char *port, size_t portsz)
{
	const char *colon = strrchr(host, ':');

	*dest = xstrdup(host);
	port[0] = '\0';
	if (colon != NULL && strchr(host, ':') == colon && colon[1] != '\0') {
		snprintf(port, portsz, "%s", colon + 1);
		(*dest)[colon - host] = '\0';
	}
}

/*
 * How long a host has to start: START_MS, or AITERM_REMOTE_START_MS (read
 * on every connection; tests give a short one).
 */
static unsigned
start_ms(void)
{
	return (unsigned)env_num("AITERM_REMOTE_START_MS", START_MS,
	    START_MS_MIN, START_MS);
}

static void
on_deadline(uv_timer_t *t)
{
	struct rhost *h = t->data;
	static const char *const stuck[] = {
		[PH_PROBE] = "no answer to the login shell probe",
		[PH_LAUNCH] = "the launch line did not say ready",
		[PH_MCP] = "aiterm-mcp there did not answer initialize",
	};
	unsigned ms = h->start_ms;
	char *why = xasprintf("REMOTE_UNREACHABLE: %s did not start aiterm-mcp "
	    "within %u.%u s: %s%s%s", h->host, ms / 1000, ms % 1000 / 100,
	    stuck[h->phase], h->errtail[0] != '\0' ? "; ssh said: " : "",
	    h->errtail);

	host_end(h, why);
	free(why);
	uv_process_kill(&h->proc, SIGTERM);
}

/* The far aiterm-mcp: AITERM_REMOTE_MCP, or the one on the PATH there. */
static const char *
far_mcp(void)
{
	const char *mcp = getenv("AITERM_REMOTE_MCP");

	return mcp != NULL && *mcp != '\0' ? mcp : "aiterm-mcp";
}

/*
 * The launch, read by /bin/sh from ssh's stdin (one line: it runs before
 * anything else is written): PATH from a login shell (its other output
 * and stderr dropped, so a noisy profile cannot reach the MCP reader),
 * then "<nonce> ready" and aiterm-mcp.
 */
static void
launch(struct rhost *h)
{
	const char *mcp = far_mcp();
	char *line;

	line = xasprintf("p=$(\"${SHELL:-/bin/sh}\" -lc 'printf "
	    "\"\\naiterm-path=%%s\\n\" \"$PATH\"' </dev/null 2>/dev/null | "
	    "sed -n 's/^aiterm-path=//p' | tail -n 1); "
	    "[ -n \"$p\" ] && PATH=$p; export PATH; "
	    "m='%s'; command -v \"$m\" >/dev/null 2>&1 || { echo "
	    "\"aiterm-remote: no $m on PATH=$PATH\" >&2; exit 127; }; "
	    "echo %s ready; exec \"$m\"\n", mcp, h->nonce);
	h->phase = PH_LAUNCH;
	send_text(h, line);
	free(line);
}

/* ssh's environment: ours, and with a secret, where our askpass is. */
static char **
ssh_env(const char *sock)
{
	size_t n = 0, k = 0;
	char **env, *askpass;

	while (environ[n] != NULL)
		n++;
	env = xcalloc(n + 4, sizeof *env);
	for (n = 0; environ[n] != NULL; n++) {
		if (strncmp(environ[n], "SSH_ASKPASS", 11) != 0 &&
		    strncmp(environ[n], "AITERM_ASKPASS_SOCKET=", 22) != 0)
			env[k++] = xstrdup(environ[n]);
	}
	askpass = path_sibling("aiterm-askpass", AITERM_BINDIR);
	env[k++] = xasprintf("SSH_ASKPASS=%s", askpass);
	env[k++] = xstrdup("SSH_ASKPASS_REQUIRE=force");
	env[k++] = xasprintf("AITERM_ASKPASS_SOCKET=%s", sock);
	free(askpass);
	return env;
}

static void
env_free(char **env)
{
	size_t i;

	for (i = 0; env != NULL && env[i] != NULL; i++)
		free(env[i]);
	free(env);
}

static struct rhost *
host_start(const char *host, char **why)
{
	static unsigned serial;
	struct rhost *h = xcalloc(1, sizeof *h);
	char *dir = state_path("ssh"), *cpath, *dest, *sock = NULL, *probe;
	char *too_long;
	const char *mcp;
	char **env = NULL;
	struct aiterm_error err = ERROR_INIT;
	uv_process_options_t o;
	uv_stdio_container_t io[3];
	char port[16];
	char *argv[28];
	size_t k = 0;
	bool spawned;
	int rc = 0;

	snprintf(h->host, sizeof h->host, "%s", host);
	h->info = hinfo_get(host);
	/* Digits only: the same in every shell's echo. */
	snprintf(h->nonce, sizeof h->nonce, "aiterm-probe-%ld%u%llu",
	    (long)getpid(), ++serial, (unsigned long long)uv_hrtime());
	/*
	 * The command, run by the login shell whatever it is: the probe
	 * (once per host and process), then /bin/sh reading the launch; on
	 * Windows (cmd, PowerShell) aiterm-mcp itself, found on PATH there.
	 */
	switch (h->info->family) {
	case REMOTE_FAM_UNKNOWN:
		h->phase = PH_PROBE;
		probe = xasprintf("echo %s %%OS%% $PSHOME; exec /bin/sh",
		    h->nonce);
		break;
	case REMOTE_FAM_POSIX:
		h->phase = PH_LAUNCH;
		probe = xstrdup("exec /bin/sh");
		break;
	default:
		h->phase = PH_MCP;
		mcp = far_mcp();
		if ((probe = remote_family_line(h->info->family, &mcp, 1)) ==
		    NULL) {
			*why = xasprintf("REMOTE_AITERM_MISSING: %s: "
			    "AITERM_REMOTE_MCP '%s' cannot be written for %s",
			    host, mcp, remote_family_name(h->info->family));
			probe = xstrdup("exit 1");
			rc = UV_EINVAL;
		}
		break;
	}
	remote_ssh_dest(host, &dest, port, sizeof port);
	state_mkdir(dir, &err);
	error_clear(&err);
	cpath = xasprintf("ControlPath=%s/cm-%%C", dir);
	if (rc == 0 && (too_long = path_socket_too_long(cpath +
	    strlen("ControlPath="), SSH_CM_EXTRA)) != NULL) {
		*why = xasprintf("cannot run ssh for %s: its ControlPath: %s",
		    host, too_long);
		free(too_long);
		rc = UV_EINVAL;
	}
	if (rc == 0 && h->info->secret != NULL) {
		sock = xasprintf("%s/ap-%ld-%u", dir, (long)getpid(), ++serial);
		if ((h->ap = askpass_start(sock, h->info->secret, why))
		    == NULL)
			rc = UV_EINVAL;
		env = ssh_env(sock);
		h->asked = true;
	}
	argv[k++] = "ssh";
	argv[k++] = "-T";
	argv[k++] = "-o";
	/* No prompt ever reaches a terminal: BatchMode, or our askpass. */
	argv[k++] = h->ap != NULL ? "BatchMode=no" : "BatchMode=yes";
	argv[k++] = "-o";
	argv[k++] = "NumberOfPasswordPrompts=1";
	argv[k++] = "-o";
	argv[k++] = "ConnectTimeout=10";
	argv[k++] = "-o";
	argv[k++] = "ControlMaster=auto";
	argv[k++] = "-o";
	argv[k++] = cpath;
	argv[k++] = "-o";
	argv[k++] = "ControlPersist=no";
	argv[k++] = "-o";
	argv[k++] = "ServerAliveInterval=15";
	if (port[0] != '\0') {
		argv[k++] = "-p";
		argv[k++] = port;
	}
	/* ssh reads ~/.ssh/config of the passwd entry, not $HOME. */
	if (getenv("AITERM_SSH_CONFIG") != NULL &&
	    *getenv("AITERM_SSH_CONFIG") != '\0') {
		argv[k++] = "-F";
		argv[k++] = getenv("AITERM_SSH_CONFIG");
	}
	argv[k++] = "--";
	argv[k++] = dest;
	argv[k++] = probe;
	argv[k] = NULL;
	uv_pipe_init(core_loop(), &h->in, 0);
	uv_pipe_init(core_loop(), &h->out, 0);
	uv_pipe_init(core_loop(), &h->err, 0);
	uv_timer_init(core_loop(), &h->deadline);
	h->in.data = h->out.data = h->err.data = h->proc.data = h;
	h->deadline.data = h;
	memset(&o, 0, sizeof o);
	io[0].flags = UV_CREATE_PIPE | UV_READABLE_PIPE;
	io[0].data.stream = (uv_stream_t *)&h->in;
	io[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[1].data.stream = (uv_stream_t *)&h->out;
	io[2].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
	io[2].data.stream = (uv_stream_t *)&h->err;
	o.file = "ssh";
	o.args = argv;
	o.env = env;
	o.stdio = io;
	o.stdio_count = 3;
	o.exit_cb = on_exit_cb;
	/* uv_spawn initialises the process handle even when it fails. */
	spawned = rc == 0 && (sock == NULL || h->ap != NULL);
	if (spawned)
		rc = uv_spawn(core_loop(), &h->proc, &o);
	if (rc == 0 && h->ap != NULL)
		askpass_child(h->ap, (long)h->proc.pid);
	env_free(env);
	free(probe);
	free(sock);
	free(cpath);
	free(dest);
	free(dir);
	h->open = spawned ? 5 : 4;
	h->next = hosts;
	hosts = h;
	if (rc != 0) {
		if (*why == NULL)
			*why = xasprintf("REMOTE_UNREACHABLE: cannot run ssh: "
			    "%s", uv_strerror(rc));
		host_end(h, *why);
		if (spawned)
			uv_close((uv_handle_t *)&h->proc, host_closed);
		return NULL;
	}
	uv_read_start((uv_stream_t *)&h->out, alloc_cb, on_out);
	uv_read_start((uv_stream_t *)&h->err, alloc_cb, on_err);
	h->start_ms = start_ms();
	uv_timer_start(&h->deadline, on_deadline, h->start_ms, 0);
	if (h->phase == PH_LAUNCH)
		launch(h);	/* probed before, in this process */
	else if (h->phase == PH_MCP)
		send_initialize(h);	/* Windows: aiterm-mcp reads it */
	return h;
}

void
remote_relay_cancel(struct remote_call *c)
{
	struct remote_call **lists[2], **pp;
	struct rhost *h = c->host;
	size_t k;

	lists[0] = &h->waiting;
	lists[1] = &h->queued;
	for (k = 0; k < 2; k++) {
		for (pp = lists[k]; *pp != NULL; pp = &(*pp)->next) {
			if (*pp != c)
				continue;
			*pp = c->next;
			if (k == 0)
				send_msg(h, json_pack("{s:s, s:{s:i}}",
				    "method", "notifications/cancelled",
				    "params", "requestId", c->id));
			rcall_free(c);
			return;
		}
	}
}

/*
 * A child there answers one parent at a time, as one here does (deliver/
 * child.h): a relayed pty_send to a session there whose answer is owed
 * to another of this server's parents goes nowhere (true, err says so).
 * Known by the host's hash and its name: a session here of the same name
 * is another child.
 */
static bool
dispatch_claimed(const char *tool, const char *host, json_t *args,
    const struct call_origin *origin, struct aiterm_error *err)
{
	const char *session = json_string_value(json_object_get(args,
	    "session_id"));
	struct aiterm_error why = ERROR_INIT;

	if (strcmp(tool, "pty_send") != 0 || origin == NULL ||
	    session == NULL || parent_child_free(origin, host, session,
	    &why) == 0)
		return false;
	error_set(err, "%s (remote %s): %s", tool, host, error_msg(&why));
	error_clear(&why);
	return true;
}

struct remote_call *
remote_relay(const char *tool, const char *host, const char *secret,
    json_t *args, const struct call_origin *origin,
    const struct remote_to *to)
{
	struct aiterm_error err = ERROR_INIT;
	struct hinfo *info;
	struct rhost *h;
	struct remote_call *c, **pp;
	char *why = NULL;

	if (!host_valid(host)) {
		error_set(&err, "%s: remote '%.80s' is not an ssh destination "
		    "(user@host, an alias, host:port)", tool, host);
		goto fail;
	}
	if (dispatch_claimed(tool, host, args, origin, &err))
		goto fail;
	info = hinfo_get(host);
	if (secret != NULL && *secret != '\0' && (info->secret == NULL ||
	    strcmp(info->secret, secret) != 0)) {
		hinfo_forget_secret(info);
		info->secret = xstrdup(secret);
	}
	/* One that ssh has left (draining its stdout) takes no new call. */
	for (h = hosts; h != NULL; h = h->next) {
		if (!h->dead && !h->exited && strcmp(h->host, host) == 0)
			break;
	}
	if (h == NULL && (h = host_start(host, &why)) == NULL) {
		error_set(&err, "%s (remote %s): %s", tool, host, why);
		free(why);
		goto fail;
	}
	c = xcalloc(1, sizeof *c);
	c->to = *to;
	c->host = h;
	if (origin != NULL && origin->client != NULL)
		c->client = xstrdup(origin->client);
	if (origin != NULL && origin->meta != NULL)
		c->meta = json_incref(origin->meta);
	c->tool = xstrdup(tool);
	c->args = args;
	if (h->ready)
		send_call(h, c);
	else {
		for (pp = &h->queued; *pp != NULL; pp = &(*pp)->next)
			;
		*pp = c;	/* in the order they came */
	}
	return c;
fail:
	to->done(to->arg, -1, &err, NULL);
	error_clear(&err);
	json_decref(args);
	return NULL;
}

void
remote_close_all(void)
{
	struct rhost *h;

	struct hinfo *i;

	for (h = hosts; h != NULL; h = h->next) {
		if (!h->dead)
			uv_process_kill(&h->proc, SIGTERM);
	}
	while ((i = infos) != NULL) {
		infos = i->next;
		hinfo_forget_secret(i);
		free(i);
	}
}
