/*
 * Ending a closed session's processes (PTY-CLOSE, issue 37).  Closing the
 * terminal hangs up what runs in it, but a process that ignores SIGHUP
 * (an agent CLI, a node program) or that left the pane's session
 * (`setsid cmd &`) would live on as an orphan.  So pty_close finds the
 * pane's family (proc/family.h) before the terminal closes, and then ends
 * what is left of it: SIGHUP, a grace, SIGTERM, a grace, SIGKILL (and
 * SIGKILL again for what was forked meanwhile), each step after looking
 * again.  The looks and the signals run on the multiplexer's worker; the
 * graces are a loop timer, cut short by pidfd watches (util/watch.h) once
 * everything has ended, so the loop never sleeps.  A signal goes only to
 * a pid whose start is the one seen (proc_signal).
 */
#ifndef AITERM_PTY_TREEKILL_H
#define AITERM_PTY_TREEKILL_H

#include <jansson.h>

#include "pty/session.h"
#include "util/buf.h"

struct treekill;

/*
 * On the multiplexer's thread, before the terminal is closed: the family
 * of session id.  live_pid is the pane's process as the multiplexer names
 * it now (0: none, the session is lost or its pane dead); meta is the
 * session's record (NULL: none); mux_exe the multiplexer's executable
 * name, whose processes are never ended (NULL: none known).
 */
struct treekill *treekill_find(const char *id, long live_pid,
	    const struct session_meta *meta, const char *mux_exe);
/* On the multiplexer's thread, once the terminal is closed: SIGHUP. */
void	treekill_hangup(struct treekill *tk);
/*
 * On the loop: the graces, SIGTERM and SIGKILL; done(arg) runs on the
 * loop when nothing of the family is left, or after the last SIGKILL's
 * grace (at most about 2 s after the hangup).
 */
void	treekill_run(struct treekill *tk, void (*done)(void *), void *arg);
/* [{pid, command, signal}] of what needed SIGTERM or SIGKILL to end. */
json_t	*treekill_killed(const struct treekill *tk);
/* [{pid, command}] of what still ran after the last SIGKILL. */
json_t	*treekill_left(const struct treekill *tk);
/* The same for the reply's text ("; ..."), nothing when both are empty. */
void	treekill_describe(const struct treekill *tk, struct aiterm_buf *b);
/* From the loop once it was run (its timer is closed there), or never run. */
void	treekill_free(struct treekill *tk);

#endif
