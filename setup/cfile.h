/*
 * A client's config file, read and replaced safely (SET-RUN, ADR 0013):
 * a symbolic link is followed and its target edited in its own folder
 * (the link stays); anything that is not a regular file (a FIFO, a
 * device, a directory, a socket, a link to nothing) is refused without
 * being opened for reading; more than CFILE_MAX bytes is refused; and
 * just before the rename the file must still be what was read, else
 * nothing is written and the other program's edit stays.
 */
#ifndef AITERM_SETUP_CFILE_H
#define AITERM_SETUP_CFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>

#include "setup.h"

/* The largest config aiterm-setup reads: 8 MiB. */
#define CFILE_MAX	(8u * 1024 * 1024)

struct cfile {
	char		*path;		/* as named: maybe a link */
	char		*target;	/* the file read and replaced */
	bool		 exists;
	struct stat	 st;		/* target when read */
	char		*text;		/* NUL-terminated; NULL if none */
	size_t		 len;
};

/*
 * Read path (absent is not an error: exists false, text NULL).  Failed
 * CONFIG_NOT_REGULAR, CONFIG_TOO_LARGE, CONFIG_UNREADABLE or
 * CONFIG_CHANGED (swapped while being opened).
 */
int	cfile_read(struct cfile *f, const char *path, struct setup_outcome *o);
void	cfile_free(struct cfile *f);
/*
 * Replace the target with text (mode mode): a temporary beside it,
 * fsynced; then, just before the rename, the target must still be what
 * cfile_read saw (CONFIG_CHANGED otherwise, the temporary removed).
 * Failed WRITE_FAILED when the temporary cannot be written.
 */
int	cfile_write(const struct cfile *f, const char *text, mode_t mode,
	    struct setup_outcome *o);

#endif
