/*
 * The standard descriptors of a program that hands text over (aiterm-wait,
 * the hook programs): one its parent left closed is taken by /dev/null
 * opened the other way, so that no file the program opens later gets its
 * number (and the text) and a write to it fails (EBADF) as it would
 * have; SIGPIPE is ignored, so that a write to a pipe closed early fails
 * with EPIPE and the program can say so, where it would have died.
 */
#ifndef AITERM_UTIL_STDFD_H
#define AITERM_UTIL_STDFD_H

void	stdfd_guard(void);

#endif
