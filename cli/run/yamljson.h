/*
 * A small YAML file read as JSON (SUP-RUN backend configs, ADR 0023):
 * one document of mappings, sequences and scalars; a plain scalar of
 * decimal digits is an integer, plain true/false a boolean, plain
 * null/~/empty null, anything else a string.  Read by the strict reader
 * plugin manifests use (util/yamldoc.h: one document, at most 64 KiB,
 * nested at most 16 levels); duplicate keys, non-string keys and anchors
 * used as keys are errors too, each naming the file, line and column.
 */
#ifndef AITERM_RUN_YAMLJSON_H
#define AITERM_RUN_YAMLJSON_H

#include <jansson.h>

#include "util/error.h"

/* The document of path, or NULL with err. */
json_t	*yamljson_load(const char *path, struct aiterm_error *err);
/* The same from memory; path only names it in messages. */
json_t	*yamljson_load_data(const char *path, const char *data, size_t len,
	    struct aiterm_error *err);

#endif
