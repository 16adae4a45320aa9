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
#include "shell/sanitize.h"
#include "util/error.h"

#define SEND_MAX_BYTES	65536

struct send_request {
	const char	*session;
	const char	*text;
	size_t		 len;
	bool		 enter;
	bool		 raw;
	/*
	 * Keep the session's turn after typing, until send_release: a waited
	 * send holds it through its wait (issue 37), so that no other
	 * command is typed before its result is taken.
	 */
	bool		 hold;
	/* How long it may wait for its turn (ms; 0: SEND_TURN_WAIT_MS). */
	unsigned	 turn_ms;
};

/* How long a send waits for its turn unless told (the queue, the lock). */
#define SEND_TURN_WAIT_MS	2000

struct send_job;

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
	/*
	 * SEND_DIRECT: the program read its terminal key by key when the
	 * text was typed (at a prompt: a REPL, a line editor; issue 34).
	 */
	bool			prompting;
	char			*typed;		/* SEND_DIRECT: the text typed */
	struct send_job		*hold;		/* req.hold: send_release it */
	struct shell_removed	 removed;	/* what sanitising took out */
};

/*
 * Called once: status 0 with err NULL and the outcome, or -1 with err;
 * err and out are borrowed for the call.
 */
typedef void (*send_cb)(void *arg, int status,
    const struct aiterm_error *err, struct send_outcome *out);

/*
 * Send req's text (its strings are copied).  Sends to one session are
 * typed in the order they came (pty/sendq.h); its turn comes when those
 * before it are done and the session's send lock is free (another server
 * may hold it: tried again from a timer, the loop never sleeps).  Not
 * typed within req.turn_ms: cb gets "session busy", nothing typed.
 * Returns the job, for send_cancel until cb has run; NULL when cb has
 * already run (then arg may be gone).
 */
struct send_job	*send_text_async(const struct send_request *req, send_cb cb,
		    void *arg);
/*
 * The caller no longer wants it: while it still waits for its turn (the
 * queue, the lock), cb gets "cancelled" now and nothing is typed; once
 * its turn has come it goes on and cb is called as usual.
 */
void	send_cancel(struct send_job *j);
/* Give back a held turn (out->hold): the lock, then the next send goes. */
void	send_release(struct send_job *j);
void	send_outcome_free(struct send_outcome *out);

/* Check that the session exists and is alive; fills meta and info. */
int	send_check_session(const char *id, struct session_meta *meta,
	    struct aiterm_pane_info *info, struct aiterm_error *err);

#endif
