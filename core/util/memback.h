/*
 * Giving memory back to the system after a large message (issue 37): a
 * 60 MB line must not leave the server 60 MB larger for good.  glibc
 * keeps freed memory for reuse (its bound for that grows to 64 MiB after
 * the first large free); malloc_trim returns it.  A no-op where the C
 * library has no malloc_trim.
 */
#ifndef AITERM_UTIL_MEMBACK_H
#define AITERM_UTIL_MEMBACK_H

void	memback_trim(void);

#endif
