/*
 * aiterm-setup: register aiterm-mcp with the AI clients installed here
 * (SET-RUN, ADR 0013).  The order is fixed: what Aiterm needs (mux,
 * state root, plugins), a terminal test through the server's public MCP
 * interface, then each client: register, read back through the client.
 */
#ifndef AITERM_SETUP_H
#define AITERM_SETUP_H

#include <jansson.h>
#include <stdbool.h>

#include "util/buf.h"

/* What happened to one client; the JSON "status". */
enum setup_status {
	SETUP_REGISTERED,
	SETUP_ALREADY,		/* already_registered */
	SETUP_SKIPPED,
	SETUP_FAILED,
	SETUP_REMOVED,		/* --uninstall */
	SETUP_NOT_OURS,		/* --uninstall: nothing of ours there */
	SETUP_PLANNED,		/* --dry-run */
};

struct setup_opts {
	bool		 json, dry_run, uninstall, force;
	int		 remove_hooks;	/* --remove-*-parent-hooks: set + 1 */
	const char	*codex_steer;	/* --codex-steer: enable|disable|status */
	const char	*server;	/* aiterm-mcp to register (absolute) */
	const char	*clients;	/* comma list, NULL: every one found */
	const char	*plugins;	/* comma list, NULL: every one installed */
	int		 lock_wait_s;
};

/* One client's entry of the report. */
struct setup_outcome {
	const char		*client;	/* "claude-code" */
	char			*binary;	/* where it was found */
	char			*version;
	enum setup_status	 status;
	const char		*code;		/* failed: a fixed reason */
	char			*message;	/* why, in words */
	char			*config;	/* the file changed or read */
	char			*backup;	/* the previous file, kept */
	char			*diff;		/* --dry-run */
};

const char	*setup_status_name(enum setup_status s);
void		 setup_outcome_free(struct setup_outcome *o);
/* Set *o failed with code and a formatted message; returns -1. */
int		 setup_fail(struct setup_outcome *o, const char *code,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* Set o's message (replacing one). */
void		 setup_note(struct setup_outcome *o, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

/* The environment the registered server gets (AITERM_PLUGINS). */
json_t		*setup_server_env(const struct setup_opts *o);

#endif
