/*
 * Remote hosts (REM-RELAY, ADR 0018): a tool call with "remote": "<host>"
 * runs the same tool on that host's aiterm-mcp, reached by ssh and spoken
 * to in MCP on ssh's stdio; the result (or error) comes back as it is.
 * One ssh connection per host for the server's life (ControlMaster, its
 * socket in <state root>/ssh, 0700), reused by every call; a lost one is
 * made again at the next call, and a call it cut is an error that says
 * to read again, never resent.  Aiterm keeps no host list.
 */
#ifndef AITERM_REMOTE_RELAY_H
#define AITERM_REMOTE_RELAY_H

#include <jansson.h>
#include <stdbool.h>

#include "deliver/origin.h"
#include "remote/family.h"
#include "util/error.h"

/* The schema property added to those tools. */
json_t	*remote_schema_property(void);
/* And "remote_secret", the passphrase or password for it (REM-AUTH). */
json_t	*remote_schema_secret(void);
/*
 * Where a relayed call ends: status 0 with the far side's result (a tool
 * result object, borrowed), or -1 with err, whose message names the tool
 * and the host and says whether it may have run there.
 */
struct remote_to {
	void	(*done)(void *arg, int status, const struct aiterm_error *err,
		    json_t *result);
	void	*arg;
};
struct remote_call;

/*
 * Relay tool with args (stolen; without "remote" and "remote_secret") to
 * host.  secret (or NULL) is kept in memory for that host; origin (or
 * NULL) is the parent a dispatch's far delivery may be taken over for
 * (remote/handover.h).  NULL when to->done was called already.
 */
struct remote_call *remote_relay(const char *tool, const char *host,
	    const char *secret, json_t *args, const struct call_origin *origin,
	    const struct remote_to *to);
/* The caller gave up: the far side is told; done is not called. */
void	remote_relay_cancel(struct remote_call *c);
/*
 * The ssh destination of host and its port ("" when none): "host:port"
 * (not an IPv6 literal without brackets) is split.  *dest is the caller's.
 */
void	remote_ssh_dest(const char *host, char **dest, char *port,
	    size_t portsz);
/* The login shell family probed on host in this process (or unknown). */
enum remote_family remote_host_family(const char *host);
/* At shutdown: end every connection (pending calls fail), wipe secrets. */
void	remote_close_all(void);

#endif
