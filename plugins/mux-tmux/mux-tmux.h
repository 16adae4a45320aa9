/*
 * Shared by the files of the mux-tmux plugin only.  Nothing here is
 * exported from the module: the build exports aiterm_plugin_describe alone.
 *
 * Files by concern:
 *   mux-tmux.c     the ops table and the descriptor
 *   tmux-run.c     strings, quoting, argv building, running tmux, errors
 *   tmux-ctl.c     the control-mode client that runs most commands
 *   tmux-create.c  the one invocation that creates a session
 *   tmux-lock.c    the state root's lock around creation (ADR 0020)
 *   tmux-pane.c    the pane_info and list formats and their parsers
 *   tmux-view.c    the view of the sessions list answers from
 *   tmux-conf.c    the private server: binary, socket, config, version
 *   keys.c         the key names send_key accepts
 */
#ifndef MUX_TMUX_H
#define MUX_TMUX_H

#include <stddef.h>

#include <aiterm/plugin.h>

/* A growable NUL-terminated string owned by the plugin. */
struct tx_str {
	char	*data;
	size_t	 len;
	size_t	 cap;
};

#define TX_STR_INIT { NULL, 0, 0 }

void	 tx_str_add(struct tx_str *s, const void *data, size_t len);
void	 tx_str_adds(struct tx_str *s, const char *text);
const char *tx_str_get(const struct tx_str *s);
void	 tx_str_free(struct tx_str *s);

/*
 * A tmux command list under construction: its words, unescaped, with
 * ";" words between commands.  It is rendered either as a tmux client's
 * argv (tx_argv_client) or as a line for tmux's command parser
 * (tx_argv_line), each with its own escaping.
 */
struct tx_argv {
	char	**v;	/* the words, NULL-terminated */
	char	 *sep;	/* sep[i] nonzero: v[i] is a ";" between commands */
	size_t	  n;
	size_t	  cap;
};

#define TX_ARGV_INIT { NULL, NULL, 0, 0 }

/* Append one word, any bytes but NUL: a verb, a flag or a value. */
void	 tx_argv_add(struct tx_argv *a, const char *s);
/* Append "-t" and the exact target "=<session>:". */
void	 tx_argv_target(struct tx_argv *a, const char *session);
/* Start a new command in the same command list. */
void	 tx_argv_next(struct tx_argv *a);
/* How many commands the list holds. */
size_t	 tx_argv_commands(const struct tx_argv *a);
/*
 * The list as a tmux client's argv: each word through tx_arg_escape and
 * each separator a ";" element.  NULL-terminated; free with tx_strv_free.
 */
char	**tx_argv_client(const struct tx_argv *a);
/* The list as one '\n'-terminated line, each word through tx_cmd_quote. */
char	*tx_argv_line(const struct tx_argv *a);
void	 tx_strv_free(char **v);
void	 tx_argv_free(struct tx_argv *a);
/* Zero a string in place (send-keys text may be a password). */
void	 tx_wipe(char *s);

/*
 * Quoting, each returning an allocated string the caller frees:
 * tx_shell_quote wraps s in POSIX single quotes ('\'' for a quote);
 * tx_format_escape doubles every '#' so tmux's format expansion gives s
 * back; tx_arg_escape turns a trailing ';' into '\;' so the tmux client
 * does not take it as a command separator; tx_cmd_quote makes s one word
 * for tmux's command parser (single quotes, with \' and \ooo outside
 * them for a quote and the control bytes).
 */
char	*tx_shell_quote(const char *s);
char	*tx_format_escape(const char *s);
char	*tx_arg_escape(const char *s);
char	*tx_cmd_quote(const char *s);

/*
 * Session names starting with this belong to the plugin (the control
 * client's session): list() hides them and ids may not use it.
 */
#define TX_RESERVED_PREFIX "_aiterm"

/*
 * 0 when session is a non-empty [A-Za-z0-9_-] id that does not start with
 * TX_RESERVED_PREFIX; else -1 with err set.
 */
int	 tx_session_check(const struct aiterm_host *host, const char *session,
	    struct aiterm_error *err);
/* Nonzero when key is an environment variable name ([A-Za-z_][A-Za-z0-9_]*). */
int	 tx_env_key_valid(const char *key);
/* 0 when tx_env_key_valid(key); else -1 with err set. */
int	 tx_env_key_check(const struct aiterm_host *host, const char *key,
	    struct aiterm_error *err);

/* Where the private server lives; filled by tx_server_get. */
struct tx_server {
	char	binary[512];	/* absolute path of tmux */
	char	socket[512];	/* <state_root>/tmux.sock */
	char	config[512];	/* <state_root>/tmux.conf */
	char	lock[512];	/* <state_root>/tmux.lock (tmux-lock.c) */
};

/* The longest tx_lock_take waits for another server, in milliseconds. */
#define TX_LOCK_WAIT_MS	2000

