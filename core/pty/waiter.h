/*
 * The completion engine (PTY-DONE).  A waiter watches a session's output
 * log from a byte offset and decides when the command is over, by
 * precedence:
 *
 *   exit        the pane's process ended
 *   sentinel    our OSC 133 D mark (the session's token, or the command's
 *               nonce) with the exit status
 *   until       the literal or regex appeared in the output
 *   quiescent   no output for quiet_ms with the shell in the foreground,
 *               only when no mark is expected
 *   secret      the pane waits for a secret (pty/secret.h: its terminal
 *               reads lines with echo off and its foreground process is
 *               blocked reading it): a password for the person, never
 *               the model, so no wait runs out its timeout there
 *   input       no output for quiet_ms, another program in the foreground
 *               that waits for input: the terminal reads key by key
 *               (ICANON off) and the cursor sits after text on its line
 *               (a prompt); when no mark is expected, or when input_end
 *               says that a program taking the terminal ends the wait
 *   nested      no output for quiet_ms, no mark expected, and something
 *               other than the shell in the foreground: complete=false
 *   timeout     complete=false
 *
 * Output arrival wakes the waiter at once (inotify through uv_fs_event);
 * timers only bound the wait and test quiescence.
 */
#ifndef AITERM_WAITER_H
#define AITERM_WAITER_H

#include <stdbool.h>
#include <stdint.h>

#include "proc/proc.h"
#include "pty/render.h"
#include "pty/secret.h"
#include "pty/session.h"
#include "util/error.h"

enum waiter_via {
	VIA_EXIT,
	VIA_SENTINEL,
	VIA_UNTIL,
	VIA_QUIESCENT,
	VIA_NESTED,
	VIA_INPUT,	/* another program waits for input (issue 34) */
	VIA_SECRET,	/* the pane waits for a secret (issue 36) */
	VIA_TIMEOUT,
	VIA_LOST,	/* the session disappeared */
};

struct waiter_result {
	bool		 complete;
	enum waiter_via	 via;
	int		 exit_code;	/* -1 when unknown */
	uint64_t	 end;		/* output of the command ends here */
	/*
	 * sentinel by a nested command's own D mark (its nonce): just past
	 * that mark, where its result ends (0 otherwise).
	 */
	uint64_t	 mark_end;
	uint64_t	 scanned;	/* the log was read up to here */
	double		 duration_ms;
	/* VIA_SENTINEL: the session's own shell marked it (not a nonce). */
	bool		 by_shell;
	/* VIA_INPUT: the program that waits, as the multiplexer names it. */
	char		 program[64];
	/* VIA_SECRET: the prompt's line, as the screen shows it. */
	char		 prompt[SECRET_PROMPT_MAX];
	/* ... and the pane's process it is bound to (pid, start identity). */
	long		 pane_pid;
	char		 start_id[PROC_START_ID_MAX];
	/* ... and the multiplexer's socket, for the attach command. */
	char		 mux_socket[512];
};

struct waiter_opts {
	const char		*session;
	uint64_t		 from;
	enum render_region	 region;	/* at from */
	bool			 expect_mark;
	uint64_t		 mark_after;	/* ignore marks before this */
	unsigned		 marks_ahead;	/* then skip this many D marks */
	bool			 drop_prompt;	/* see struct render */
	const char		*token;		/* session token */
	const char		*nonce;		/* command nonce, may be NULL */
	const char		*until;		/* may be NULL */
	bool			 until_regex;
	/*
	 * until is looked for only in what came at or after this offset
	 * (a send's own: what came between the last read and the send,
	 * a REPL's prompt left from the call before, is shown but never
	 * matched; issue 34).  0: from from.
	 */
	uint64_t		 until_from;
	/*
	 * A program that takes the terminal from the shell and waits for
	 * input ends the wait even though a mark is due (a send that started
	 * ssh or python3 from the shell; issue 34).  Not with until.
	 */
	bool			 input_end;
	/*
	 * Typed to a program at its prompt: with no mark due, quiet while
	 * its terminal is back in line mode (it works on the line) does not
	 * end the wait; its next prompt does (input).
	 */
	bool			 expect_prompt;
	double			 timeout_s;
	unsigned		 quiet_ms;
	long			 shell_pid;	/* for the foreground test */
	/*
	 * The pane's process when the caller has just seen it alive (a
	 * send's pane_info): watched at once, without asking the
	 * multiplexer again (issue 38).  0: asked on the muxjob worker.
	 */
	long			 pane_pid;
	void			(*done)(void *arg, const struct waiter_result *r);
	void			(*progress)(void *arg, double elapsed_ms);
	void			*arg;
};

struct waiter;

/* NULL with err on a bad regex (naming the offset) or an unreadable log. */
struct waiter	*waiter_start(const struct waiter_opts *o, struct aiterm_error *err);
/* Stop without calling done. */
void		 waiter_cancel(struct waiter *w);
const char	*waiter_via_name(enum waiter_via via);
/* Check a regex without waiting: -1 with the pcre2 message and offset. */
int		 waiter_check_regex(const char *re, struct aiterm_error *err);

#endif
