/* initialize, ping, logging/setLevel and notifications/initialized. */
#include <string.h>

#include "config.h"
#include "mcp/jsonrpc.h"
#include "mcp/server-int.h"

/* Newest first: the first is what we answer to an unknown version. */
static const char *const protocol_versions[] = {
	"2025-11-25",
	"2025-06-18",
	"2025-03-26",
	"2024-11-05",
};

static const char *const log_levels[] = {
	[AITERM_LOG_DEBUG] = "debug",
	[AITERM_LOG_INFO] = "info",
	[AITERM_LOG_NOTICE] = "notice",
	[AITERM_LOG_WARNING] = "warning",
	[AITERM_LOG_ERROR] = "error",
};

/* MCP has eight syslog levels; the upper ones map onto error. */
static const char *const log_levels_above[] = { "critical", "alert",
    "emergency" };

static const char instructions[] =
    "Aiterm gives you persistent terminals (tmux sessions) that survive "
    "restarts. Open one, send text or keys, read the reduced output, close "
    "it. pty_open command starts SSH, a container shell or a REPL in it. "
    "agent_launch runs an agent CLI (Claude Code, Codex) in one; its "
    "answers come from its own transcript.";

static const char *
negotiate(const char *asked)
{
	size_t i;

	for (i = 0; asked != NULL &&
	    i < sizeof protocol_versions / sizeof protocol_versions[0]; i++) {
		if (strcmp(asked, protocol_versions[i]) == 0)
			return protocol_versions[i];
	}
	return protocol_versions[0];
}

void
lifecycle_initialize(json_t *id, json_t *params)
{
	struct server *s = the_server;
	const char *version;
	json_t *asked;

	if (params == NULL) {
		server_send(jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
		    "Invalid params: initialize needs protocolVersion, "
		    "capabilities and clientInfo"));
		return;
	}
	asked = json_object_get(params, "protocolVersion");
	if (!json_is_string(asked)) {
		server_send(jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
		    "Invalid params: protocolVersion must be a string"));
		return;
	}
	version = negotiate(json_string_value(asked));
	snprintf(s->protocol, sizeof s->protocol, "%s", version);
	json_decref(s->client_info);
	s->client_info = json_incref(json_object_get(params, "clientInfo"));
	json_decref(s->client_caps);
	s->client_caps = json_incref(json_object_get(params, "capabilities"));
	s->structured = s->opts.structured || json_is_object(json_object_get(
	    json_object_get(s->client_caps, "experimental"),
	    SERVER_STRUCTURED_CAP));
	s->initialized = true;
	server_send(jsonrpc_result(id, json_pack(
	    "{s:s, s:{s:{s:b}, s:{}}, s:{s:s, s:s, s:s}, s:s}",
	    "protocolVersion", version,
	    "capabilities", "tools", "listChanged", 0, "logging",
	    "serverInfo", "name", "aiterm-mcp", "title", "Aiterm",
	    "version", PACKAGE_VERSION,
	    "instructions", instructions)));
}

void
lifecycle_ping(json_t *id, json_t *params)
{
	(void)params;
	server_send(jsonrpc_result(id, json_object()));
}

void
lifecycle_set_level(json_t *id, json_t *params)
{
	const char *level;
	size_t i;

	level = json_string_value(json_object_get(params, "level"));
	if (level == NULL)
		goto out_bad;
	for (i = 0; i < sizeof log_levels / sizeof log_levels[0]; i++) {
		if (strcmp(level, log_levels[i]) == 0) {
			the_server->log_level = (enum aiterm_log_level)i;
			goto out_ok;
		}
	}
	for (i = 0; i < sizeof log_levels_above / sizeof log_levels_above[0];
	    i++) {
		if (strcmp(level, log_levels_above[i]) == 0) {
			the_server->log_level = AITERM_LOG_ERROR;
			goto out_ok;
		}
	}
out_bad:
	server_send(jsonrpc_error(id, JSONRPC_INVALID_PARAMS,
	    "Invalid params: level must be one of debug, info, notice, "
	    "warning, error, critical, alert, emergency"));
	return;
out_ok:
	the_server->log_level_set = true;
	server_send(jsonrpc_result(id, json_object()));
}

void
lifecycle_initialized(json_t *params)
{
	(void)params;
}
