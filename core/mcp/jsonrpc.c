#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mcp/jsonrpc.h"
#include "shell/utf8.h"
#include "util/buf.h"
#include "util/xmalloc.h"

static int
invalid(struct jsonrpc_msg *msg, const char *message)
{
	msg->kind = JSONRPC_INVALID;
	msg->code = JSONRPC_INVALID_REQUEST;
	msg->message = message;
	return -1;
}

/* MCP ids are strings or integers, never null or fractional. */
static int
check_id(json_t *id, struct jsonrpc_msg *msg)
{
	if (json_is_string(id) || json_is_integer(id))
		return 0;
	msg->id = NULL;
	return invalid(msg, "Invalid Request: id must be a string or an "
	    "integer");
}

void
jsonrpc_classify(json_t *root, struct jsonrpc_msg *msg)
{
	json_t *version, *method;

	msg->id = NULL;
	msg->method = NULL;
	msg->params = NULL;
	msg->code = 0;
	msg->message = NULL;
	if (json_is_array(root)) {
		invalid(msg, "Invalid Request: batches are not supported, "
		    "send one message per line");
		return;
	}
	if (!json_is_object(root)) {
		invalid(msg, "Invalid Request: a message must be a JSON "
		    "object");
		return;
	}
	msg->id = json_object_get(root, "id");
	if (msg->id != NULL && check_id(msg->id, msg) != 0)
		return;
	version = json_object_get(root, "jsonrpc");
	if (!json_is_string(version) ||
	    strcmp(json_string_value(version), "2.0") != 0) {
		invalid(msg, "Invalid Request: \"jsonrpc\" must be \"2.0\"");
		return;
	}
	method = json_object_get(root, "method");
	if (method == NULL) {
		if (msg->id != NULL && (json_object_get(root, "result") != NULL
		    || json_object_get(root, "error") != NULL)) {
			msg->kind = JSONRPC_RESPONSE;
			return;
		}
		invalid(msg, "Invalid Request: missing \"method\"");
		return;
	}
	if (!json_is_string(method)) {
		invalid(msg, "Invalid Request: \"method\" must be a string");
		return;
	}
	msg->method = json_string_value(method);
	msg->params = json_object_get(root, "params");
	if (msg->params != NULL && !json_is_object(msg->params) &&
	    !json_is_array(msg->params)) {
		invalid(msg, "Invalid Request: \"params\" must be an object");
		return;
	}
	msg->kind = msg->id == NULL ? JSONRPC_NOTIFICATION : JSONRPC_REQUEST;
}

json_t *
jsonrpc_result(json_t *id, json_t *result)
{
	return json_pack("{s:s, s:O, s:o}", "jsonrpc", "2.0", "id", id,
	    "result", result);
}

json_t *
jsonrpc_error(json_t *id, int code, const char *fmt, ...)
{
	va_list ap;
	char *message;
	json_t *msg;

	struct aiterm_buf clean = BUF_INIT;

	va_start(ap, fmt);
	message = xvasprintf(fmt, ap);
	va_end(ap);
	/*
	 * A parse error quotes the bytes it stopped at, which need not be
	 * UTF-8: json_pack refuses such a string, and the line would go
	 * unanswered (found by fuzz-mcp).
	 */
	utf8_clean(message, strlen(message), &clean);
	msg = json_pack("{s:s, s:O, s:{s:i, s:s}}", "jsonrpc", "2.0",
	    "id", id == NULL ? json_null() : id, "error", "code", code,
	    "message", buf_str(&clean));
	buf_free(&clean);
	free(message);
	return msg;
}

json_t *
jsonrpc_notification(const char *method, json_t *params)
{
	return json_pack("{s:s, s:s, s:o}", "jsonrpc", "2.0", "method",
	    method, "params", params);
}
