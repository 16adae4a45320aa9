/* YAML to JSON for small config files, strictly (see yamljson.h). */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "cli/run/yamljson.h"
#include "util/xmalloc.h"
#include "util/yamldoc.h"

#define YAMLJSON_MAX_SIZE	65536
#define YAMLJSON_MAX_DEPTH	16

static json_t *
scalar(const yaml_node_t *node)
{
	const char *s = (const char *)node->data.scalar.value;
	size_t len = node->data.scalar.length, i;
	bool digits = len > 0 && len < 16;

	if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return json_stringn(s, len);
	for (i = 0; digits && i < len; i++)
		digits = s[i] >= '0' && s[i] <= '9';
	if (digits)
		return json_integer(strtoll(s, NULL, 10));
	if (strcmp(s, "true") == 0)
		return json_true();
	if (strcmp(s, "false") == 0)
		return json_false();
	if (yamldoc_null_word(s))
		return json_null();
	return json_stringn(s, len);
}

static json_t *convert(yaml_document_t *doc, yaml_node_t *node,
    const char *path, int depth, struct aiterm_error *err);

static json_t *
fail(const char *path, const yaml_node_t *node, const char *what,
    struct aiterm_error *err)
{
	error_set(err, "%s:%zu:%zu: %s", path, node->start_mark.line + 1,
	    node->start_mark.column + 1, what);
	return NULL;
}

static json_t *
mapping(yaml_document_t *doc, yaml_node_t *node, const char *path,
    int depth, struct aiterm_error *err)
{
	yaml_node_pair_t *p;
	yaml_node_t *k, *v;
	json_t *obj = json_object(), *jv;
	char *key;

	for (p = node->data.mapping.pairs.start;
	    p < node->data.mapping.pairs.top; p++) {
		k = yaml_document_get_node(doc, p->key);
		v = yaml_document_get_node(doc, p->value);
		if (k == NULL || v == NULL || k->type != YAML_SCALAR_NODE) {
			json_decref(obj);
			return fail(path, node, "a key must be a string", err);
		}
		key = xstrndup((const char *)k->data.scalar.value,
		    k->data.scalar.length);
		if (json_object_get(obj, key) != NULL) {
			json_decref(obj);
			fail(path, k, "this key is given twice", err);
			free(key);
			return NULL;
		}
		if ((jv = convert(doc, v, path, depth + 1, err)) == NULL) {
			json_decref(obj);
			free(key);
			return NULL;
		}
		json_object_set_new(obj, key, jv);
		free(key);
	}
	return obj;
}

static json_t *
convert(yaml_document_t *doc, yaml_node_t *node, const char *path,
    int depth, struct aiterm_error *err)
{
	yaml_node_item_t *it;
	json_t *arr, *v;

	if (depth > YAMLJSON_MAX_DEPTH)
		return fail(path, node, "nested too deep", err);
	switch (node->type) {
	case YAML_SCALAR_NODE:
		if ((v = scalar(node)) == NULL)
			return fail(path, node, "not valid UTF-8", err);
		return v;
	case YAML_MAPPING_NODE:
		return mapping(doc, node, path, depth, err);
	case YAML_SEQUENCE_NODE:
		arr = json_array();
		for (it = node->data.sequence.items.start;
		    it < node->data.sequence.items.top; it++) {
			v = convert(doc, yaml_document_get_node(doc, *it), path,
			    depth + 1, err);
			if (v == NULL) {
				json_decref(arr);
				return NULL;
			}
			json_array_append_new(arr, v);
		}
		return arr;
	default:
		return fail(path, node, "an empty node", err);
	}
}

static const struct yamldoc_limits limits = {
	YAMLJSON_MAX_SIZE, YAMLJSON_MAX_DEPTH,
};

/* The loaded document as JSON; doc deleted. */
static json_t *
converted(const char *path, yaml_document_t *doc, struct aiterm_error *err)
{
	yaml_node_t *root = yaml_document_get_root_node(doc);
	json_t *out = NULL;

	if (root == NULL)
		error_set(err, "%s: empty", path);
	else
		out = convert(doc, root, path, 1, err);
	yaml_document_delete(doc);
	return out;
}

json_t *
yamljson_load_data(const char *path, const char *data, size_t len,
    struct aiterm_error *err)
{
	yaml_document_t doc;

	if (yamldoc_load_data(path, data, len, &limits, &doc, err) != 0)
		return NULL;
	return converted(path, &doc, err);
}

json_t *
yamljson_load(const char *path, struct aiterm_error *err)
{
	yaml_document_t doc;

	if (yamldoc_load(path, &limits, &doc, err) != 0)
		return NULL;
	return converted(path, &doc, err);
}
