/*
 * Plugin manifests, read strictly with libyaml's document API.
 *
 * The whole file (at most MANIFEST_MAX_SIZE bytes) is loaded as one YAML
 * document by the strict reader aiterm run's backends use too (util/
 * yamldoc.h: size, nesting, a single document).  Its top level must be a
 * mapping whose keys come from the table below; "x-" keys are accepted and ignored.  Every
 * error names the file and the 1-based line and column of the node at
 * fault, as "<path>:<line>:<col>: <message>".
 *
 * On failure manifest_load leaves the struct zeroed, so calling
 * manifest_free on it afterwards is harmless but not needed.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "plugin/manifest.h"
#include "util/buf.h"
#include "util/xmalloc.h"
#include "util/yamldoc.h"

/* The only manifest format this reader understands. */
#define MANIFEST_VERSION	1
/* Manifests are a few hundred bytes; anything larger is not one. */
#define MANIFEST_MAX_SIZE	65536
/* Mappings and sequences nest at most this deep, the top level being 1. */
#define MANIFEST_MAX_DEPTH	32
/* Values quoted in messages are cut after this many bytes. */
#define QUOTE_MAX		64

#define nitems(a)		(sizeof (a) / sizeof (a)[0])

/* What a key's value must look like before its setter sees it. */
enum value_type {
	VALUE_INTEGER,		/* a plain scalar made of decimal digits */
	VALUE_STRING,		/* a non-null scalar without NUL bytes */
	VALUE_STRING_LIST,	/* a sequence of such scalars */
	VALUE_MAPPING_LIST,	/* a sequence of mappings */
};

/* One manifest being read. */
struct reader {
	const char		*path;
	yaml_document_t		*doc;
	struct manifest		*m;
	struct aiterm_error	*err;
	struct aiterm_buf	 quote;	/* scratch space for quoted() */
};

struct manifest_key {
	const char	*name;
	enum value_type	 type;
	bool		 required;
	/* Called with a value that already has the right type. */
	int		(*set)(struct reader *, const struct manifest_key *,
			    yaml_node_t *);
};

struct kind_entry {
	const char		*name;
	enum aiterm_plugin_kind	 kind;
};

static const struct kind_entry kinds[] = {
	{ "mux", AITERM_KIND_MUX },
	{ "harness", AITERM_KIND_HARNESS },
	{ "reducer", AITERM_KIND_REDUCER },
	{ "receiver", AITERM_KIND_RECEIVER },
};

static const char *const platforms[] = { "linux", "darwin", "windows" };

