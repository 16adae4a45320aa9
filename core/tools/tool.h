/*
 * MCP tools.  Each tool is one file exporting one const struct tool_entry;
 * tools.c gathers them in a table.  The entry carries the JSON schemas, so
 * tools/list and argument checking come from the same data.
 *
 * A call may finish at once or later from the event loop: the tool calls
 * tool_call_reply() or tool_call_fail() exactly once.  While it is pending
 * it may report progress; when the client cancels, on_cancel (if set) is
 * called and the tool must still finish the call (the reply is dropped).
 */
#ifndef AITERM_TOOL_H
#define AITERM_TOOL_H

#include <jansson.h>
#include <stdbool.h>

#include "deliver/origin.h"

struct tool_call;

enum tool_hint {
	TOOL_READ_ONLY = 0x1,
	TOOL_DESTRUCTIVE = 0x2,
	TOOL_IDEMPOTENT = 0x4,
	TOOL_OPEN_WORLD = 0x8,
};

struct tool_entry {
	const char	*name;
	const char	*title;
	const char	*description;
	const char	*input_schema;	/* JSON Schema text */
	const char	*output_schema;	/* JSON Schema text */
	unsigned	 hints;		/* enum tool_hint bits */
	bool		 test_only;	/* listed only with AITERM_TEST_TOOLS=1 */
	bool		 relayable;	/* runs on another host too ("remote") */
	/*
	 * Its "session_id" names the session it acts on: the id's form is
	 * checked before the call starts (or is relayed), the same rule for
	 * every such tool, and tool_call_session() gives it.
	 */
	bool		 session_target;
	/*
	 * One of the primitives (open, send, key, read, close) a client
	 * should list up front, not behind its tool search: tools/list
	 * gives it "_meta": {"anthropic/alwaysLoad": true} (ADR 0041).
	 */
	bool		 always_load;
	/* Start the call; arguments were already checked against the schema. */
	void		(*call)(struct tool_call *call);
	/*
	 * An alias: another name (listed as a tool of its own, with its own
	 * title and description) for alias_of, whose schemas, hints, relay
	 * and call it has, limited to the sessions of one harness.
	 */
	const struct tool_entry *alias_of;
	const char	*harness;	/* the alias's harness id */
};

/* The entry whose schemas and call an entry has: itself, or alias_of. */
const struct tool_entry *tool_base(const struct tool_entry *e);
/* The session a session_target tool acts on (checked), or NULL. */
const char	*tool_call_session(struct tool_call *call);
/* The name the call was made by, and its entry's harness (or NULL). */
const char	*tool_call_name(struct tool_call *call);
const char	*tool_call_harness(struct tool_call *call);

/* The arguments object (never NULL). */
json_t		*tool_call_args(struct tool_call *call);
/* The request's _meta object, or NULL. */
json_t		*tool_call_meta(struct tool_call *call);
/* The client's clientInfo from initialize, or NULL. */
json_t		*tool_call_client_info(struct tool_call *call);
/*
 * The bytes of a result's text the client shows the model whole when it
 * is known to cut a longer one (Codex), else 0.
 */
size_t		 tool_call_shown_bytes(struct tool_call *call);
/* Who made the call, for delivery (borrowed while the call lives). */
struct call_origin tool_call_origin(struct tool_call *call);
bool		 tool_call_cancelled(const struct tool_call *call);

/* Private data of a pending call and its cancel hook. */
void		 tool_call_set_data(struct tool_call *call, void *data,
		    void (*on_cancel)(struct tool_call *));
void		*tool_call_data(struct tool_call *call);

/* Progress, sent only when the request carried a progressToken. */
void		 tool_call_progress(struct tool_call *call, double progress,
		    double total, const char *message);

/*
 * Finish with text and structured content (both stolen; structured may be
 * NULL).  The text is what the model reads and must carry every fact it
 * needs; structured goes out only to clients that asked for it (ADR 0006).
 * Frees the call.
 */
void		 tool_call_reply(struct tool_call *call, char *text,
		    json_t *structured);
/* Finish with a whole result object (stolen): a relayed one (REM-RELAY). */
void		 tool_call_finish(struct tool_call *call, json_t *result);
/* Finish with a tool error (isError:true) carrying the message. */
void		 tool_call_fail(struct tool_call *call, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

/*
 * Ask the person through the client to open url (URL-mode elicitation,
 * issue 36): TOOL_ELICIT_URL when the request went out (done gets the
 * client's answer later: "accept", "decline", "cancel", "error", or
 * "none" when none came in time; *wait cancels it), TOOL_ELICIT_FORM when
 * the client declared form-mode elicitation only (nothing sent; a secret
 * never goes through a form), TOOL_ELICIT_NONE when it declared none.
 * id names it in notifications/elicitation/complete.
 */
enum tool_elicit {
	TOOL_ELICIT_NONE,
	TOOL_ELICIT_FORM,
	TOOL_ELICIT_URL,
};
struct tool_elicit_wait;
enum tool_elicit tool_call_elicit_url(struct tool_call *call,
		    const char *message, const char *url, const char *id,
		    void (*done)(void *arg, const char *action), void *arg,
		    struct tool_elicit_wait **wait);
/* Forget the answer: done is never called (the call was cancelled). */
void		 tool_elicit_cancel(struct tool_elicit_wait *wait);

/* A tool's input schema as tools/list gives it (borrowed). */
json_t		*tool_input_schema(const struct tool_entry *e);

/* The table, NULL-terminated. */
extern const struct tool_entry *const tool_table[];
const struct tool_entry *tool_find(const char *name, bool test_tools);

#endif
