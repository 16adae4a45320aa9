#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/buf.h"
#include "util/jsonschema.h"
#include "util/xmalloc.h"

#if JSON_INTEGER_IS_LONG_LONG
#define JINT_MAX	LLONG_MAX
#define JINT_MIN	LLONG_MIN
#else
#define JINT_MAX	LONG_MAX
#define JINT_MIN	LONG_MIN
#endif

static int check(const json_t *schema, const json_t *v, const char *where,
    const char *noun, struct aiterm_error *err);

static const char *
type_of(const json_t *v)
{
	static const char *const names[] = {
		[JSON_OBJECT] = "object", [JSON_ARRAY] = "array",
		[JSON_STRING] = "string", [JSON_INTEGER] = "integer",
		[JSON_REAL] = "number", [JSON_TRUE] = "boolean",
		[JSON_FALSE] = "boolean", [JSON_NULL] = "null",
	};

	return names[json_typeof(v)];
}

static bool
type_matches(const char *want, const json_t *v)
{
	const char *have = type_of(v);

	if (strcmp(want, have) == 0)
		return true;
	if (strcmp(want, "number") == 0 && json_is_integer(v))
		return true;
	/* 3.0 is an integer for JSON Schema. */
	if (strcmp(want, "integer") == 0 && json_is_real(v))
		return json_real_value(v) == floor(json_real_value(v));
	return false;
}

json_int_t
schema_integer(const json_t *v, json_int_t def)
{
	double d;

	if (json_is_integer(v))
		return json_integer_value(v);
	if (!json_is_real(v))
		return def;
	d = json_real_value(v);
	if (d != floor(d))
		return def;
	/* (double)JINT_MAX rounds up to 2^63, which does not fit. */
	if (d >= (double)JINT_MAX)
		return JINT_MAX;
	if (d <= (double)JINT_MIN)
		return JINT_MIN;
	return (json_int_t)d;
}

static int
check_type(const json_t *type, const json_t *v, const char *where,
    struct aiterm_error *err)
{
	size_t i;
	json_t *t;

	if (json_is_string(type)) {
		if (type_matches(json_string_value(type), v))
			return 0;
		return error_set(err, "%s must be %s %s, got %s", where,
		    strchr("aeiou", json_string_value(type)[0]) ? "an" : "a",
		    json_string_value(type), type_of(v));
	}
	json_array_foreach(type, i, t) {
		if (type_matches(json_string_value(t), v))
			return 0;
	}
	return error_set(err, "%s has the wrong type (%s)", where, type_of(v));
}

static int
check_enum(const json_t *choices, const json_t *v, const char *where,
    struct aiterm_error *err)
{
	struct aiterm_buf list = BUF_INIT;
	size_t i;
	json_t *c;
	char *s;

	json_array_foreach(choices, i, c) {
		if (json_equal(c, v))
			return 0;
	}
	json_array_foreach(choices, i, c) {
		s = json_dumps(c, JSON_ENCODE_ANY);
		buf_printf(&list, "%s%s", i == 0 ? "" : ", ", s);
		free(s);
	}
	error_set(err, "%s must be one of %s", where, buf_str(&list));
	buf_free(&list);
	return -1;
}

static int
check_number(const json_t *schema, const json_t *v, const char *where,
    struct aiterm_error *err)
{
	json_t *min = json_object_get(schema, "minimum");
	json_t *max = json_object_get(schema, "maximum");
	double x = json_number_value(v);

	if (min != NULL && x < json_number_value(min))
		return error_set(err, "%s must be at least %g, got %g", where,
		    json_number_value(min), x);
	if (max != NULL && x > json_number_value(max))
		return error_set(err, "%s must be at most %g, got %g", where,
		    json_number_value(max), x);
	return 0;
}

/* Length in characters (UTF-8 code points), as JSON Schema counts. */
static size_t
utf8_length(const char *s, size_t bytes)
{
	size_t i, n = 0;

	for (i = 0; i < bytes; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80)
			n++;
	}
	return n;
}

static int
check_string(const json_t *schema, const json_t *v, const char *where,
    struct aiterm_error *err)
{
	json_t *min = json_object_get(schema, "minLength");
	json_t *max = json_object_get(schema, "maxLength");
	size_t n = utf8_length(json_string_value(v), json_string_length(v));

	if (min != NULL && n < (size_t)json_integer_value(min))
		return error_set(err, "%s must be at least %lld characters",
		    where, (long long)json_integer_value(min));
	if (max != NULL && n > (size_t)json_integer_value(max))
		return error_set(err, "%s must be at most %lld characters, "
		    "got %zu", where, (long long)json_integer_value(max), n);
	return 0;
}

