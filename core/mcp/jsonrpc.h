/* JSON-RPC 2.0 message classification and replies. */
#ifndef AITERM_JSONRPC_H
#define AITERM_JSONRPC_H

#include <jansson.h>

enum jsonrpc_code {
	JSONRPC_PARSE_ERROR = -32700,
	JSONRPC_INVALID_REQUEST = -32600,
	JSONRPC_METHOD_NOT_FOUND = -32601,
	JSONRPC_INVALID_PARAMS = -32602,
	JSONRPC_INTERNAL_ERROR = -32603,
};

enum jsonrpc_kind {
	JSONRPC_REQUEST,	/* method + id */
	JSONRPC_NOTIFICATION,	/* method, no id */
	JSONRPC_RESPONSE,	/* result or error, from the client */
	JSONRPC_INVALID,	/* answer with error code/message */
};

struct jsonrpc_msg {
	enum jsonrpc_kind	 kind;
	json_t			*id;		/* borrowed; NULL when absent */
	const char		*method;	/* borrowed */
	json_t			*params;	/* borrowed; NULL when absent */
	int			 code;		/* for JSONRPC_INVALID */
	const char		*message;	/* static, for JSONRPC_INVALID */
};

/* Classify a parsed top-level value. */
void	 jsonrpc_classify(json_t *root, struct jsonrpc_msg *msg);
/*
 * For text jansson refused (jerr) only for a limit of its own (a NUL in a
 * string, a number out of range, nesting deeper than 2048) that is
 * otherwise one well-formed JSON value: what was wrong, and in *id (a new
 * reference, or NULL) the string or integer value of its top-level "id".
 * NULL for text that is not JSON.  (recover.c)
 */
const char *jsonrpc_beyond_limits(const char *text, size_t len,
	    const json_error_t *jerr, json_t **id);
/* {"jsonrpc":"2.0","id":id,"result":result}; result is stolen. */
json_t	*jsonrpc_result(json_t *id, json_t *result);
/* {"jsonrpc":"2.0","id":id|null,"error":{code,message}}. */
json_t	*jsonrpc_error(json_t *id, int code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
/* {"jsonrpc":"2.0","method":method,"params":params}; params stolen. */
json_t	*jsonrpc_notification(const char *method, json_t *params);

#endif
