/*
 * Numbers from the environment: the limits tests shorten.
 */
#ifndef AITERM_UTIL_ENVNUM_H
#define AITERM_UTIL_ENVNUM_H

/*
 * The decimal value of the variable name when it is one within [min, max],
 * else def (unset, empty, not a number or out of range).  Read on every
 * call, so a test can change it between calls.
 */
long long	env_num(const char *name, long long def, long long min,
		    long long max);

#endif
