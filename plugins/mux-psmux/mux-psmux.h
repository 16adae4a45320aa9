/*
 * Shared by the files of the mux-psmux plugin only (ADR 0024).  psmux
 * (>= 3.3.8, native Windows, PowerShell 7) speaks tmux's command
 * language; this plugin drives it with one-shot client invocations
 * through host->run, never a shell and never a control client, so that
 * the same words run on Windows and, for the Linux tests, on tmux.
 *
 * Files by concern:
 *   mux-psmux.c   the ops table and the descriptor
 *   ps-cmd.c      the command words of each op, and running them
 *   ps-conf.c     the binary, its version, the server's namespace
 *   ps-pane.c     the pane_info and list formats and their parser
 */
#ifndef MUX_PSMUX_H
#define MUX_PSMUX_H

#include <stddef.h>

#include <aiterm/plugin.h>

/* The oldest psmux this plugin knows (FEATURES.md OPS-PLATFORM). */
#define PS_MIN_MAJOR	3
#define PS_MIN_MINOR	3
#define PS_MIN_PATCH	8
#define PS_MIN_TEXT	"3.3.8"

/* Where the private server is: its binary and its -L namespace. */
struct ps_server {
	char	binary[512];
	char	ns[32];		/* "aiterm-" and 16 hex digits of the state root */
};

/* Fill srv from $AITERM_PSMUX or PATH and the state root. */
int	 ps_server_get(const struct aiterm_host *host, struct ps_server *srv,
	    struct aiterm_error *err);
/*
 * The version srv->binary prints for -V into version ("3.3.8"): -1 with
 * err when it is not psmux >= 3.3.8.  Only when AITERM_PSMUX_ALLOW_TMUX
 * is "1" is a tmux accepted instead, for the Linux tests (ADR 0024).
 */
int	 ps_version(const struct aiterm_host *host, const struct ps_server *srv,
	    char *version, size_t len, struct aiterm_error *err);
/* "psmux 3.3.8" into its name and dotted numbers; 0, or -1. */
int	 ps_version_parse(const char *text, char *name, size_t name_len,
	    int num[3]);

/*
 * Run "<binary> -L <ns> <words...>" (words NULL-terminated) by host->run.
 * Returns the exit status, or -1 with err when it could not be run.
 */
int	 ps_run(const struct aiterm_host *host, const struct ps_server *srv,
	    const char *const *words, struct aiterm_buf *out,
	    struct aiterm_buf *errout, struct aiterm_error *err);
/* Nonzero when errout says the server or the session does not exist. */
int	 ps_missing(const struct aiterm_host *host, struct aiterm_buf *errout);
/* err = "psmux <what> failed for session 'x': <first stderr line>"; -1. */
int	 ps_fail(const struct aiterm_host *host, struct aiterm_error *err,
	    const char *what, const char *session, struct aiterm_buf *errout);

/* A copy of s; out of memory aborts, as the host does. */
char	*ps_strdup(const char *s);
/* "=<session>:" (exact match, never a prefix) into buf of size len. */
void	 ps_target(char *buf, size_t len, const char *session);
/* A word that ends in ';' as "\;", so the client does not split there. */
char	*ps_word_escape(const char *s);
/* The pipe-pane command that appends the pane's output to path. */
char	*ps_pipe_command(const char *path);

/* pane_info's format, list's format, and the parser of one line. */
extern const char ps_pane_format[];
extern const char ps_list_format[];
/*
 * line: for list, "<session>\t<created>\t" in front of the pane fields
 * (session and created non-NULL); 0 with info filled, or -1.
 */
int	 ps_pane_parse(char *line, const char **session, long *created,
	    struct aiterm_pane_info *info);

/* The key names send_key accepts, NULL-terminated, and a lookup. */
const char *const *ps_key_names(void);
int	 ps_key_valid(const char *key);

#endif
