/*
 * The send pipeline (PTY-SEND): one sender per session (a lock holding
 * PID + start id), sanitising unless raw, multi-line text as one eval line
 * in a shell, a sentinel where our shell integration is absent, UTF-8-safe
 * 256-byte chunks, and a record of where the command's output begins.
 */
#ifndef AITERM_SEND_H
#define AITERM_SEND_H

#include <stdbool.h>
#include <stddef.h>

#include "pty/render.h"
#include "pty/session.h"
#include "util/error.h"

#define SEND_MAX_BYTES	65536

struct send_request {
	const char	*session;
	const char	*text;
	size_t		 len;
	bool		 enter;
	bool		 raw;
};

/*
 * How text reaches the session: its shell (marked), a shell run inside
 * the foreground program (ssh, docker exec: a sentinel), or typed into
 * another program as it is.  One name each (pty_send's "mode").
 */
enum send_route {
	SEND_SHELL,
	SEND_NESTED,
	SEND_DIRECT,
	SEND_ROUTE_COUNT
};

const char	*send_route_name(enum send_route r);

/* What was sent, for the waiter. */
struct send_outcome {
	struct session_meta	meta;
	struct session_command	cmd;
	long			shell_pid;
	enum send_route		route;
	char			*echo_suffix;	/* the sentinel text, to drop */
};

/*
 * Called once: status 0 with err NULL and the outcome, or -1 with err;
 * err and out are borrowed for the call.
 */
typedef void (*send_cb)(void *arg, int status,
    const struct aiterm_error *err, struct send_outcome *out);

/*
 * Send req's text (its strings are copied).  When another sender holds
 * the session's send lock, it is tried again from a timer (the loop never
 * sleeps) for up to 2 s; cb may run before this returns.
 */
void	send_text_async(const struct send_request *req, send_cb cb, void *arg);
void	send_outcome_free(struct send_outcome *out);

/* Check that the session exists and is alive; fills meta and info. */
int	send_check_session(const char *id, struct session_meta *meta,
	    struct aiterm_pane_info *info, struct aiterm_error *err);

#endif
