/*
 * Harness plugins by the ids they provide (AGT-LAUNCH): "claude-code" is
 * the harness-claude plugin's manifest entry "provides: [claude-code]".
 */
#ifndef AITERM_AGENT_HARNESS_H
#define AITERM_AGENT_HARNESS_H

#include "aiterm/plugin.h"
#include "util/error.h"

struct harness {
	const char				*id;
	const char				*plugin;	/* its name */
	const char				*plugin_version;
	const struct aiterm_harness_ops		*ops;
	unsigned				 abi_minor;	/* its plugin's */
};

/* The loaded harness providing id; -1 with the ids there are in err. */
int	harness_find(const char *id, struct harness *h, struct aiterm_error *err);
/* The harness whose body_names holds an executable name, or -1. */
int	harness_for_program(const char *name, struct harness *h);
/* "GROK" of grok-cli: the harness's part of its error codes. */
void	harness_code_prefix(const struct harness *h, char *out, size_t size);
/* f(h, arg) for every installed harness id, until it returns 1 (then 1). */
int	harness_each(int (*f)(const struct harness *h, void *arg), void *arg);
/*
 * The code of an end the harness named (ADR 0011): "GROK" and
 * "sandbox_startup_failed" -> GROK_SANDBOX_STARTUP_FAILED; "" for the
 * core's own pane_exited and session_lost (or no reason).
 */
void	harness_end_code(const struct harness *h, const char *reason,
	    char *out, size_t size);
/* "claude-code, codex-cli" (allocated; "none" when there is none). */
char	*harness_ids(void);
/*
 * Compares dotted version numbers ("2.1.197" < "2.1.200"); a part that is
 * not a number compares as 0.  <0, 0, >0.
 */
int	harness_version_cmp(const char *a, const char *b);

#endif
