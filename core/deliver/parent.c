#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/claude.h"
#include "deliver/codex.h"
#include "deliver/cursor.h"
#include "deliver/observe.h"
#include "deliver/parent.h"
#include "state/stateroot.h"
#include "util/path.h"
#include "util/xmalloc.h"

#ifndef AITERM_BINDIR
#define AITERM_BINDIR "/usr/local/bin"
#endif

int
parent_delivery_check(struct tool_call *call, struct aiterm_error *err)
{
	struct delivery d;
	char ref[80];

	memset(&d, 0, sizeof d);
	if (claude_parent_of(call, ref, sizeof ref))
		return claude_parent_prepare(ref, &d, err);
	if (cursor_parent_of(call))
		return cursor_parent_ready(err);
	return 0;
}

int
parent_delivery_begin(struct parent_delivery *p, struct tool_call *call,
    const char *session)
{
	struct aiterm_error err = ERROR_INIT;
	char ref[80];
	int rc = 0;

	memset(p, 0, sizeof *p);
	p->lock_fd = -1;
	if (claude_parent_of(call, ref, sizeof ref)) {
		if (claude_parent_prepare(ref, &p->d, &err) != 0) {
			snprintf(p->error, sizeof p->error, "%s",
			    error_msg(&err));
			error_clear(&err);
			return -1;
		}
		snprintf(p->d.parent, sizeof p->d.parent, "claude");
	} else if (codex_parent_of(call, &p->d))
		snprintf(p->d.parent, sizeof p->d.parent, "codex");
	else if (cursor_parent_of(call)) {
		if (cursor_parent_ready(&err) != 0) {
			snprintf(p->error, sizeof p->error, "%s",
			    error_msg(&err));
			error_clear(&err);
			return -1;
		}
		snprintf(p->d.parent, sizeof p->d.parent, "cursor");
	}
	else
		snprintf(p->d.parent, sizeof p->d.parent, "wait");
	if (delivery_begin(session, &p->d, &p->lock_fd, &err) != 0) {
		snprintf(p->error, sizeof p->error, "%s", error_msg(&err));
		p->lock_fd = -1;
		rc = strcmp(p->d.parent, "claude") == 0 ? -1 : 0;
	}
	error_clear(&err);
	return rc;
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

/* A parent whose receiver hands the answer over by itself. */
static void
self_receipt(struct parent_delivery *p, struct aiterm_buf *text, json_t *sc,
    const char *how)
{
	buf_printf(text, "delivery: %s waiting; the answer comes back by "
	    "itself (%s)\n", p->d.id, how);
	json_object_set_new(sc, "parent_delivery", json_pack("{s:s, s:s}",
	    "delivery_id", p->d.id, "state", "waiting"));
	json_object_set_new(sc, "wait_process", json_null());
	json_object_set_new(sc, "wait_command", json_null());
}

/* A parent without a receiver: the waiter's command line. */
static void
waiter_receipt(struct parent_delivery *p, struct aiterm_buf *text,
    json_t *sc, const char *lead)
{
	struct aiterm_buf cmd = BUF_INIT;
	char *waiter = path_sibling("aiterm-wait", AITERM_BINDIR);
	json_t *argv;

	argv = json_pack("[s, s, s, s]", waiter, "--state-dir", state_root(),
	    p->d.id);
	quote(&cmd, waiter);
	buf_adds(&cmd, " --state-dir ");
	quote(&cmd, state_root());
	buf_printf(&cmd, " %s", p->d.id);
	buf_printf(text, "delivery: %s waiting; %s: %s\n", p->d.id, lead,
	    buf_str(&cmd));
	json_object_set_new(sc, "parent_delivery", json_pack("{s:s, s:s}",
	    "delivery_id", p->d.id, "state", "waiting"));
	json_object_set_new(sc, "wait_process", json_pack("{s:o}", "argv",
	    argv));
	json_object_set_new(sc, "wait_command", json_string(buf_str(&cmd)));
	buf_free(&cmd);
	free(waiter);
}

void
parent_delivery_sent(struct parent_delivery *p,
    const struct dispatch_result *d, struct aiterm_buf *text, json_t *sc)
{
	struct aiterm_error err = ERROR_INIT;

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
	if (strcmp(p->d.parent, "claude") == 0) {
		if (claude_parent_link(&p->d, &err) != 0) {
			buf_printf(text, "delivery: none (%s)\n",
			    error_msg(&err));
			error_clear(&err);
			delivery_abandon(&p->d, p->lock_fd);
			p->lock_fd = -1;
			return;
		}
		self_receipt(p, text, sc, "Claude Code hook");
	} else if (strcmp(p->d.parent, "codex") == 0) {
		self_receipt(p, text, sc, "Codex thread queue");
	} else if (strcmp(p->d.parent, "cursor") == 0) {
		/* The hook, or a waiter when the turn ends first. */
		waiter_receipt(p, text, sc, "your next tool call gets the "
		    "answer (Cursor hook); if you end your turn first, run");
		json_object_set_new(sc, "wait_command", json_null());
	} else
		waiter_receipt(p, text, sc, "its answer is printed by");
	delivery_observe(&p->d, p->lock_fd);
	p->lock_fd = -1;
}
