/*
 * A client's JSON user config (Claude Code's ~/.claude.json, Cursor's
 * ~/.cursor/mcp.json): read, one member of "mcpServers" added or taken
 * away by a byte-minimal edit, checked, and written atomically (temporary
 * beside it, fsync, rename, the file's mode kept) after a copy of the
 * previous file is kept beside it.  The file itself is cfile.h's: a link
 * is followed, only a regular file of at most 8 MiB is read, and it must
 * be unchanged at the rename.
 */
#ifndef AITERM_SETUP_JCONF_H
#define AITERM_SETUP_JCONF_H

#include <jansson.h>
#include <stdbool.h>
#include <sys/types.h>

#include "cfile.h"
#include "setup.h"

struct jconf {
	struct cfile	 file;
	const char	*path;		/* file.path */
	char		*text;		/* as read; "{}" when there was no file */
	json_t		*root;
	bool		 exists;
	mode_t		 mode;
};

/*
 * Read and parse path; failed CONFIG_CORRUPT, or as cfile_read
 * (CONFIG_UNREADABLE, CONFIG_NOT_REGULAR, CONFIG_TOO_LARGE).
 */
int	jconf_load(struct jconf *c, const char *path, struct setup_outcome *o);
void	jconf_free(struct jconf *c);
/* mcpServers[name], or NULL. */
json_t	*jconf_server(const struct jconf *c, const char *name);
/*
 * Add (value != NULL) or remove name in mcpServers, check the new text
 * parses to what it should, then (unless dry) back up and write it.
 * o->diff gets the change as a unified diff when dry.
 */
int	jconf_change(struct jconf *c, const char *name, const json_t *value,
	    bool drop_parent, bool dry, bool *created,
	    struct setup_outcome *o);
/*
 * Write root as the whole file (two-space indent, key order kept): for
 * files whose every value is kept but not their layout (settings.json).
 */
int	jconf_replace(struct jconf *c, const json_t *root, bool dry,
	    struct setup_outcome *o);
/* Remove path (setup created it) when it holds only {} now. */
int	jconf_unlink_empty(const char *path, struct setup_outcome *o);

#endif
