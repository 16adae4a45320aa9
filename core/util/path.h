/* Finding programs on PATH. */
#ifndef AITERM_PATH_H
#define AITERM_PATH_H

#include <stdbool.h>

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

#endif
