/*
 * Overwrite memory that held a secret so the compiler cannot drop the
 * stores (explicit_bzero is not on every platform: macOS has none).
 */
#ifndef AITERM_WIPE_H
#define AITERM_WIPE_H

#include <stddef.h>

void	mem_wipe(void *p, size_t n);

#endif
