/*
 * A JSON Schema subset for tool arguments and results: type (one or a
 * list), properties, required, additionalProperties:false, enum, minimum,
 * maximum, minLength, maxLength, minItems, maxItems, items, anyOf.  Enough
 * to describe every tool's input and output; anything else in a schema is
 * ignored.
 */
#ifndef AITERM_UTIL_JSONSCHEMA_H
#define AITERM_UTIL_JSONSCHEMA_H

#include <jansson.h>

#include "util/error.h"

/* 0 when value conforms, else -1 with a message naming the argument. */
int	schema_check(const json_t *schema, const json_t *value,
	    struct aiterm_error *err);
/* The same for a tool's result: the message names the field. */
int	schema_check_result(const json_t *schema, const json_t *value,
	    struct aiterm_error *err);

/*
 * The value of an argument the schema accepted as "integer": a JSON
 * integer, or a real without a fraction (JSON Schema counts 80.0 as an
 * integer; jansson keeps it a real, whose json_integer_value is 0).  A
 * real beyond json_int_t is clamped to its range.  def when v is NULL or
 * not an integral number.  Every integer argument is read through this.
 */
json_int_t	schema_integer(const json_t *v, json_int_t def);

#endif
