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

#include "remote/family.h"
#include "tools/tool.h"

/* Whether a tool may be relayed (its schema gets "remote"). */
bool	remote_tool(const char *name);
/* The schema property added to those tools. */
json_t	*remote_schema_property(void);
/* And "remote_secret", the passphrase or password for it (REM-AUTH). */
json_t	*remote_schema_secret(void);
/*
 * Relay call (its args without "remote" and "remote_secret") to host;
 * finishes the call.  secret (or NULL) is kept in memory for that host.
 */
void	remote_relay(struct tool_call *call, const char *tool,
	    const char *host, const char *secret, json_t *args);
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
