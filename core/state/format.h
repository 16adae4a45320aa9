/*
 * The state format (issue 17, ADR 0021).  Every JSON state file the
 * server writes carries "format": STATE_FORMAT, and the state root holds
 * format.json with the format of the newest server that used it.  A
 * file without "format" is format 0, what releases before this one
 * wrote; it is read as before.  A newer format is never read, changed or
 * removed: the server says so and leaves it alone.
 */
#ifndef AITERM_STATE_FORMAT_H
#define AITERM_STATE_FORMAT_H

#include <jansson.h>

#include "util/error.h"

#define STATE_FORMAT	1

/* Set "format": STATE_FORMAT in o (an object). */
void	state_format_stamp(json_t *o);
/*
 * Stamp o and write it to path durably (atomic_write: temporary file,
 * fsync, rename).  Steals o.  0, or -1 with err.
 */
int	state_json_write(const char *path, json_t *o, struct aiterm_error *err);
/*
 * 0 when o's format is one this server reads (none, or at most
 * STATE_FORMAT); else -1 with err naming what (a path or a name) and
 * both formats, counted as state_format_newer.
 */
int	state_format_check(const json_t *o, const char *what,
	    struct aiterm_error *err);
/*
 * <root>/format.json: -1 with err when it says a newer format (nothing
 * is written); else 0.  Read only.
 */
int	state_format_root_check(const char *root, struct aiterm_error *err);
/* Write <root>/format.json unless it already says STATE_FORMAT. */
int	state_format_root_mark(const char *root, struct aiterm_error *err);

#endif
