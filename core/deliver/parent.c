#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/observe.h"
#include "deliver/parent.h"
#include "state/stateroot.h"
#include "util/path.h"
#include "util/xmalloc.h"

#ifndef AITERM_BINDIR
#define AITERM_BINDIR "/usr/local/bin"
#endif

void
parent_delivery_begin(struct parent_delivery *p, struct tool_call *call,
    const char *session)
{
	struct aiterm_error err = ERROR_INIT;

	(void)call;	/* receivers by parent kind: DLV-CLAUDE/CODEX/CURSOR */
	memset(p, 0, sizeof *p);
	if (delivery_begin(session, "wait", &p->d, &p->lock_fd, &err) != 0) {
		snprintf(p->error, sizeof p->error, "%s", error_msg(&err));
		p->lock_fd = -1;
	}
	error_clear(&err);
}

/* aiterm-wait beside this server's executable, else the installed one. */
static char *
waiter_path(void)
{
	char self[PATH_MAX], *slash, *p;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n > 0) {
		self[n] = '\0';
		if ((slash = strrchr(self, '/')) != NULL) {
			p = xasprintf("%.*s/aiterm-wait", (int)(slash - self),
			    self);
			if (path_is_executable(p))
				return p;
			free(p);
		}
	}
	return xstrdup(AITERM_BINDIR "/aiterm-wait");
}

/* 'x' for the shell: single quotes, a quote as '\''. */
static void
quote(struct aiterm_buf *b, const char *s)
{
	buf_addc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_adds(b, "'\\''");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '\'');
}

void
parent_delivery_sent(struct parent_delivery *p,
    const struct dispatch_result *d, struct aiterm_buf *text, json_t *sc)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf cmd = BUF_INIT;
	char *waiter;
	json_t *argv;

	if (p->lock_fd < 0) {
		if (d->rc == 0 && p->error[0] != '\0')
			buf_printf(text, "delivery: none (%s)\n", p->error);
		return;
	}
	/* Nothing sent, or joined a running turn: no new boundary. */
	if (d->rc != 0 || strcmp(d->route, "steered") == 0) {
		delivery_abandon(&p->d, p->lock_fd);
		p->lock_fd = -1;
		return;
	}
	p->d.turn = d->turn;
	agent_event_cursor(d->turn, d->index, p->d.cursor, sizeof p->d.cursor);
	if (delivery_write(&p->d, &err) != 0) {
		buf_printf(text, "delivery: none (%s)\n", error_msg(&err));
		error_clear(&err);
		delivery_abandon(&p->d, p->lock_fd);
		p->lock_fd = -1;
		return;
	}
	waiter = waiter_path();
	argv = json_pack("[s, s, s, s]", waiter, "--state-dir", state_root(),
	    p->d.id);
	quote(&cmd, waiter);
	buf_adds(&cmd, " --state-dir ");
	quote(&cmd, state_root());
	buf_printf(&cmd, " %s", p->d.id);
	buf_printf(text, "delivery: %s waiting; its answer is printed by: %s\n",
	    p->d.id, buf_str(&cmd));
	json_object_set_new(sc, "parent_delivery", json_pack("{s:s, s:s}",
	    "delivery_id", p->d.id, "state", "waiting"));
	json_object_set_new(sc, "wait_process", json_pack("{s:o}", "argv",
	    argv));
	json_object_set_new(sc, "wait_command", json_string(buf_str(&cmd)));
	buf_free(&cmd);
	free(waiter);
	delivery_observe(&p->d, p->lock_fd);
	p->lock_fd = -1;
}
