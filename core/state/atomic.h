/*
 * Atomic files: write a temporary file in the same directory (mode 0600),
 * fsync it, rename it over the target, fsync the directory.  A crash at any
 * point leaves either the old or the new content, never a mix; a leftover
 * temporary (".<name>.tmp.<pid>.<random>") is ignored by readers and
 * removed by atomic_cleanup once its writer is gone.
 */
#ifndef AITERM_ATOMIC_H
#define AITERM_ATOMIC_H

#include <stddef.h>

#include "util/error.h"

struct atomic_file {
	int	 fd;
	char	*path;	/* target */
	char	*tmp;	/* temporary beside it */
};

/*
 * Called with errno after any failed write, close, sync or rename here
 * (the error aggregate counts them: state/errtally.h installs it).
 */
void	atomic_on_failure(void (*hook)(int e));

/* Open a temporary beside path; write to af->fd, then commit or abort. */
int	atomic_open(const char *path, struct atomic_file *af, struct aiterm_error *err);
/* Write all of data to the temporary; on failure the caller aborts. */
int	atomic_append(struct atomic_file *af, const void *data, size_t len,
	    struct aiterm_error *err);
/* fsync, rename over the target, fsync the directory; frees af. */
int	atomic_commit(struct atomic_file *af, struct aiterm_error *err);
/* Remove the temporary; frees af. */
void	atomic_abort(struct atomic_file *af);
/* open + write all + commit. */
int	atomic_write(const char *path, const void *data, size_t len,
	    struct aiterm_error *err);
/*
 * open + write all + put in place (on Linux an exchange of the two names,
 * then the old content removed; else a rename), without the two fsyncs
 * and without the write-out ext4 starts for a rename over a file: a
 * reader sees the old file or the new one, never a part, and a crash of
 * the writer loses nothing, but after a power loss the old one may be
 * back, or an empty file.  For state whose loss repeats work and loses
 * nothing (a read cursor: output read again; the last command's text: a
 * reducer chosen again), or that a power cut makes moot (the record of a
 * command in a live shell, which the power cut ends; ADR 0003).
 */
int	atomic_replace(const char *path, const void *data, size_t len,
	    struct aiterm_error *err);
/* Read a whole file (NUL-terminated); *data is allocated. */
int	file_read(const char *path, char **data, size_t *len, struct aiterm_error *err);
/*
 * Remove temporaries in dir whose writer process no longer exists (a
 * reused PID keeps its temporaries until that process is gone too).
 */
int	atomic_cleanup(const char *dir, struct aiterm_error *err);

#endif