static int	set_manifest(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_name(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_kind(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_module(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_abi(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_version(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_summary(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_platforms(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_provides(struct reader *, const struct manifest_key *,
		    yaml_node_t *);
static int	set_reducers(struct reader *, const struct manifest_key *,
		    yaml_node_t *);

static const struct manifest_key manifest_keys[] = {
	{ "manifest", VALUE_INTEGER, true, set_manifest },
	{ "name", VALUE_STRING, true, set_name },
	{ "kind", VALUE_STRING, true, set_kind },
	{ "module", VALUE_STRING, true, set_module },
	{ "abi", VALUE_STRING, true, set_abi },
	{ "version", VALUE_STRING, true, set_version },
	{ "summary", VALUE_STRING, false, set_summary },
	{ "platforms", VALUE_STRING_LIST, false, set_platforms },
	{ "provides", VALUE_STRING_LIST, false, set_provides },
	{ "reducers", VALUE_MAPPING_LIST, false, set_reducers },
};

/* The keys of one "reducers:" entry (kind reducer only), all required. */
enum { RK_NAME, RK_VERSION, RK_COMMANDS, RK_COUNT };
static const struct manifest_key reducer_keys[RK_COUNT] = {
	[RK_NAME] = { "name", VALUE_STRING, true, NULL },
	[RK_VERSION] = { "version", VALUE_STRING, true, NULL },
	[RK_COMMANDS] = { "commands", VALUE_STRING_LIST, true, NULL },
};

const char *
plugin_kind_name(enum aiterm_plugin_kind kind)
{
	size_t i;

	for (i = 0; i < nitems(kinds); i++) {
		if (kinds[i].kind == kind)
			return kinds[i].name;
	}
	return NULL;
}

int
plugin_kind_parse(const char *name, enum aiterm_plugin_kind *kind)
{
	size_t i;

	for (i = 0; i < nitems(kinds); i++) {
		if (strcmp(kinds[i].name, name) == 0) {
			*kind = kinds[i].kind;
			return 0;
		}
	}
	return -1;
}

static void
free_list(char **list)
{
	size_t i;

	if (list == NULL)
		return;
	for (i = 0; list[i] != NULL; i++)
		free(list[i]);
	free(list);
}

void
manifest_reducers_free(struct manifest_reducer *reducers, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(reducers[i].name);
		free(reducers[i].version);
		free_list(reducers[i].commands);
	}
	free(reducers);
}

static void
free_reducers(struct manifest *m)
{
	manifest_reducers_free(m->reducers, m->nreducers);
	m->reducers = NULL;
	m->nreducers = 0;
}

void
manifest_free(struct manifest *m)
{
	if (m == NULL)
		return;
	free_reducers(m);
	free(m->path);
	free(m->name);
	free(m->module);
	free(m->version);
	free(m->summary);
	free_list(m->platforms);
	free_list(m->provides);
	memset(m, 0, sizeof *m);
}

/* Fill the error slot with "<path>:<line>:<col>: <message>"; returns -1. */
static int __attribute__((format(printf, 3, 4)))
fail_at(struct reader *r, yaml_mark_t mark, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	yamldoc_fail(r->err, r->path, mark, "%s", msg);
	free(msg);
	return -1;
}

/*
 * A scalar's text made safe for a one-line message: control characters
 * are escaped and long values are cut (at a UTF-8 character boundary) and
 * end in "...".  The result lives until the next call.
 */
static const char *
quoted(struct reader *r, const yaml_node_t *node)
{
	const unsigned char *s = node->data.scalar.value;
	size_t len = node->data.scalar.length, i;
	bool cut = false;

	if (len > QUOTE_MAX) {
		len = QUOTE_MAX;
		while (len > 0 && (s[len] & 0xc0) == 0x80)
			len--;
		cut = true;
	}
	buf_reset(&r->quote);
	for (i = 0; i < len; i++) {
		if (s[i] == '\n')
			buf_adds(&r->quote, "\\n");
		else if (s[i] == '\t')
			buf_adds(&r->quote, "\\t");
		else if (s[i] < 0x20 || s[i] == 0x7f)
			buf_printf(&r->quote, "\\x%02x", s[i]);
		else
			buf_addc(&r->quote, (char)s[i]);
	}
	if (cut)
		buf_adds(&r->quote, "...");
	return buf_str(&r->quote);
}

static const char *
scalar_text(const yaml_node_t *node)
{
	return (const char *)node->data.scalar.value;
}

static bool
scalar_equal(const yaml_node_t *a, const yaml_node_t *b)
{
	return a->type == YAML_SCALAR_NODE && b->type == YAML_SCALAR_NODE &&
	    a->data.scalar.length == b->data.scalar.length &&
	    memcmp(a->data.scalar.value, b->data.scalar.value,
	    a->data.scalar.length) == 0;
}

/* The loader gives untagged scalars YAML_DEFAULT_SCALAR_TAG (!!str). */
static bool
has_tag(const yaml_node_t *node, const char *tag)
{
	if (node->tag == NULL)
		return strcmp(YAML_DEFAULT_SCALAR_TAG, tag) == 0;
	return strcmp((const char *)node->tag, tag) == 0;
}

static bool
is_null(const yaml_node_t *node)
{
	if (node->type != YAML_SCALAR_NODE)
		return false;
	if (has_tag(node, YAML_NULL_TAG))
		return true;
	if (node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return yamldoc_null_word(scalar_text(node));
}

/* A non-null scalar tagged (or defaulted to) !!str. */
static bool
is_string(const yaml_node_t *node)
{
	return node->type == YAML_SCALAR_NODE && !is_null(node) &&
	    has_tag(node, YAML_STR_TAG);
}

static bool
has_nul(const yaml_node_t *node)
{
	return memchr(node->data.scalar.value, '\0',
	    node->data.scalar.length) != NULL;
}

/* A plain scalar matching ^-?[0-9]+$. */
static bool
is_integer(const yaml_node_t *node)
{
	const char *s;

	if (node->type != YAML_SCALAR_NODE ||
	    node->data.scalar.style != YAML_PLAIN_SCALAR_STYLE || has_nul(node))
		return false;
	s = scalar_text(node);
	if (*s == '-')
		s++;
	if (*s == '\0')
		return false;
	return strspn(s, "0123456789") == strlen(s);
}

static yaml_node_t *
node_at(struct reader *r, int index)
{
	return yaml_document_get_node(r->doc, index);
}

static int
check_string(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	if (!is_string(node))
		return fail_at(r, node->start_mark, "'%s' must be a string",
		    key->name);
	if (has_nul(node))
		return fail_at(r, node->start_mark,
		    "'%s' must not contain a NUL byte", key->name);
	return 0;
}

static int
check_type(struct reader *r, const struct manifest_key *key,
    yaml_node_t *value)
{
	yaml_node_item_t *item;
	yaml_node_t *node;

	switch (key->type) {
	case VALUE_INTEGER:
		if (!is_integer(value))
			return fail_at(r, value->start_mark,
			    "'%s' must be an integer", key->name);
		return 0;
	case VALUE_STRING:
		return check_string(r, key, value);
	case VALUE_STRING_LIST:
		if (value->type != YAML_SEQUENCE_NODE)
			return fail_at(r, value->start_mark,
			    "'%s' must be a sequence of strings", key->name);
		for (item = value->data.sequence.items.start;
		    item < value->data.sequence.items.top; item++) {
			node = node_at(r, *item);
			if (!is_string(node))
				return fail_at(r, node->start_mark,
				    "'%s' must be a sequence of strings",
				    key->name);
			if (has_nul(node))
				return fail_at(r, node->start_mark,
				    "'%s' must not contain a NUL byte",
				    key->name);
		}
		return 0;
	case VALUE_MAPPING_LIST:
		if (value->type != YAML_SEQUENCE_NODE)
			return fail_at(r, value->start_mark,
			    "'%s' must be a sequence of mappings", key->name);
		for (item = value->data.sequence.items.start;
		    item < value->data.sequence.items.top; item++) {
			node = node_at(r, *item);
			if (node->type != YAML_MAPPING_NODE)
				return fail_at(r, node->start_mark,
				    "'%s' entries must be mappings", key->name);
		}
		return 0;
	}
	return fail_at(r, value->start_mark, "'%s' has no type", key->name);
}

static void
set_string(char **field, const yaml_node_t *node)
{
	free(*field);
	*field = xstrdup(scalar_text(node));
}

/* "a, b, c" from a list of names, for messages. */
static char *
join_names(const char *const *names, size_t n)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	for (i = 0; i < n; i++)
		buf_printf(&b, "%s%s", i == 0 ? "" : ", ", names[i]);
	return buf_steal(&b, NULL);
}

static int
set_manifest(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	const char *s = scalar_text(node);
	char *end;
	long v;

	(void)key;
	errno = 0;
	v = strtol(s, &end, 10);
	if (errno != 0 || *end != '\0' || v != MANIFEST_VERSION)
		return fail_at(r, node->start_mark,
		    "unsupported manifest version %s (this Aiterm reads %d)",
		    quoted(r, node), MANIFEST_VERSION);
	r->m->manifest = (int)v;
	return 0;
}

static int
set_name(struct reader *r, const struct manifest_key *key, yaml_node_t *node)
{
	static const char first[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	static const char rest[] = "abcdefghijklmnopqrstuvwxyz0123456789-";
	const char *s = scalar_text(node);

	if (*s == '\0' || strchr(first, *s) == NULL ||
	    strspn(s + 1, rest) != strlen(s + 1))
		return fail_at(r, node->start_mark,
		    "'%s' must match [a-z0-9][a-z0-9-]*, got '%s'", key->name,
		    quoted(r, node));
	set_string(&r->m->name, node);
	return 0;
}

static int
set_kind(struct reader *r, const struct manifest_key *key, yaml_node_t *node)
{
	const char *names[nitems(kinds)];
	char *list;
	size_t i;

	if (plugin_kind_parse(scalar_text(node), &r->m->kind) == 0)
		return 0;
	for (i = 0; i < nitems(kinds); i++)
		names[i] = kinds[i].name;
	list = join_names(names, nitems(names));
	fail_at(r, node->start_mark, "'%s' must be one of %s, got '%s'",
	    key->name, list, quoted(r, node));
	free(list);
	return -1;
}

static int
set_module(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	static const char allowed[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
	const char *s = scalar_text(node);

	if (*s == '\0' || strspn(s, allowed) != strlen(s))
		return fail_at(r, node->start_mark,
		    "'%s' must match [A-Za-z0-9_]+, got '%s'", key->name,
		    quoted(r, node));
	set_string(&r->m->module, node);
	return 0;
}

/* One decimal number that fits an unsigned; *s is moved past it. */
static bool
parse_decimal(const char **s, unsigned *out)
{
	unsigned long v = 0;
	const char *p = *s;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (unsigned long)(*p - '0');
		if (v > UINT_MAX)
			return false;
	}
	*out = (unsigned)v;
	*s = p;
	return true;
}

static int
set_abi(struct reader *r, const struct manifest_key *key, yaml_node_t *node)
{
	const char *s = scalar_text(node);
	unsigned major, minor;

	if (!parse_decimal(&s, &major) || *s++ != '.' ||
	    !parse_decimal(&s, &minor) || *s != '\0')
		return fail_at(r, node->start_mark,
		    "'%s' must be \"MAJOR.MINOR\", got '%s'", key->name,
		    quoted(r, node));
	r->m->abi_major = major;
	r->m->abi_minor = minor;
	return 0;
}

static int
set_version(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	if (node->data.scalar.length == 0)
		return fail_at(r, node->start_mark, "'%s' must not be empty",
		    key->name);
	set_string(&r->m->version, node);
	return 0;
}

static int
set_summary(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	(void)key;
	set_string(&r->m->summary, node);
	return 0;
}

/*
 * Copy a sequence of strings into *field (NULL-terminated), refusing
 * duplicates and entries that check() refuses.  The list is stored before
 * it is filled, so manifest_free releases whatever was copied on failure.
 */
static int
set_list(struct reader *r, const struct manifest_key *key, yaml_node_t *seq,
    char ***field, int (*check)(struct reader *, const struct manifest_key *,
    yaml_node_t *))
{
	yaml_node_item_t *start = seq->data.sequence.items.start;
	yaml_node_item_t *top = seq->data.sequence.items.top;
	yaml_node_item_t *item, *prev;
	yaml_node_t *node;
	size_t n = 0;

	free_list(*field);
	*field = xcalloc((size_t)(top - start) + 1, sizeof **field);
	for (item = start; item < top; item++) {
		node = node_at(r, *item);
		if (check(r, key, node) == -1)
			return -1;
		for (prev = start; prev < item; prev++) {
			if (scalar_equal(node_at(r, *prev), node))
				return fail_at(r, node->start_mark,
				    "duplicate '%s' entry '%s'", key->name,
				    quoted(r, node));
		}
		(*field)[n++] = xstrdup(scalar_text(node));
	}
	return 0;
}

static int
check_platform(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	char *list;
	size_t i;

	for (i = 0; i < nitems(platforms); i++) {
		if (strcmp(scalar_text(node), platforms[i]) == 0)
			return 0;
	}
	list = join_names(platforms, nitems(platforms));
	fail_at(r, node->start_mark, "'%s' entries must be one of %s, got '%s'",
	    key->name, list, quoted(r, node));
	free(list);
	return -1;
}

static int
check_provided(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	if (node->data.scalar.length == 0)
		return fail_at(r, node->start_mark,
		    "'%s' entries must not be empty", key->name);
	return 0;
}

static int
set_platforms(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	return set_list(r, key, node, &r->m->platforms, check_platform);
}

static int
set_provides(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	return set_list(r, key, node, &r->m->provides, check_provided);
}

/*
 * A command pattern: words of printable ASCII other than quotes and
 * backslashes, separated by single spaces, e.g. "git status", "node --test".
 */
static int
check_pattern(struct reader *r, const struct manifest_key *key,
    yaml_node_t *node)
{
	const char *s = scalar_text(node);
	size_t i, n = node->data.scalar.length;

	for (i = 0; i < n; i++) {
		if ((unsigned char)s[i] <= ' ' && s[i] != ' ')
			break;
		if ((unsigned char)s[i] >= 0x7f || strchr("'\"\\", s[i]))
			break;
		if (s[i] == ' ' && (i == 0 || i + 1 == n || s[i + 1] == ' '))
			break;
	}
	if (n == 0 || i < n)
		return fail_at(r, node->start_mark, "'%s' entries must be words "
		    "separated by single spaces, got '%s'", key->name,
		    quoted(r, node));
	return 0;
}

/* One "reducers:" entry: a mapping of exactly reducer_keys. */
static int
read_reducer(struct reader *r, yaml_node_t *map, struct manifest_reducer *mr)
{
	yaml_node_pair_t *pair;
	yaml_node_t *key, *value;
	bool seen[RK_COUNT] = { false };
	size_t i;

	for (pair = map->data.mapping.pairs.start;
	    pair < map->data.mapping.pairs.top; pair++) {
		key = node_at(r, pair->key);
		value = node_at(r, pair->value);
		if (!is_string(key) || has_nul(key))
			return fail_at(r, key->start_mark,
			    "keys must be strings");
		for (i = 0; i < RK_COUNT; i++) {
			if (strcmp(scalar_text(key), reducer_keys[i].name) == 0)
				break;
		}
		if (i == RK_COUNT)
			return fail_at(r, key->start_mark,
			    "unknown key '%s' in a 'reducers' entry",
			    quoted(r, key));
		if (seen[i])
			return fail_at(r, key->start_mark,
			    "duplicate key '%s'", quoted(r, key));
		seen[i] = true;
		if (check_type(r, &reducer_keys[i], value) == -1)
			return -1;
		if (i == RK_NAME) {
			if (set_name(r, &reducer_keys[i], value) == -1)
				return -1;
			mr->name = r->m->name;
			r->m->name = NULL;
		} else if (i == RK_VERSION) {
			if (set_version(r, &reducer_keys[i], value) == -1)
				return -1;
			mr->version = r->m->version;
			r->m->version = NULL;
		} else if (set_list(r, &reducer_keys[i], value, &mr->commands,
		    check_pattern) == -1)
			return -1;
	}
	for (i = 0; i < RK_COUNT; i++) {
		if (!seen[i])
			return fail_at(r, map->start_mark, "missing required "
			    "key '%s' in a 'reducers' entry",
			    reducer_keys[i].name);
	}
	if (mr->commands[0] == NULL)
		return fail_at(r, map->start_mark,
		    "reducer '%s' claims no commands", mr->name);
	return 0;
}

/*
 * The entries borrow set_name and set_version, which write the top-level
 * fields: those are saved around the loop and put back.
 */
static int
set_reducers(struct reader *r, const struct manifest_key *key,
    yaml_node_t *seq)
{
	yaml_node_item_t *start = seq->data.sequence.items.start;
	yaml_node_item_t *top = seq->data.sequence.items.top, *item;
	char *name = r->m->name, *version = r->m->version;
	size_t i;
	int rc = 0;

	free_reducers(r->m);
	if (start == top)
		return fail_at(r, seq->start_mark, "'%s' must not be empty",
		    key->name);
	r->m->reducers = xcalloc((size_t)(top - start), sizeof *r->m->reducers);
	r->m->name = r->m->version = NULL;
	for (item = start; item < top && rc == 0; item++) {
		rc = read_reducer(r, node_at(r, *item),
		    &r->m->reducers[r->m->nreducers++]);
		for (i = 0; rc == 0 && i + 1 < r->m->nreducers; i++) {
			if (strcmp(r->m->reducers[i].name,
			    r->m->reducers[r->m->nreducers - 1].name) == 0)
				rc = fail_at(r, node_at(r, *item)->start_mark,
				    "duplicate reducer '%s'",
				    r->m->reducers[i].name);
		}
	}
	free(r->m->name);
	free(r->m->version);
	r->m->name = name;
	r->m->version = version;
	return rc;
}

static const struct manifest_key *
find_key(const yaml_node_t *node)
{
	size_t i;

	for (i = 0; i < nitems(manifest_keys); i++) {
		if (strcmp(manifest_keys[i].name, scalar_text(node)) == 0)
			return &manifest_keys[i];
	}
	return NULL;
}

/* Type-check and store one value. */
static int
read_value(struct reader *r, const struct manifest_key *key,
    yaml_node_t *value)
{
	if (check_type(r, key, value) == -1)
		return -1;
	return key->set(r, key, value);
}

/*
 * The format version is checked before anything else: a newer manifest
 * may well use keys this reader does not know, and "unsupported manifest
 * version" is the useful message then.
 */
static int
read_version_first(struct reader *r, yaml_node_t *root)
{
	yaml_node_pair_t *pair;
	yaml_node_t *key;

	for (pair = root->data.mapping.pairs.start;
	    pair < root->data.mapping.pairs.top; pair++) {
		key = node_at(r, pair->key);
		if (key->type == YAML_SCALAR_NODE &&
		    strcmp(scalar_text(key), manifest_keys[0].name) == 0)
			return read_value(r, &manifest_keys[0],
			    node_at(r, pair->value));
	}
	return 0;
}

static int
read_document(struct reader *r)
{
	yaml_node_t *root, *key, *value;
	yaml_node_pair_t *start, *top, *pair, *prev;
	const struct manifest_key *mk;
	bool seen[nitems(manifest_keys)] = { false };
	size_t i;

	root = yaml_document_get_root_node(r->doc);
	if (root == NULL || is_null(root))
		return error_set(r->err, "%s:1:1: empty manifest", r->path);
	if (root->type != YAML_MAPPING_NODE)
		return fail_at(r, root->start_mark,
		    "top level must be a mapping");
	if (read_version_first(r, root) == -1)
		return -1;

	start = root->data.mapping.pairs.start;
	top = root->data.mapping.pairs.top;
	for (pair = start; pair < top; pair++) {
		key = node_at(r, pair->key);
		value = node_at(r, pair->value);
		if (!is_string(key) || has_nul(key))
			return fail_at(r, key->start_mark,
			    "keys must be strings");
		for (prev = start; prev < pair; prev++) {
			if (scalar_equal(node_at(r, prev->key), key))
				return fail_at(r, key->start_mark,
				    "duplicate key '%s'", quoted(r, key));
		}
		if (strncmp(scalar_text(key), "x-", 2) == 0)
			continue;
		mk = find_key(key);
		if (mk == NULL)
			return fail_at(r, key->start_mark, "unknown key '%s'",
			    quoted(r, key));
		seen[mk - manifest_keys] = true;
		if (read_value(r, mk, value) == -1)
			return -1;
	}
	for (i = 0; i < nitems(manifest_keys); i++) {
		if (manifest_keys[i].required && !seen[i])
			return fail_at(r, root->start_mark,
			    "missing required key '%s'", manifest_keys[i].name);
	}
	if (r->m->kind == AITERM_KIND_REDUCER && r->m->reducers == NULL)
		return fail_at(r, root->start_mark, "missing required key "
		    "'reducers' (a reducer manifest lists its reducers)");
	if (r->m->kind != AITERM_KIND_REDUCER && r->m->reducers != NULL)
		return fail_at(r, root->start_mark,
		    "'reducers' is only for kind 'reducer'");
	return 0;
}

static const struct yamldoc_limits limits = {
	MANIFEST_MAX_SIZE, MANIFEST_MAX_DEPTH,
};

/* The manifest in doc, read from path. */
static int
read_loaded(const char *path, yaml_document_t *doc, struct manifest *m,
    struct aiterm_error *err)
{
	struct reader r = { path, doc, m, err, BUF_INIT };
	int rc = read_document(&r);

	buf_free(&r.quote);
	yaml_document_delete(doc);
	return rc;
}

int
manifest_load(const char *path, struct manifest *m, struct aiterm_error *err)
{
	yaml_document_t doc;
	int rc = -1;

	memset(m, 0, sizeof *m);
	m->path = xstrdup(path);
	if (yamldoc_load(path, &limits, &doc, err) == 0)
		rc = read_loaded(path, &doc, m, err);
	if (rc == -1)
		manifest_free(m);
	return rc;
}

int
manifest_load_data(const char *path, const char *data, size_t len,
    struct manifest *m, struct aiterm_error *err)
{
	yaml_document_t doc;
	int rc = -1;

	memset(m, 0, sizeof *m);
	m->path = xstrdup(path);
	if (yamldoc_load_data(path, data, len, &limits, &doc, err) == 0)
		rc = read_loaded(path, &doc, m, err);
	if (rc == -1)
		manifest_free(m);
	return rc;
}
