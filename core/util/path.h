/* Finding programs on PATH; the length a Unix socket's path may have. */
#ifndef AITERM_PATH_H
#define AITERM_PATH_H

#include <stdbool.h>
#include <stddef.h>

/* A regular file we may execute. */
bool	path_is_executable(const char *path);
/*
 * name itself when it holds a '/' and is executable, else the first
 * executable <dir>/<name> of $PATH (or /usr/bin:/bin); allocated, NULL when
 * there is none.
 */
char	*path_search(const char *name);
/*
 * One of Aiterm's programs: name beside the running executable (a build
 * tree, or the bindir it was installed to), else <bindir>/name; allocated.
 */
char	*path_sibling(const char *name, const char *bindir);
/*
 * NULL when a Unix socket can be bound at path, extra bytes longer (what
 * the program binding it adds: ssh's ".<16 random>" to its ControlPath),
 * else why not, allocated: the path, its length and the limit (sizeof
 * sun_path - 1).  Checked before every bind: libuv (1.44) cuts a longer
 * path short without a word and binds the socket at the cut path.
 */
char	*path_socket_too_long(const char *path, size_t extra);

#endif