/*
 * Take srv->lock, the state root's creation lock, waiting at most
 * TX_LOCK_WAIT_MS: 0, or -2 when another process held it all that time,
 * or -1 when it cannot be opened or locked (a read-only state root),
 * each with err set (unless NULL).  A take while this process holds it
 * is counted and returns 0 at once; every 0 is paired with one
 * tx_lock_drop.
 */
int	 tx_lock_take(const struct aiterm_host *host,
	    const struct tx_server *srv, struct aiterm_error *err);
void	 tx_lock_drop(void);

/* What one tmux invocation gave back. */
#define TX_BLOCKS_MAX	4

struct tx_result {
	int		status;		/* exit status, 128+signal if killed */
	struct tx_str	out;
	struct tx_str	errout;
	/*
	 * Over the control client: where each command's output ends in out,
	 * for the first TX_BLOCKS_MAX commands of the list (blocks counts
	 * them); a one-shot client's output is not split (blocks 0).
	 */
	size_t		ends[TX_BLOCKS_MAX];
	int		blocks;
};

#define TX_RESULT_INIT { -1, TX_STR_INIT, TX_STR_INIT, { 0 }, 0 }

/* Whether a command may be run again after it was sent but not answered. */
enum tx_resend {
	TX_RESEND_OK,		/* asking or setting twice does no harm */
	TX_RESEND_NEVER,	/* typing twice would: fail instead */
	/*
	 * A secret: typed once, and only over the control client's pipe; a
	 * one-shot tmux client would carry it in its argv, which any process
	 * can read (/proc/<pid>/cmdline).  Fail instead.
	 */
	TX_CONTROL_ONLY,
};

/*
 * Run cmd on the private server: through the control client when it can
 * take it (tmux-ctl.c), else as "<binary> -S <socket> -f <config> <cmd>"
 * by host->run.  Returns 0 when tmux answered (whatever its status), -1
 * with err set (unless err is NULL) when it could not be asked.
 */
int	 tx_run(const struct aiterm_host *host, const struct tx_server *srv,
	    const struct tx_argv *cmd, enum tx_resend resend,
	    struct tx_result *res, struct aiterm_error *err);
/*
 * Ask the server through the control client before a one-shot client
 * goes to it: -1 with err set when it does not answer (the client's
 * timeout, an answer still owed, or tmux.lock held 2 s by another
 * server): then nothing more may connect to it (tmux-ctl.c).  0 when it
 * answers, or when no control client can ask (no server yet, control
 * mode off).
 */
int	 tx_answering(const struct aiterm_host *host,
	    const struct tx_server *srv, struct aiterm_error *err);
/* The same, always by a one-shot tmux client (create starts the server). */
int	 tx_run_spawn(const struct aiterm_host *host,
	    const struct tx_server *srv, const struct tx_argv *cmd,
	    struct tx_result *res, struct aiterm_error *err);
/* Run any argv by host->run into res; -1 with err set if it cannot start. */
int	 tx_host_run(const struct aiterm_host *host, const char *const argv[],
	    struct tx_result *res, struct aiterm_error *err);

/* What tx_ctl_run did with a command. */
enum tx_ctl_outcome {
	TX_CTL_DONE,	/* answered: res is filled */
	TX_CTL_UNSENT,	/* nothing will run it: run it another way */
	TX_CTL_LOST,	/* sent; the client ended before the answer */
	TX_CTL_STALLED,	/* sent; the server did not answer in time */
	TX_CTL_BUSY,	/* not sent: an earlier line is still not answered */
	TX_CTL_LOCKED,	/* not sent: no client, and the lock stayed taken */
};

/*
 * Run cmd through the control client, starting one if the server is up
 * and none is running.  res is left empty unless TX_CTL_DONE.
 */
enum tx_ctl_outcome tx_ctl_run(const struct aiterm_host *host,
	    const struct tx_server *srv, const struct tx_argv *cmd,
	    struct tx_result *res);
/* CLOCK_MONOTONIC in milliseconds. */
long long tx_now_ms(void);
/* How long the control client may take to answer, in milliseconds. */
long	 tx_ctl_timeout_ms(void);
/* How long the line in flight has waited for tmux; 0 when none waits. */
long long tx_ctl_stalled_ms(void);
/* Stop the control client (killed by its PID and reaped), if any. */
void	 tx_ctl_stop(void);

/* Nonzero when tmux said the server or the session does not exist. */
int	 tx_result_missing(const struct tx_result *res);
/*
 * Fill err with "tmux <what> failed for session 'x': <first stderr line>"
 * (without the session part when session is NULL); returns -1.
 */
int	 tx_result_fail(const struct aiterm_host *host, struct aiterm_error *err,
	    const char *what, const char *session, const struct tx_result *res);
void	 tx_result_free(struct tx_result *res);

/* Fill srv from $AITERM_TMUX or PATH and the state root; checks lengths. */
int	 tx_server_get(const struct aiterm_host *host, struct tx_server *srv,
	    struct aiterm_error *err);
