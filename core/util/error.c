#include <stdlib.h>

#include "util/error.h"
#include "util/xmalloc.h"

int
error_vset(struct aiterm_error *err, const char *fmt, va_list ap)
{
	if (err == NULL)
		return -1;
	free(err->msg);
	err->msg = xvasprintf(fmt, ap);
	return -1;
}

int
error_set(struct aiterm_error *err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	error_vset(err, fmt, ap);
	va_end(ap);
	return -1;
}

void
error_prefix(struct aiterm_error *err, const char *fmt, ...)
{
	va_list ap;
	char *prefix, *msg;

	if (err == NULL || err->msg == NULL)
		return;
	va_start(ap, fmt);
	prefix = xvasprintf(fmt, ap);
	va_end(ap);
	msg = xasprintf("%s: %s", prefix, err->msg);
	free(prefix);
	free(err->msg);
	err->msg = msg;
}

const char *
error_msg(const struct aiterm_error *err)
{
	return err->msg == NULL ? "unknown error" : err->msg;
}

void
error_clear(struct aiterm_error *err)
{
	free(err->msg);
	err->msg = NULL;
}
