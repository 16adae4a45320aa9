/*
 * The report: facts about Aiterm, a fatal failure if one stopped setup,
 * one outcome per client.  Printed for people or as JSON (--json).
 */
#ifndef AITERM_SETUP_REPORT_H
#define AITERM_SETUP_REPORT_H

#include <jansson.h>

#include "setup.h"

struct report {
	const struct setup_opts	*opts;
	json_t			*facts;		/* aiterm: mux, plugins ... */
	const char		*code;		/* a fatal failure */
	char			*message;
	struct setup_outcome	*v;
	size_t			 n;
};

void	report_init(struct report *r, const struct setup_opts *o);
void	report_free(struct report *r);
struct setup_outcome *report_add(struct report *r, const char *client);
/* Setup stopped: code and why; returns -1. */
int	report_fatal(struct report *r, const char *code, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	report_fact(struct report *r, const char *key, json_t *value);
/* Print; the exit status (0, or 1 on any failure or no client found). */
int	report_print(struct report *r);

#endif
