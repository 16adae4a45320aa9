/*
 * The words after a subcommand, turned into the tool's arguments.  The
 * options come from the tool's input schema: a property foo_bar is
 * --foo-bar; a boolean is --foo (true) or --no-foo (false); an integer or
 * a number is one word read whole; an array takes a comma list and may be
 * repeated; an object of strings takes KEY=VALUE and may be repeated.
 * Any value may also follow an '=' in the same word.  The arguments are
 * then checked by the schema tools/call uses, so a value the tool would
 * refuse is a usage error here (exit 2), named as the tool names it.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "util/jsonschema.h"
#include "util/xmalloc.h"

const char *
cli_prop_type(json_t *prop)
{
	json_t *t = json_object_get(prop, "type");

	if (json_is_array(t))
		t = json_array_get(t, 0);
	return json_is_string(t) ? json_string_value(t) : "string";
}

/* The property name of an option word "--foo-bar" (malloc'd). */
static char *
prop_name(const char *word, size_t len)
{
	char *name = xstrndup(word, len), *p;

	for (p = name; *p != '\0'; p++) {
		if (*p == '-')
			*p = '_';
	}
	return name;
}

static int
parse_integer(const char *text, json_t **out)
{
	long long v;
	char *end;

	errno = 0;
	v = strtoll(text, &end, 10);
	if (errno != 0 || end == text || *end != '\0')
		return -1;
	*out = json_integer(v);
	return 0;
}

static int
parse_number(const char *text, json_t **out)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || *end != '\0' || !isfinite(v))
		return -1;
	*out = json_real(v);
	return 0;
}

static int
parse_bool(const char *text, json_t **out)
{
	if (strcmp(text, "true") == 0)
		*out = json_true();
	else if (strcmp(text, "false") == 0)
		*out = json_false();
	else
		return -1;
	return 0;
}

/* One value of a scalar type; -1 when text is not one. */
static int
parse_scalar(const char *type, const char *text, json_t **out)
{
	if (strcmp(type, "integer") == 0)
		return parse_integer(text, out);
	if (strcmp(type, "number") == 0)
		return parse_number(text, out);
	if (strcmp(type, "boolean") == 0)
		return parse_bool(text, out);
	*out = json_string(text);
	return *out == NULL ? -1 : 0;
}

/* A comma list appended to the array in args (made on first use). */
static int
add_array(json_t *args, const char *name, json_t *prop, const char *text)
{
	json_t *arr = json_object_get(args, name), *v;
	const char *type = cli_prop_type(json_object_get(prop, "items"));
	char *copy = xstrdup(text), *item, *save = NULL;
	int rc = 0;

	if (arr == NULL) {
		arr = json_array();
		json_object_set_new(args, name, arr);
	}
	for (item = strtok_r(copy, ",", &save); rc == 0 && item != NULL;
	    item = strtok_r(NULL, ",", &save)) {
		if ((rc = parse_scalar(type, item, &v)) == 0)
			json_array_append_new(arr, v);
	}
	free(copy);
	return rc;
}

/* KEY=VALUE into the object in args (made on first use). */
static int
add_object(json_t *args, const char *name, const char *text)
{
	json_t *obj = json_object_get(args, name);
	const char *eq = strchr(text, '=');
	char *key;
	json_t *v;

	if (eq == NULL || eq == text || (v = json_string(eq + 1)) == NULL)
		return -1;
	if (obj == NULL) {
		obj = json_object();
		json_object_set_new(args, name, obj);
	}
	key = xstrndup(text, (size_t)(eq - text));
	json_object_set_new(obj, key, v);
	free(key);
	return 0;
}

/* What an option of this type wants, for messages. */
static const char *
wants(const char *type)
{
	static const struct {
		const char	*type;
		const char	*what;
	} table[] = {
		{ "integer", "a whole number" },
		{ "number", "a number" },
		{ "boolean", "true or false" },
		{ "array", "a comma list" },
		{ "object", "KEY=VALUE" },
	};
	size_t i;

	for (i = 0; i < sizeof table / sizeof table[0]; i++) {
		if (strcmp(table[i].type, type) == 0)
			return table[i].what;
	}
	return "a value";
}

