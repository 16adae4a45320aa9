/*
 * struct aiterm_error: an error message slot.  Functions that can fail
 * return -1 and fill it; the caller reads err.msg and calls error_clear.
 */
#ifndef AITERM_ERROR_H
#define AITERM_ERROR_H

#include <stdarg.h>

struct aiterm_error {
	char	*msg;	/* NULL while no error is set */
};

#define ERROR_INIT { NULL }

/* Set (replacing any previous message); always returns -1. */
int	error_set(struct aiterm_error *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
int	error_vset(struct aiterm_error *err, const char *fmt, va_list ap)
	    __attribute__((format(printf, 2, 0)));
/* Prefix the current message with "prefix: ". */
void	error_prefix(struct aiterm_error *err, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
const char *error_msg(const struct aiterm_error *err);
void	error_clear(struct aiterm_error *err);

#endif