static int
check_array(const json_t *schema, const json_t *v, const char *where,
    const char *noun, struct aiterm_error *err)
{
	json_t *items = json_object_get(schema, "items");
	json_t *min = json_object_get(schema, "minItems");
	json_t *max = json_object_get(schema, "maxItems");
	size_t i, n = json_array_size(v);
	char *sub;
	json_t *e;
	int rc = 0;

	if (min != NULL && n < (size_t)json_integer_value(min))
		return error_set(err, "%s needs at least %lld items", where,
		    (long long)json_integer_value(min));
	if (max != NULL && n > (size_t)json_integer_value(max))
		return error_set(err, "%s takes at most %lld items", where,
		    (long long)json_integer_value(max));
	if (items == NULL)
		return 0;
	json_array_foreach(v, i, e) {
		sub = xasprintf("%s[%zu]", where, i);
		rc = check(items, e, sub, noun, err);
		free(sub);
		if (rc != 0)
			break;
	}
	return rc;
}

static void
list_keys(const json_t *props, struct aiterm_buf *b)
{
	const char *key;
	json_t *value;
	bool first = true;

	json_object_foreach((json_t *)props, key, value) {
		buf_printf(b, "%s%s", first ? "" : ", ", key);
		first = false;
	}
	if (first)
		buf_adds(b, "none");
}

static int
check_object(const json_t *schema, const json_t *v, const char *where,
    const char *noun, struct aiterm_error *err)
{
	json_t *props = json_object_get(schema, "properties");
	json_t *req = json_object_get(schema, "required");
	json_t *extra = json_object_get(schema, "additionalProperties");
	struct aiterm_buf names = BUF_INIT;
	const char *key;
	json_t *value, *r;
	size_t i;
	char *sub;
	int rc = 0;

	json_array_foreach(req, i, r) {
		if (json_object_get(v, json_string_value(r)) == NULL)
			return error_set(err, "missing required %s '%s'",
			    noun, json_string_value(r));
	}
	json_object_foreach((json_t *)v, key, value) {
		json_t *ps = props == NULL ? NULL : json_object_get(props, key);

		if (ps == NULL) {
			if (!json_is_false(extra))
				continue;
			list_keys(props, &names);
			rc = error_set(err, "unknown %s '%s' (accepted: "
			    "%s)", noun, key, buf_str(&names));
			buf_free(&names);
			break;
		}
		sub = xasprintf("%s '%s'", noun, key);
		rc = check(ps, value, sub, noun, err);
		free(sub);
		if (rc != 0)
			break;
	}
	(void)where;
	return rc;
}

/* anyOf: the value conforms to one of the forms at least. */
static int
check_any(const json_t *forms, const json_t *v, const char *where,
    const char *noun, struct aiterm_error *err)
{
	struct aiterm_error one = ERROR_INIT;
	struct aiterm_buf why = BUF_INIT;
	json_t *f;
	size_t i;
	int rc = -1;

	json_array_foreach(forms, i, f) {
		if ((rc = check(f, v, where, noun, &one)) == 0)
			break;
		buf_printf(&why, "%s%s", i == 0 ? "" : "; ", error_msg(&one));
		error_clear(&one);
	}
	if (rc != 0)
		rc = error_set(err, "%s matches none of its forms: %s", where,
		    buf_str(&why));
	buf_free(&why);
	return rc;
}

static int
check(const json_t *schema, const json_t *v, const char *where,
    const char *noun, struct aiterm_error *err)
{
	json_t *type = json_object_get(schema, "type");
	json_t *choices = json_object_get(schema, "enum");
	json_t *any = json_object_get(schema, "anyOf");

	if (type != NULL && check_type(type, v, where, err) != 0)
		return -1;
	if (choices != NULL && check_enum(choices, v, where, err) != 0)
		return -1;
	if (any != NULL && check_any(any, v, where, noun, err) != 0)
		return -1;
	if (json_is_number(v))
		return check_number(schema, v, where, err);
	if (json_is_string(v))
		return check_string(schema, v, where, err);
	if (json_is_array(v))
		return check_array(schema, v, where, noun, err);
	if (json_is_object(v))
		return check_object(schema, v, where, noun, err);
	return 0;
}

int
schema_check(const json_t *schema, const json_t *value,
    struct aiterm_error *err)
{
	return check(schema, value, "arguments", "argument", err);
}

int
schema_check_result(const json_t *schema, const json_t *value,
    struct aiterm_error *err)
{
	return check(schema, value, "the result", "field", err);
}
