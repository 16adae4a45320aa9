/*
 * Aiterm plugin ABI.
 *
 * This is the only header a plugin includes.  A plugin is a shared object
 * that exports exactly one symbol, aiterm_plugin_describe, returning a
 * pointer to a constant struct aiterm_plugin.  The core refuses a plugin
 * whose abi_major differs from AITERM_ABI_MAJOR or whose abi_minor is newer
 * than AITERM_ABI_MINOR.  Every struct below is append-only: a new member
 * goes at the end and bumps AITERM_ABI_MINOR, and the core reads a member
 * only when the plugin's minor says it exists.
 *
 * Plugins never free memory the core allocated and the core never frees
 * memory a plugin allocated: results travel through struct aiterm_buf and
 * struct aiterm_error, which only the host's functions touch.
 */
#ifndef AITERM_PLUGIN_H
#define AITERM_PLUGIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>

#ifdef __cplusplus
extern "C" {
#endif

#define AITERM_ABI_MAJOR 2
#define AITERM_ABI_MINOR 6

#define AITERM_PLUGIN_SYMBOL "aiterm_plugin_describe"

enum aiterm_plugin_kind {
	AITERM_KIND_MUX = 1,
	AITERM_KIND_HARNESS = 2,
	AITERM_KIND_REDUCER = 3,
	AITERM_KIND_RECEIVER = 4,
};

enum aiterm_log_level {
	AITERM_LOG_DEBUG = 0,
	AITERM_LOG_INFO,
	AITERM_LOG_NOTICE,
	AITERM_LOG_WARNING,
	AITERM_LOG_ERROR,
};

/* A growable byte buffer owned by the core; plugins append through the host. */
struct aiterm_buf;
/* An error slot owned by the core; plugins fill it through the host. */
struct aiterm_error;

/*
 * What the core offers a plugin.  Passed to every op; plugins link against
 * nothing in the core.
 */
struct aiterm_host {
	unsigned abi_major;
	unsigned abi_minor;

	/* Diagnostics to stderr (never stdout) tagged with the plugin name. */
	void (*log)(enum aiterm_log_level level, const char *plugin,
	    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

	/* Fill an error slot with a formatted message; returns -1. */
	int (*error)(struct aiterm_error *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

	/* Append bytes to a buffer; never fails (aborts on out-of-memory). */
	void (*buf_add)(struct aiterm_buf *buf, const void *data, size_t len);
	void (*buf_printf)(struct aiterm_buf *buf, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
	const char *(*buf_data)(const struct aiterm_buf *buf);
	size_t (*buf_len)(const struct aiterm_buf *buf);

	/*
	 * Run argv (argv[0] searched in PATH, no shell) to completion, with
	 * stdin from /dev/null, stdout appended to out (may be NULL to
	 * discard) and stderr appended to errout (may be NULL).  Returns the
	 * exit status (0-255), 128+signal when killed, or -1 with err filled
	 * when the program could not be started or did not end within the
	 * core's deadline (10 s; it is then killed: a stuck program must not
	 * hold the server).
	 */
	int (*run)(const char *const argv[], struct aiterm_buf *out,
	    struct aiterm_buf *errout, struct aiterm_error *err);

	/* The state root, an absolute path to a 0700 directory. */
	const char *(*state_root)(void);

	/* A new empty buffer, and freeing one made by buf_new. */
	struct aiterm_buf *(*buf_new)(void);
	void (*buf_free)(struct aiterm_buf *buf);

	/* ABI 2.1 */

	/*
	 * Write a file under the state root atomically (a temporary file,
	 * fsync, rename), mode 0600; `relpath` is relative to the state root,
	 * its folders are made 0700.  0, or -1 with err filled.
	 */
	int (*write_state)(const char *relpath, const void *data, size_t len,
	    struct aiterm_error *err);
	/*
	 * Start argv detached, without a shell, stdio to /dev/null, on the
	 * core's loop, which reaps it; nothing waits for it.  argv[0] is the
	 * name of one of Aiterm's programs ("aiterm-hook"): the core runs the
	 * one installed beside the server.  0, or -1 with err filled.
	 */
	int (*spawn_program)(const char *const argv[], struct aiterm_error *err);
};

/*
 * Multiplexer ops (kind mux).  `session` is always a validated id made of
 * [A-Za-z0-9_.-]; plugins still pass it as one argv element, never through
 * a shell.  Every op returns 0 on success or -1 with err filled.
 */
struct aiterm_mux_info {
	char binary[512];	/* absolute path of the multiplexer binary */
	char version[64];	/* e.g. "3.3a" */
	char socket[512];	/* socket of the private server */
};

struct aiterm_mux_create {
	const char *session;
	const char *cwd;		/* NULL: the core's cwd */
	/*
	 * NULL-terminated "KEY=VALUE" list, on top of the environment of the
	 * server that calls create: the pane has that, whoever started the
	 * multiplexer (ADR 0031).
	 */
	const char *const *env;
	const char *const *argv;	/* NULL-terminated command; NULL: default shell */
	unsigned cols, rows;
	const char *log_path;		/* append-only output log (pipe-pane) */
	/*
	 * The program that writes the log: run as "<log_writer> --log-pipe
	 * <log_path>" with the pane's output on its stdin (it counts what a
	 * full disk loses); NULL: the plugin's own appender.
	 */
	const char *log_writer;
};

struct aiterm_pane_info {
	int exists;		/* the session exists in the multiplexer */
	int dead;		/* its pane's process has exited */
	long pid;		/* pid of the pane's first process, -1 if unknown */
	int dead_status;	/* exit status when dead, -1 if unknown */
	char command[64];	/* current foreground command name */
	unsigned cols, rows;
	unsigned cursor_x, cursor_y;
};

typedef void (*aiterm_mux_list_cb)(const char *session, long created,
    const struct aiterm_pane_info *pane, void *arg);

struct aiterm_mux_ops {
	/* Find the binary and its version; start nothing. */
	int (*probe)(const struct aiterm_host *host, struct aiterm_mux_info *info,
	    struct aiterm_error *err);
	/* Create a detached session running argv in cwd with env. */
	int (*create)(const struct aiterm_host *host,
	    const struct aiterm_mux_create *opts, struct aiterm_error *err);
	/*
	 * Type bytes literally (no key-name lookup), len <= 256, then press
	 * Enter when enter is nonzero, in the same operation.
	 */
	int (*send_text)(const struct aiterm_host *host, const char *session,
	    const char *bytes, size_t len, int enter, struct aiterm_error *err);
	/* Send one named key (a name from key_names). */
	int (*send_key)(const struct aiterm_host *host, const char *session,
	    const char *key, struct aiterm_error *err);
	/* Append the visible screen (plain text, one line per row) to out. */
	int (*capture)(const struct aiterm_host *host, const char *session,
	    struct aiterm_buf *out, struct aiterm_error *err);
	/* Fill info; a missing session is not an error (exists = 0). */
	int (*pane_info)(const struct aiterm_host *host, const char *session,
	    struct aiterm_pane_info *info, struct aiterm_error *err);
	/*
	 * Call cb for every session of the private server with its first
	 * pane's info, in one operation (pty_list must stay fast).  It may
	 * answer from what the plugin keeps (mux-tmux: ADR 0038), but never
	 * older than the call: a session or pane ended before it began is
	 * reported gone or dead.
	 */
	int (*list)(const struct aiterm_host *host, aiterm_mux_list_cb cb,
	    void *arg, struct aiterm_error *err);
	/* Register KEY=VALUE on the session (seen by new panes). */
	int (*set_env)(const struct aiterm_host *host, const char *session,
	    const char *key, const char *value, struct aiterm_error *err);
	/* Kill the session; a missing session is not an error. */
	int (*kill)(const struct aiterm_host *host, const char *session,
	    struct aiterm_error *err);
	/* NULL-terminated list of key names send_key accepts. */
	const char *const *(*key_names)(void);
	/*
	 * Paste bytes into the pane as one paste (bracketed when the program
	 * asked for it, so newlines stay in one prompt), len <= 65536.
	 */
	int (*paste)(const struct aiterm_host *host, const char *session,
	    const char *bytes, size_t len, struct aiterm_error *err);
	/*
	 * ABI 2.5.  Type a secret the person gave (a password, a passphrase)
	 * literally, len <= 256, then Enter, as send_text does, but only by a
	 * way that leaves it in no process argument, file or multiplexer
	 * buffer; fail rather than take another way (mux-tmux: only over its
	 * control client, never a one-shot tmux process, whose arguments any
	 * process of the machine can read).  NULL: the multiplexer has no such
	 * way, and the core types no secret (ADR 0037).
	 */
	int (*send_secret)(const struct aiterm_host *host, const char *session,
	    const char *bytes, size_t len, struct aiterm_error *err);
	/*
	 * ABI 2.5.  pane_info and capture in one operation, both of the same
	 * moment (the cursor is the screen's): info filled as pane_info
	 * fills it, the screen appended to out only when the pane exists.
	 * NULL: the core calls pane_info, then capture.
	 */
	int (*pane_screen)(const struct aiterm_host *host, const char *session,
	    struct aiterm_pane_info *info, struct aiterm_buf *out,
	    struct aiterm_error *err);
};

/*
 * Reducer ops (kind reducer).  A reducer plugin carries a table of
 * command reducers (RED-CMD).  Which command lines each one claims is data
 * in the plugin's manifest ("reducers:" entries with name, version and
 * commands); the core parses the command line, skips prefixes such as
 * sudo, env, VAR=value and runners such as "uv run", matches the claims
 * and calls reduce.  The descriptor's table and the manifest's entries
 * must name the same reducers with the same versions, or the plugin is
 * refused.
 *
 * reduce is a pure function: no I/O, no globals, no state between calls.
 * It sees the output after RED-STRIP (escape sequences gone, CR redraws
 * resolved, CRLF made LF, valid UTF-8) and appends a shorter faithful
 * view of it to out.  It returns 0, or -1 to decline (the shape is not
 * one it knows); the core then runs the generic stages.  What it folds it
 * must say it folded (RED-FAITHFUL): a count, never silence; a failure, an
 * error line, a failing test name, a conflict or a warning count is never
 * folded.
 *
 * reduce returns 0 when it left something out: the core then adds one
 * line saying which reducer ran and the exact pty_read line_range that
 * returns the whole text.  It returns 1 when nothing was left out, only
 * laid out more tightly (columns squeezed, a header folded into each
 * row), and -1 to decline.  The core uses the stripped text instead
 * whenever the result is not shorter.
 */
struct aiterm_reduce_input {
	const char		*text;	/* stripped output, UTF-8, LF lines */
	size_t			 len;
	const char		*command; /* the whole command line as typed */
	/*
	 * The words of the command that produced the output: prefixes
	 * skipped, quotes removed, NULL-terminated; argv[0] is the program
	 * name without its directory.
	 */
	const char *const	*argv;
	int			 exit_code;	/* -1 when unknown */
	/* The lines the AI should get at most; the core cuts beyond it. */
	size_t			 max_lines;
	/*
	 * ABI 2.6.  The bytes the AI should get at most, 0 for no limit: a
	 * client's bound (ADR 0043), or a listing's far beyond its line
	 * budget (ADR 0044).  The core keeps the head and tail of a longer
	 * result; a reducer that chooses what fits says more.
	 */
	size_t			 max_bytes;
};

struct aiterm_reducer {
	const char	*name;		/* as in the manifest, [a-z0-9-]+ */
	const char	*version;	/* as in the manifest */
	int		(*reduce)(const struct aiterm_host *host,
			    const struct aiterm_reduce_input *in,
			    struct aiterm_buf *out);
};

struct aiterm_reducer_ops {
	/* The reducers, ended by an entry whose name is NULL. */
	const struct aiterm_reducer *reducers;
};

/*
 * Harness ops (kind harness): one agent CLI (AGT-*; ADR 0007).  The harness
 * owns its loop, auth, hooks, session, transcript and model catalog; the
 * plugin only tells the core how to start it, how to read its screen and
 * its transcript, and which keys to press.  Every op is pure: it takes
 * bytes and returns results, and the core does all I/O (spawning, the
 * multiplexer, reading files, waiting), so each op is unit-testable on
 * recorded screens and transcripts.  Ops marked "may be NULL" say what the
 * core does without them.
 */
enum aiterm_screen_state {
	AITERM_SCREEN_UNKNOWN = 0,	/* nothing known matched */
	AITERM_SCREEN_STARTING,		/* drawing, not yet taking input */
	AITERM_SCREEN_INPUT_READY,	/* the composer takes a prompt */
	AITERM_SCREEN_RUNNING,		/* a turn is in progress */
	AITERM_SCREEN_APPROVAL,		/* the harness asks to allow an action */
	AITERM_SCREEN_BLOCKING_DIALOG,	/* a start-up or consent screen */
	AITERM_SCREEN_ONBOARDING,	/* login or account choice: the user's */
	AITERM_SCREEN_RATE_LIMITED,	/* a usage-limit card */
	AITERM_SCREEN_EXITED,		/* the CLI has left (shell prompt back) */
};

/* One captured screen: rows of plain text joined by LF. */
struct aiterm_screen {
	const char	*text;
	size_t		 len;
	unsigned	 cols, rows;
	unsigned	 cursor_x, cursor_y;
};

struct aiterm_screen_verdict {
	enum aiterm_screen_state state;
	/* Why, a static [a-z_]+ string, e.g. "composer_prompt". */
	const char	*reason;
	/*
	 * For BLOCKING_DIALOG: the static id of a known start-up screen that
	 * startup_keys can advance ("trust_folder", "theme_picker", ...), or
	 * NULL for one the core must leave alone; "<screen>:<step>" is one
	 * step through that screen (a cursor moved before Enter), which the
	 * launch's receipt names as <screen>.  For RATE_LIMITED: the id
	 * of a usage-limit card over an ended turn that startup_keys(id, 0)
	 * dismisses (the core presses them once, at a plain dispatch, after
	 * the turn ended with an error), or NULL.  For INPUT_READY and
	 * RUNNING: AITERM_INPUT_TYPED when the input box holds text that was
	 * not submitted, AITERM_INPUT_QUEUED when submitted text waits in a
	 * queue of the harness (not yet part of the turn), else NULL.
	 *
	 * After a steer the core looks at the screen (on timers, up to
	 * AITERM_STEER_CHECK_MS) and reports the text added to the running
	 * turn only when a look shows neither: text still in the box at the
	 * end is <HARNESS>_STEER_NOT_TAKEN, text still queued or no readable
	 * screen is <HARNESS>_STEER_UNCONFIRMED, both errors (ADR 0012).  A
	 * harness that never sets them is taken at its first readable look.
	 * At an idle composer (INPUT_READY) AITERM_INPUT_TYPED also makes the
	 * core press the submit keys once more when a new turn's start is not
	 * seen in time, and refuse a new turn while it is shown (ADR 0048):
	 * never set it for a placeholder or a suggestion in an empty box.
	 */
	const char	*dialog;
};

/* Pending input, in an INPUT_READY or RUNNING verdict's dialog (ADR 0012). */
#define AITERM_INPUT_TYPED	"input_typed"
#define AITERM_INPUT_QUEUED	"input_queued"
/*
 * An INPUT_READY reason: the prompt just submitted was refused by the
 * user's own hook (Cursor's beforeSubmitPrompt), shown as the
 * conversation's last block, AITERM_HOOK_BLOCKED_WORDS and the hook's
 * message, with the composer empty.  The core fails that dispatch with
 * USER_HOOK_BLOCKED and the words after it (ADR 0017).
 */
#define AITERM_USER_HOOK_BLOCKED	"user_hook_blocked"
#define AITERM_HOOK_BLOCKED_WORDS	"Hook blocked with message:"
/* How long the core looks for a steer to be taken, in milliseconds. */
#define AITERM_STEER_CHECK_MS	1500

/*
 * One step of typing into the pane.  TEXT types bytes literally, PASTE
 * pastes them (bracketed paste, so newlines stay in one prompt), KEY
 * presses a key named as in the mux's key_names, PAUSE waits arg
 * milliseconds (a decimal string).  A TEXT or PASTE step whose arg is
 * NULL stands for the caller's text.  A list ends with AITERM_INPUT_END.
 */
enum aiterm_input_kind {
	AITERM_INPUT_END = 0,
	AITERM_INPUT_TEXT,
	AITERM_INPUT_PASTE,
	AITERM_INPUT_KEY,
	AITERM_INPUT_PAUSE,
};

struct aiterm_input_step {
	enum aiterm_input_kind	 kind;
	const char		*arg;
};

struct aiterm_launch_request {
	const char		*launch_id;	/* Aiterm's id of this launch */
	const char		*binary;	/* absolute path found by probe */
	const char		*model;		/* NULL: the harness default */
	const char		*cwd;		/* real path (no symlink) */
	const char		*home;		/* the user's HOME */
	/*
	 * The server's environment, KEY=VALUE, NULL-terminated; read only.
	 * The pane has it too, with the plan's env on top (ADR 0031).
	 */
	const char *const	*env;
	int			 trust_project;
};

struct aiterm_launch_plan {
	struct aiterm_buf	*argv;	/* append elements, each NUL-ended */
	struct aiterm_buf	*env;	/* KEY=VALUE for the pane, NUL-ended */
};

/* What identifies one launch's transcript. */
struct aiterm_transcript_query {
	const char		*launch_id;
	const char		*cwd;		/* real path */
	const char		*home;
	const char *const	*env;		/* the pane's environment */
	int64_t			 started_ms;	/* launch time, Unix ms */
};

/* transcript_claim's answers. */
#define AITERM_CLAIM_UNKNOWN	(-1)
#define AITERM_CLAIM_NO		0
#define AITERM_CLAIM_YES	1
#define AITERM_CLAIM_IF_OPEN	2

enum aiterm_turn_state {
	AITERM_TURN_NONE = 0,	/* no prompt recorded after the boundary */
	AITERM_TURN_STARTED,	/* the prompt is recorded, no end yet */
	AITERM_TURN_DONE,	/* ended with an answer */
	AITERM_TURN_ERROR,	/* ended with an error (API error, abort) */
};

struct aiterm_turn {
	enum aiterm_turn_state	 state;
	const char		*reason;	/* static [a-z_]+ */
	/* The final answer (DONE) or the error text (ERROR). */
	struct aiterm_buf	*answer;
	/*
	 * ABI 2.4: the prompt the transcript holds for this turn, the user's
	 * text as recorded (the core's buffer, empty; never NULL for a
	 * plugin of 2.4 or later).  read_turn appends it when it knows it:
	 * the core then takes the turn only when it holds the text that was
	 * sent, and otherwise says the turn at that index is another prompt
	 * (a CLI that queued text sent during a turn and ran it as a turn of
	 * its own; ADR 0039).  Left empty: no check.
	 */
	struct aiterm_buf	*prompt;
};

/*
 * How the core decides a turn ended, bits of turn_rules (ABI 2.4).
 * AITERM_TURN_ENDS_IDLE: a DONE or ERROR that read_turn gives is taken
 * only once classify says the screen is neither RUNNING nor APPROVAL (nor
 * STARTING), for a CLI whose transcript has no record of a turn's end and
 * that writes a reply's text before the tool calls of the same message
 * (Gemini CLI rewrites the message ~50 ms later): until then the turn
 * runs, and a send steers it (ADR 0039).
 */
#define AITERM_TURN_ENDS_IDLE	(1u << 0)

/* An approval the harness is asking for, read off the screen. */
struct aiterm_approval {
	const char		*kind;		/* static: "command", "mcp_tool", ... */
	struct aiterm_buf	*subject;	/* what is to be allowed, as shown */
	/* The choices approval_keys knows, each a static id, NULL-ended. */
	const char *const	*choices;
};

/* What agent_configure asks for (ABI 2.3). */
struct aiterm_model_goal {
	const char	*model;		/* as the caller named it */
	const char	*effort;	/* NULL: whatever the CLI keeps */
};

enum aiterm_model_next {
	AITERM_MODEL_WAIT = 0,	/* nothing it knows on screen yet: look again */
	AITERM_MODEL_KEYS,	/* press keys, then look again */
	AITERM_MODEL_SET,	/* the CLI confirms the change (model, effort) */
	AITERM_MODEL_REFUSED,	/* not offered: code and said; keys close it */
};

struct aiterm_model_move {
	unsigned			 state;	/* the plugin's, kept by the core */
	enum aiterm_model_next		 next;
	const struct aiterm_input_step	*keys;
	/* SET: the model and effort as the CLI confirmed them ("" none). */
	char				 model[128];
	char				 effort[32];
	/* SET: the confirmation as shown; REFUSED: what the CLI offers. */
	char				 said[512];
	/* REFUSED: a static suffix, "MODEL_NOT_OFFERED", ... */
	const char			*code;
};

struct aiterm_harness_ops {
	/* Program names to look for on PATH, first found wins; NULL-ended. */
	const char *const	*binaries;
	/* Arguments that print the version; NULL-ended. */
	const char *const	*version_args;
	/* The oldest version this plugin knows, dotted numbers. */
	const char		*min_version;
	/*
	 * Executable names of the harness body (the process that is the
	 * agent, not an npm shim before it); NULL-ended.
	 */
	const char *const	*body_names;

	/* The version in the output of version_args into buf; 0, or -1. */
	int	(*parse_version)(const char *out, size_t len, char *buf,
		    size_t size);
	/*
	 * The command and the variables the pane gets.  Never replaces the
	 * user's HOME, project or user config.  -1 with err (a model the
	 * harness does not offer, say).
	 */
	int	(*launch)(const struct aiterm_host *host,
		    const struct aiterm_launch_request *req,
		    struct aiterm_launch_plan *plan, struct aiterm_error *err);
	/* Classify a screen; never NULL in verdict->reason. */
	void	(*classify)(const struct aiterm_screen *screen,
		    struct aiterm_screen_verdict *verdict);
	/*
	 * The keys that advance a known start-up screen (verdict->dialog) when
	 * the launch allows it, or that dismiss a known usage-limit card, or
	 * NULL to leave it alone.
	 */
	const struct aiterm_input_step *(*startup_keys)(const char *dialog,
		    int trust_project);
	/* Typing a new turn's prompt, and adding text to a running turn. */
	const struct aiterm_input_step	*submit;
	const struct aiterm_input_step	*steer;
	/*
	 * Where this launch's transcript appears: a directory appended to
	 * dir; *depth is how many levels of subfolders below it to look in.
	 * A plugin reads no file: when the CLI names the folder from a file
	 * of its own (Gemini CLI's project registry maps the cwd to a short
	 * id), give the folder above it with a depth that reaches the file,
	 * and claim the file by the session id the launch gave the CLI
	 * (ADR 0039).
	 */
	int	(*transcript_dir)(const struct aiterm_host *host,
		    const struct aiterm_transcript_query *q,
		    struct aiterm_buf *dir, int *depth,
		    struct aiterm_error *err);
	/*
	 * Whether the file name (in that directory) whose first bytes are head
	 * is this launch's transcript (AGT-JOB): AITERM_CLAIM_YES only when
	 * the name or head carries an id this launch gave the CLI (its
	 * session id), AITERM_CLAIM_IF_OPEN when it fits (the launch's cwd,
	 * begun after it) but only the launch's own process holding it open
	 * can prove it, AITERM_CLAIM_NO, or AITERM_CLAIM_UNKNOWN (too short
	 * to say yet).  Never "the newest file": the core binds a file once,
	 * with its evidence, and says "ambiguous" rather than guess.
	 * modified_ms is the file's modification time.
	 */
	int	(*transcript_claim)(const struct aiterm_transcript_query *q,
		    const char *name, const char *head, size_t len,
		    int64_t modified_ms);
	/*
	 * Turns are counted in the transcript, not located by byte offset:
	 * a harness may rewrite its file (Claude Code does after an API
	 * error).  bytes is the whole transcript, whole lines.  count_turns
	 * is how many turns have their prompt recorded; a dispatch takes it
	 * as its turn's index before it types.  Text that joined a running
	 * turn (a steer, a queued message) belongs to that turn, not to a
	 * new one.
	 */
	unsigned (*count_turns)(const char *bytes, size_t len);
	/*
	 * Turn number index (0-based) of the transcript: fills turn (NONE
	 * when its prompt is not recorded yet); 0, or -1 with err for bytes
	 * it cannot read.
	 */
	int	(*read_turn)(const struct aiterm_host *host, const char *bytes,
		    size_t len, unsigned index, struct aiterm_turn *turn,
		    struct aiterm_error *err);
	/*
	 * The approval on screen: 1 with a filled, 0 none, -1 one it cannot
	 * read.  May be NULL: the harness has none to inspect.
	 */
	int	(*approval)(const struct aiterm_host *host,
		    const struct aiterm_screen *screen, struct aiterm_approval *a);
	/* The keys that answer an approval with one of its choices. */
	const struct aiterm_input_step *(*approval_keys)(const char *choice);

	/* ABI 2.2 */

	/*
	 * The arguments (after the binary probe found) that print the
	 * harness's model catalog and exit, without a session, NULL-ended;
	 * NULL when its CLI cannot list its catalog: a launch's model then
	 * goes to the CLI as given.  The core runs it before anything is
	 * launched, in the launch's real cwd, stdin closed (ADR 0007).
	 */
	const char *const	*catalog_args;
	/*
	 * Whether model is in the catalog catalog_args printed (out, its
	 * standard output, NUL-ended): 1 yes; 0 no, with err naming what the
	 * catalog holds; -1 with err when out is no catalog (signed out, say).
	 * Never a nearby name instead: a model it does not know is refused.
	 */
	int	(*model_check)(const struct aiterm_host *host, const char *out,
		    size_t len, const char *model, struct aiterm_error *err);

	/* ABI 2.3 */

	/*
	 * Changing a running agent's model in place (agent_configure, ADR
	 * 0035): the keys that open the CLI's own model command from an
	 * idle, empty composer ("/model", Enter); NULL when it has none.
	 */
	const struct aiterm_input_step	*model_open;
	/*
	 * One step toward goal on the screen now, into move (the core zeroes
	 * it but for move->state, which is the plugin's own between looks,
	 * 0 at the first).  The core presses move->keys and looks again
	 * until SET or REFUSED, or its deadline.  Never another model: a
	 * model or an effort the picker does not offer is REFUSED.
	 */
	void	(*model_step)(const struct aiterm_screen *screen,
		    const struct aiterm_model_goal *goal,
		    struct aiterm_model_move *move);
	/*
	 * Attaching one image file to the text that follows (AGT-IMAGE; ADR
	 * 0036): the steps the core plays once per image, in order, before
	 * submit or steer, where a TEXT or PASTE step whose arg is NULL
	 * stands for the image's absolute path as one shell word (a
	 * backslash before a space and other characters a shell splits on,
	 * as a terminal's drag and drop pastes it).  The core has checked each
	 * file first (absolute, a readable regular file, PNG, JPEG, GIF or
	 * WebP by its first bytes).  NULL: the harness takes no image, and a
	 * send or launch that gives one is refused before anything is typed.
	 */
	const struct aiterm_input_step	*attach_image;

	/* ABI 2.4 */

	/* AITERM_TURN_* bits; 0: read_turn alone says when a turn ended. */
	unsigned			 turn_rules;
};

/*
 * Delivery receiver ops (kind receiver, ABI 2.1 and later: the 2.0 table
 * was never implemented and the core refuses a receiver older than 2.1).
 * A receiver hands a child agent's answer to the parent AI that asked for
 * it (DLV-CORE): the core keeps the records (saved before the text goes to
 * the child, observed, stored), the receiver knows its parent kind.
 *
 * What the call tells of its parent, kept in the delivery record.
 */
struct aiterm_parent {
	char ref[80];		/* the call's own id in the parent (tool_use_id) */
	char conversation[80];	/* the parent's conversation or thread */
	char home[256];		/* the parent's configuration home */
};

struct aiterm_receiver_ops {
	/* The parent kind, as delivery records name it ("claude"). */
	const char *kind;
	/*
	 * Nonzero when the call comes from this receiver's parent kind: from
	 * clientInfo.name (NULL when the client gave none) and the request's
	 * _meta (JSON text, "{}" when absent).  Fills what the call tells of p.
	 */
	int (*detect)(const char *client_name, const char *meta_json,
	    struct aiterm_parent *p);
	/*
	 * Before anything is sent to the child: 0 when the parent can take
	 * the answer, else -1 with err ("CODE: why"); nothing is sent then.
	 * May complete p.  May be NULL: always ready.
	 */
	int (*prepare)(const struct aiterm_host *host, struct aiterm_parent *p,
	    struct aiterm_error *err);
	/*
	 * The record `id` is saved with its turn boundary: tell the parent's
	 * side where to find it.  -1 drops the delivery.  May be NULL.
	 */
	int (*linked)(const struct aiterm_host *host, const char *id,
	    const struct aiterm_parent *p, struct aiterm_error *err);
	/*
	 * The answer of record `id` is stored (ready): hand it over, e.g. by
	 * spawn_program.  Called again for a ready record a new server takes
	 * over, so whatever it starts must claim the record exclusively.  May
	 * be NULL: the parent's own hook fetches the answer.
	 */
	int (*ready)(const struct aiterm_host *host, const char *id,
	    const struct aiterm_parent *p, struct aiterm_error *err);
	/* The receipt's words for how the answer comes back. */
	const char *how;
	/*
	 * Nonzero: the parent may end its turn before the answer, so the
	 * receipt also offers the waiter (aiterm-wait) to run then.
	 */
	int offer_waiter;
};

struct aiterm_plugin {
	unsigned abi_major;
	unsigned abi_minor;
	enum aiterm_plugin_kind kind;
	const char *name;	/* must equal the manifest's name */
	const char *version;
	uint64_t caps;
	/* One of the ops structs above, matching kind. */
	const void *ops;
	/* Called once after loading; may be NULL.  Nonzero refuses the plugin. */
	int (*init)(const struct aiterm_host *host, struct aiterm_error *err);
};

/* The one exported symbol. */
const struct aiterm_plugin *aiterm_plugin_describe(void);

#ifdef __cplusplus
}
#endif
#endif
