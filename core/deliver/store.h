/*
 * Parent delivery records (DLV-CORE, ADR 0014): what a child agent's
 * answer is owed to, kept under <state root>/parent-deliveries/ (a
 * dispatch relayed to another host: remote-parent-deliveries/, a folder
 * older readers never open, ADR 0032) and independent of the PTY and
 * harness state.
 *
 *   <id>.json   the record: session, turn boundary, state, owner
 *   <id>.body   the answer as the parent will read it (ready)
 *   <id>.lock   flock held by the server observing it (its owner)
 *   <id>.claim  created exclusively by whoever hands the body over
 *
 * States: waiting (the turn is out, its end not seen), ready (the body is
 * stored), submitted (its claimer handed it over: the hook wrote it,
 * aiterm-wait printed it), unknown (the send to the child, or the hand-
 * over, may or may not have happened: never resent), failed (also a ready
 * body nobody claimed within DELIVERY_TTL_S: its claim is "expired <pid>"
 * and the body stays).
 */
#ifndef AITERM_DELIVER_STORE_H
#define AITERM_DELIVER_STORE_H

#include <jansson.h>
#include <stdbool.h>

#include "aiterm/plugin.h"
#include "proc/proc.h"
#include "pty/session.h"
#include "util/error.h"

#define DELIVERY_ID_MAX	24
/*
 * How long an answer is owed (seed 000: 24 hours): a turn is watched this
 * long, and a ready body waits this long for its claim (deliver/expire.h).
 */
#define DELIVERY_TTL_S	(24 * 3600)

/*
 * A record's state, one name each in the record and in what a reader is
 * shown (delivery_state_name): waiting for the turn; ready (the answer
 * stored); submitted (handed to the parent); failed; unknown (whether
 * the parent got it cannot be told: never resent).
 */
enum delivery_state {
	DELIVERY_WAITING,
	DELIVERY_READY,
	DELIVERY_SUBMITTED,
	DELIVERY_FAILED,
	DELIVERY_UNKNOWN,
	DELIVERY_STATE_COUNT
};

const char	*delivery_state_name(enum delivery_state s);
/* The state of a name, or -1 for a name outside the table. */
int		 delivery_state_of(const char *name);

/*
 * The folder a record's files are in: parent-deliveries/, or for a
 * dispatch relayed to another host remote-parent-deliveries/ (a reader
 * that does not know "remote" never opens it).  A relayed record an
 * earlier version left in parent-deliveries/ is read and kept there.
 */
enum delivery_place {
	DELIVERY_HERE,
	DELIVERY_RELAYED,
	DELIVERY_PLACE_COUNT
};

struct delivery {
	char		 id[DELIVERY_ID_MAX + 1];
	enum delivery_place place;
	char		 session[SESSION_ID_MAX + 1];
	enum delivery_state state;
	char		 parent[32];	/* the receiver kind: "wait", "claude" */
	char		 ref[80];	/* claude: the parent's tool_use_id */
	char		 conversation[80];	/* claude: session_id; codex: thread */
	char		 home[256];	/* codex: the parent's CODEX_HOME */
	/* A dispatch relayed there: the host (no secret), its record's id. */
	char		 remote[256];
	char		 remote_id[DELIVERY_ID_MAX + 1];
	char		 outcome[32];	/* done, error, exited ... (ready) */
	unsigned	 turn;		/* 0 until the send is confirmed */
	char		 cursor[48];
	long		 owner_pid;
	char		 owner_start[PROC_START_ID_MAX];
	long long	 created_ms, updated_ms;
};

bool	 delivery_id_valid(const char *id);
/* A folder (allocated). */
char	*delivery_dir(enum delivery_place place);
/* One of d's files, "<id>.<ext>" in its folder (allocated). */
char	*delivery_path(const struct delivery *d, const char *ext);
/*
 * What a child is known by for its claims (deliver/child.h): its session,
 * or for one on another host the first 16 hex of sha256(host), '-' and
 * its session, so that a session here and one there of the same name are
 * two children.
 */
void	 delivery_child_key(const char *host, const char *session, char *key,
	    size_t size);
/*
 * A new record, waiting, owned by this process; *lock_fd holds it.  d's
 * parent, ref, conversation and remote are the caller's (set before);
 * remote decides its folder.
 */
int	 delivery_begin(const char *session, struct delivery *d, int *lock_fd,
	    struct aiterm_error *err);
int	 delivery_write(const struct delivery *d, struct aiterm_error *err);
int	 delivery_read(const char *id, struct delivery *d,
	    struct aiterm_error *err);
/* Nothing was sent: the record goes. */
void	 delivery_abandon(const struct delivery *d, int lock_fd);
/* The body stored, then the record ready (or failed). */
int	 delivery_store(struct delivery *d, enum delivery_state state,
	    const char *outcome, const char *body, size_t len,
	    struct aiterm_error *err);
/*
 * Create <id>.claim exclusively, holding line: 0, 1 when it exists (the
 * record is someone else's), -1 with err.
 */
int	 delivery_claim_create(const struct delivery *d, const char *line,
	    struct aiterm_error *err);
/* Take over a record whose owner is gone: its lock, or -1. */
int	 delivery_take(const struct delivery *d);
/* fn(id, arg) for every record of both folders; how many. */
size_t	 delivery_each(void (*fn)(const char *id, void *arg), void *arg);
json_t	*delivery_json(const struct delivery *d);
/* What the receiver knows of the parent, into and out of the record. */
void	 delivery_set_parent(struct delivery *d, const struct aiterm_parent *p);
void	 delivery_parent(const struct delivery *d, struct aiterm_parent *p);
/* An id a parent gave (tool_use_id, thread): 1-64 of [A-Za-z0-9_-]. */
bool	 delivery_ref_valid(const char *ref);

#endif
