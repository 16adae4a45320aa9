/*
 * A byte-minimal edit of a JSON text: one member added to, or taken
 * from, an object named by a top-level key ("mcpServers"), every other
 * byte of the file left as it was (the user's formatting, order, unknown
 * keys).  The result is parsed again and must equal the old value plus or
 * minus that member, else nothing is written (jconf in config.c).
 */
#ifndef AITERM_SETUP_JSONEDIT_H
#define AITERM_SETUP_JSONEDIT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/*
 * text with members[key] = value added (key absent before), creating the
 * top-level object "parent" when missing (*created set).  NULL when text
 * is not a JSON object.  Allocated.
 */
char	*jedit_add(const char *text, const char *parent, const char *key,
	    const json_t *value, bool *created);
/*
 * text without parent[key]; with drop_parent, parent goes too when that
 * leaves it empty.  NULL when there is no such member.
 */
char	*jedit_remove(const char *text, const char *parent, const char *key,
	    bool drop_parent);

#endif
