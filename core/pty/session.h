/*
 * PTY sessions as files under the state root.  The multiplexer holds the
 * terminal; everything Aiterm itself needs to know about a session lives in
 * <root>/sessions/<id>/ (0700), so a restarted server rebuilds it all:
 *
 *   meta.json     what pty_open chose (shell, dialect, mark token, size)
 *                 and the pane's first process (pid, start)
 *   output.log    the append-only raw output (multiplexer pipe)
 *   cursor.json   where the last read stopped (byte offset and line)
 *   command.json  the last command sent: where its output starts and how
 *                 its end is marked
 *   send.lock     the sender's lock (PID + start id), only while sending
 *   last-command  the last command text (for choosing a reducer)
 */
#ifndef AITERM_SESSION_H
#define AITERM_SESSION_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "aiterm/plugin.h"
#include "proc/proc.h"
#include "shell/dialect.h"
#include "util/error.h"

#define SESSION_ID_MAX		64
#define SESSION_TOKEN_LEN	16

struct session_meta {
	char			 id[SESSION_ID_MAX + 1];
	char			 shell[256];	/* what was started */
	enum shell_dialect	 dialect;
	bool			 integration;	/* our marks are emitted */
	bool			 start_marks;	/* ... including C (command start) */
	char			 token[SESSION_TOKEN_LEN + 1];
	char			 cwd[4096];
	unsigned		 cols, rows;
	long long		 created_ms;
	/*
	 * The pane's first process once it started (PTY-CLOSE): its pid,
	 * start id and start on proc_clock_ms's clock, so that a later server
	 * finds what is left of it; pane_pid 0 when not known.
	 */
	long			 pane_pid;
	char			 pane_start[PROC_START_ID_MAX];
	unsigned long long	 pane_start_ms;
};

struct session_cursor {
	uint64_t	offset;
	uint64_t	line;		/* 1-based line number at offset */
	int		region;		/* enum render_region at offset */
};

/* How the end of the last command is recognised. */
enum session_mark {
	MARK_NONE = 0,		/* quiescence or until only */
	MARK_INTEGRATION,	/* OSC 133;D from our prompt hook */
	MARK_SENTINEL,		/* an appended sentinel with a nonce */
};

struct session_command {
	uint64_t		offset;		/* output starts here */
	enum session_mark	mark;
	char			nonce[SESSION_TOKEN_LEN + 1];
	enum shell_dialect	dialect;	/* of the sentinel */
	long long		sent_ms;
	bool			done;		/* its end was seen */
	int			exit_code;	/* when done, -1 unknown */
	uint64_t		end;		/* when done: where output ended */
	/*
	 * End marks still owed to commands sent before this one and not yet
	 * run (typeahead): the waiter skips that many D marks.
	 */
	unsigned		ahead;
};

/* [A-Za-z0-9_-]{1,64}, not starting with '-' (tmux turns '.' into '_'). */
bool	session_id_valid(const char *id);
/* Allocated <root>/sessions/<id>[/<name>]. */
char	*session_path(const char *id, const char *name);
bool	session_exists_on_disk(const char *id);

int	session_meta_write(const struct session_meta *m, struct aiterm_error *err);
int	session_meta_read(const char *id, struct session_meta *m,
	    struct aiterm_error *err);
/*
 * Record the pane's first process in meta.json once the terminal was
 * created (on the multiplexer's thread).  A pane whose process is already
 * gone is left unrecorded: 0 either way.
 */
int	session_pane_record(const char *id, struct aiterm_error *err);
int	session_cursor_write(const char *id, const struct session_cursor *c,
	    struct aiterm_error *err);
/* A missing cursor reads as the start of the log. */
int	session_cursor_read(const char *id, struct session_cursor *c);
int	session_command_write(const char *id, const struct session_command *c,
	    struct aiterm_error *err);
/* -1 when there is no command record. */
int	session_command_read(const char *id, struct session_command *c);
/* A JSON file of the session's folder, written atomically (steals o). */
int	session_json_write(const char *id, const char *name, json_t *o,
	    struct aiterm_error *err);
/* NULL with err when it is missing or not JSON. */
json_t	*session_json_read(const char *id, const char *name,
	    struct aiterm_error *err);
/* Create the session's folder (0700) and its empty output.log (0600). */
int	session_create_log(const char *id, struct aiterm_error *err);
/* Remove the session's folder and everything in it. */
int	session_remove(const char *id, struct aiterm_error *err);
/*
 * Remove what a writer killed in the middle of an atomic write left in
 * every session's folder (temporaries whose writer is gone); best effort.
 */
void	session_cleanup_all(void);

/* The multiplexer plugin in use, or NULL with err. */
const struct aiterm_mux_ops *session_mux(struct aiterm_error *err);
/*
 * The pid of the session's first pane's process, or 0 when the
 * multiplexer names none (live_only: also when the pane is dead).  It
 * asks the multiplexer: call it on its thread (pty/muxjob.h).
 */
long	session_pane_pid(const char *id, bool live_only);
/*
 * The pane's info and, when it exists, its screen appended to screen, by
 * the multiplexer's pane_screen in one operation (ABI 2.5), else by
 * pane_info then capture.  On the multiplexer's thread.
 */
int	session_pane_screen(const struct aiterm_mux_ops *mux, const char *id,
	    struct aiterm_pane_info *info, struct aiterm_buf *screen,
	    struct aiterm_error *err);
/* Random lowercase hex of len characters. */
void	session_random_hex(char *out, size_t len);
long long session_now_ms(void);

#endif
