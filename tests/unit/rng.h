/*
 * A fixed-seed generator for the unit suites (xorshift64), so that a
 * failure can be replayed from its seed.
 */
#ifndef AITERM_TESTS_RNG_H
#define AITERM_TESTS_RNG_H

#include <stdint.h>

static inline uint64_t
rng_next(uint64_t *state)
{
	uint64_t x = *state;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*state = x;
	return x;
}

#endif