/* Write <state_root>/tmux.conf (0600) unless it already holds our text. */
int	 tx_config_write(const struct aiterm_host *host,
	    const struct tx_server *srv, struct aiterm_error *err);
/* The config text for a terminal type; allocated, the caller frees it. */
char	*tx_config_text(const char *default_terminal);
/* "tmux-256color" when its terminfo entry is installed, else "screen-256color". */
const char *tx_default_terminal(void);

/*
 * The version of srv->binary ("3.3a") into version, and whether that
 * tmux takes new-session -e (3.2 and later).  Cached per binary path.
 */
int	 tx_version(const struct aiterm_host *host, const struct tx_server *srv,
	    char *version, size_t len, int *has_env_flag,
	    struct aiterm_error *err);
/* Parse "3.3a", "next-3.4", "openbsd-7.4": nonzero when >= major.minor. */
int	 tx_version_at_least(const char *version, int major, int minor);

/*
 * Build the create command (after -S/-f) for opts.  has_env_flag says
 * whether new-session takes -e; without it the environment reaches the
 * child through env(1) and is registered with set-environment.  env_names
 * (NULL: none) is what tx_env_names gave, set as update-environment for
 * the new-session alone.
 */
void	 tx_create_argv(const struct aiterm_mux_create *opts, int has_env_flag,
	    const char *env_names, struct tx_argv *cmd);

/*
 * The most bytes of variable names create puts in update-environment: a
 * tmux client's whole command must fit one 16 KB message.
 */
#define TX_ENV_NAMES_MAX 8192

/*
 * Append to list (space-separated, each once) the name of every variable
 * of env and of the tmux server's global environment (none when no server
 * runs): what create names in update-environment so that the new pane gets
 * env, whoever started tmux (tmux-env.c).  0, or -1 with err set.
 */
int	 tx_env_names(const struct aiterm_host *host,
	    const struct tx_server *srv, const char *const *env,
	    struct tx_str *list, struct aiterm_error *err);

/*
 * The display-message format pane_info sends (tab-separated, the command
 * name last) and the parser of its one-line answer: 0 with info filled
 * (exists = 1) and the tmux server's PID in *server_pid, or -1 when the
 * line does not have every field.
 */
extern const char tx_pane_format[];
int	 tx_pane_parse(const char *line, struct aiterm_pane_info *info,
	    long *server_pid);
/*
 * The list-panes -a format list sends ("name:created", a tab, then the
 * pane_info fields) and the parser of one of its lines, which cuts line
 * at the ':': 0 with *session (pointing into line), *created and info
 * filled, or -1 when the line is not ours.
 */
extern const char tx_list_format[];
int	 tx_list_parse(char *line, const char **session, long *created,
	    struct aiterm_pane_info *info, long *server_pid);

/*
 * The view list answers from (tmux-view.c, ADR 0038).  A full list goes
 * tx_view_begin, tx_view_add for each session (an aiterm_mux_list_cb),
 * tx_view_commit with the server's PID and the control client's
 * generation before the list was sent, only when the control client
 * answered it.  tx_view_list answers from the view: 1 when it called cb
 * for every session, 0 when there is no view to answer from (do a full
 * list), -1 with err set when tmux did not answer.  pane_info is the
 * plugin's op, for a pane /proc cannot tell about.
 */
typedef int (*tx_pane_info_fn)(const struct aiterm_host *host,
	    const char *session, struct aiterm_pane_info *info,
	    struct aiterm_error *err);
void	 tx_view_begin(void);
void	 tx_view_add(const char *session, long created,
	    const struct aiterm_pane_info *info, void *arg);
void	 tx_view_commit(const struct tx_server *srv, long server_pid,
	    unsigned long long gen);
void	 tx_view_drop(void);
int	 tx_view_list(const struct aiterm_host *host,
	    const struct tx_server *srv, tx_pane_info_fn pane_info,
	    aiterm_mux_list_cb cb, void *arg, struct aiterm_error *err);
/*
 * Answer from the view as it is, each live pane brought up to now from
 * /proc first (after a full list: no question to tmux); as tx_view_list.
 */
int	 tx_view_answer(const struct aiterm_host *host,
	    tx_pane_info_fn pane_info, aiterm_mux_list_cb cb, void *arg,
	    struct aiterm_error *err);
/*
 * Nonzero when /proc shows that pid has ended (gone, or a zombie); 0
 * while it runs, or when there is no /proc to tell.
 */
int	 tx_proc_ended(long pid);
/*
 * The control client's generation: moved on by every notification it
 * read and every start and stop of a client (tmux-ctl.c).
 */
unsigned long long tx_ctl_generation(void);
/* Whether the last tx_ctl_run (so tx_run) was answered by the client. */
int	 tx_ctl_answered_line(void);

/* The NULL-terminated key-name table, and whether key is in it. */
const char *const *tx_key_names(void);
int	 tx_key_valid(const char *key);

/* Allocation for the plugin: out of memory aborts, as the host does. */
void	*tx_alloc(size_t size);
char	*tx_strdup(const char *s);

#endif