/* Store one option's value; -1 with *why. */
static int
set_option(struct cli_request *req, const char *name, json_t *prop,
    const char *value, char **why)
{
	const char *type = cli_prop_type(prop);
	char *option, *p;
	json_t *v;
	int rc;

	if (strcmp(type, "array") == 0)
		rc = add_array(req->args, name, prop, value);
	else if (strcmp(type, "object") == 0)
		rc = add_object(req->args, name, value);
	else if ((rc = parse_scalar(type, value, &v)) == 0)
		json_object_set_new(req->args, name, v);
	if (rc != 0) {
		option = xstrdup(name);
		for (p = option; *p != '\0'; p++) {
			if (*p == '_')
				*p = '-';
		}
		*why = xasprintf("--%s wants %s, not '%s'", option, wants(type),
		    value);
		free(option);
	}
	return rc;
}

/* A word "--..." (not "--"): the next word may be its value. */
static int
option(struct cli_request *req, json_t *props, int argc, char **argv,
    int *k, char **why)
{
	const char *word = argv[*k] + 2, *eq = strchr(word, '='), *value;
	char *name;
	json_t *prop;
	bool negated = false;
	int rc = -1;

	name = prop_name(word, eq != NULL ? (size_t)(eq - word) :
	    strlen(word));
	if ((prop = json_object_get(props, name)) == NULL &&
	    strncmp(name, "no_", 3) == 0 && eq == NULL &&
	    (prop = json_object_get(props, name + 3)) != NULL &&
	    strcmp(cli_prop_type(prop), "boolean") == 0)
		negated = true;
	else if (prop == NULL) {
		*why = xasprintf("unknown option '%s'", argv[*k]);
		goto out;
	}
	if (negated) {
		json_object_set_new(req->args, name + 3, json_false());
		rc = 0;
	} else if (eq == NULL && strcmp(cli_prop_type(prop), "boolean") == 0) {
		json_object_set_new(req->args, name, json_true());
		rc = 0;
	} else {
		if (eq != NULL)
			value = eq + 1;
		else if (*k + 1 < argc)
			value = argv[++*k];
		else {
			*why = xasprintf("--%.*s needs a value (%s)",
			    (int)strlen(word), word, wants(cli_prop_type(prop)));
			goto out;
		}
		rc = set_option(req, name, prop, value, why);
	}
out:
	free(name);
	return rc;
}

/* The next positional word: the command's next positional argument. */
static int
positional(struct cli_request *req, json_t *props, unsigned *np,
    const char *word, char **why)
{
	const char *name = req->cmd->positional[*np];

	if (*np >= CLI_MAX_POSITIONAL || name == NULL) {
		*why = xasprintf("unexpected argument '%s'", word);
		return -1;
	}
	(*np)++;
	return set_option(req, name, json_object_get(props, name), word, why);
}

/* "session_id" as the help writes it: SESSION_ID. */
static char *
upper(const char *name)
{
	char *u = xstrdup(name), *p;

	for (p = u; *p != '\0'; p++) {
		if (*p >= 'a' && *p <= 'z')
			*p = (char)(*p - 'a' + 'A');
	}
	return u;
}

int
cli_parse(struct cli_request *req, int argc, char **argv, char **why)
{
	struct aiterm_error err = ERROR_INIT;
	json_t *props = json_object_get(tool_input_schema(req->tool),
	    "properties");
	unsigned np = 0;
	bool words_only = false;
	char *missing;
	int k;

	req->args = json_object();
	for (k = 0; k < argc; k++) {
		if (!words_only && strcmp(argv[k], "--") == 0)
			words_only = true;
		else if (!words_only && strcmp(argv[k], "--json") == 0)
			req->json = true;
		else if (!words_only && (strcmp(argv[k], "--help") == 0 ||
		    strcmp(argv[k], "-h") == 0)) {
			req->help = true;
			return 0;
		} else if (!words_only && strncmp(argv[k], "--", 2) == 0) {
			if (option(req, props, argc, argv, &k, why) != 0)
				return -1;
		} else if (positional(req, props, &np, argv[k], why) != 0)
			return -1;
	}
	if (np < req->cmd->required) {
		missing = upper(req->cmd->positional[np]);
		*why = xasprintf("missing %s", missing);
		free(missing);
		return -1;
	}
	if (schema_check(tool_input_schema(req->tool), req->args, &err) != 0) {
		*why = xasprintf("%s", error_msg(&err));
		error_clear(&err);
		return -1;
	}
	req->waits = json_is_true(json_object_get(req->args, "wait")) ||
	    json_object_get(req->args, "until") != NULL;
	return 0;
}
