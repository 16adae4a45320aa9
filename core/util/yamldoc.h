/*
 * One YAML document read strictly, for the small files Aiterm reads:
 * plugin manifests (plugin/manifest.c) and aiterm run's backends
 * (cli/run/yamljson.c).  At most max bytes; mappings and sequences nested
 * at most depth levels, the top level being 1 (checked on the events
 * first: libyaml's loader slows down with the square of the nesting, a
 * 64 KiB "[[[[..." takes seconds); nothing but the end of the stream
 * after the document.  Every error names the file and, where there is
 * one, the 1-based line and column: "<path>:<line>:<col>: <message>".
 */
#ifndef AITERM_UTIL_YAMLDOC_H
#define AITERM_UTIL_YAMLDOC_H

#include <stdbool.h>
#include <stddef.h>
#include <yaml.h>

#include "util/error.h"

struct yamldoc_limits {
	size_t		max;	/* bytes */
	unsigned	depth;	/* levels */
};

/* path's document into doc (yaml_document_delete it), or -1 with err. */
int	yamldoc_load(const char *path, const struct yamldoc_limits *lim,
	    yaml_document_t *doc, struct aiterm_error *err);
/* The same from memory; path only names it in messages. */
int	yamldoc_load_data(const char *path, const char *data, size_t len,
	    const struct yamldoc_limits *lim, yaml_document_t *doc,
	    struct aiterm_error *err);
/* err set to "<path>:<line>:<col>: <message>"; returns -1. */
int	yamldoc_fail(struct aiterm_error *err, const char *path,
	    yaml_mark_t mark, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
/* A plain scalar YAML reads as null: "", "~", null, Null, NULL. */
bool	yamldoc_null_word(const char *s);

#endif
