/*
 * Who made a call, as far as delivery cares: the client's clientInfo.name
 * and the request's _meta, from which a receiver plugin tells its parent
 * kind (deliver/receiver.h).  Both borrowed, both may be NULL.  The tool
 * layer fills it from its call (tool_call_origin); nothing below tools/
 * sees a tool call.
 */
#ifndef AITERM_DELIVER_ORIGIN_H
#define AITERM_DELIVER_ORIGIN_H

#include <jansson.h>

struct call_origin {
	const char	*client;	/* clientInfo.name */
	json_t		*meta;		/* the request's _meta object */
};

#endif
