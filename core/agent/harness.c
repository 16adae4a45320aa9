#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "agent/harness.h"
#include "plugin/registry.h"
#include "util/buf.h"

/* Calls f for every (id, entry) of the loaded harness plugins until it returns 1. */
static int
each_harness(int (*f)(const char *id, const struct plugin_entry *e,
    void *arg), void *arg)
{
	const struct plugin_entry *e;
	size_t i, k;

	for (i = 0; i < registry_count(); i++) {
		e = registry_entry(i);
		if (!e->loaded || e->kind != AITERM_KIND_HARNESS ||
		    e->provides == NULL)
			continue;
		for (k = 0; e->provides[k] != NULL; k++) {
			if (f(e->provides[k], e, arg) == 1)
				return 1;
		}
	}
	return 0;
}

static void
fill(struct harness *h, const char *id, const struct plugin_entry *e)
{
	h->id = id;
	h->plugin = e->name;
	h->plugin_version = e->version;
	h->ops = e->plugin->ops;
	h->abi_minor = e->plugin->abi_minor;
}

struct by_id {
	const char	*id;
	struct harness	*h;
};

static int
match_id(const char *id, const struct plugin_entry *e, void *arg)
{
	struct by_id *b = arg;

	if (strcmp(id, b->id) != 0)
		return 0;
	fill(b->h, id, e);
	return 1;
}

int
harness_find(const char *id, struct harness *h, struct aiterm_error *err)
{
	struct by_id b = { id, h };
	char *ids;

	if (each_harness(match_id, &b) == 1)
		return 0;
	ids = harness_ids();
	error_set(err, "no harness '%s' is installed (installed: %s)", id,
	    ids);
	free(ids);
	return -1;
}

struct by_program {
	const char	*name;
	struct harness	*h;
};

static int
match_program(const char *id, const struct plugin_entry *e, void *arg)
{
	const struct aiterm_harness_ops *ops = e->plugin->ops;
	struct by_program *b = arg;
	size_t i;

	for (i = 0; ops->body_names != NULL && ops->body_names[i] != NULL;
	    i++) {
		if (strcmp(ops->body_names[i], b->name) == 0) {
			fill(b->h, id, e);
			return 1;
		}
	}
	return 0;
}

int
harness_for_program(const char *name, struct harness *h)
{
	struct by_program b = { name, h };

	return each_harness(match_program, &b) == 1 ? 0 : -1;
}

struct each_public {
	int	(*f)(const struct harness *h, void *arg);
	void	*arg;
};

static int
each_public(const char *id, const struct plugin_entry *e, void *arg)
{
	struct each_public *ep = arg;
	struct harness h;

	fill(&h, id, e);
	return ep->f(&h, ep->arg);
}

int
harness_each(int (*f)(const struct harness *h, void *arg), void *arg)
{
	struct each_public ep = { f, arg };

	return each_harness(each_public, &ep);
}

static int
add_id(const char *id, const struct plugin_entry *e, void *arg)
{
	struct aiterm_buf *b = arg;

	(void)e;
	if (b->len > 0)
		buf_adds(b, ", ");
	buf_adds(b, id);
	return 0;
}

char *
harness_ids(void)
{
	struct aiterm_buf b = BUF_INIT;

	each_harness(add_id, &b);
	if (b.len == 0)
		buf_adds(&b, "none");
	return buf_steal(&b, NULL);
}

int
harness_version_cmp(const char *a, const char *b)
{
	unsigned long x, y;
	char *end;

	while (*a != '\0' || *b != '\0') {
		x = strtoul(a, &end, 10);
		a = end;
		y = strtoul(b, &end, 10);
		b = end;
		if (x != y)
			return x < y ? -1 : 1;
		while (*a != '\0' && *a != '.')
			a++;
		while (*b != '\0' && *b != '.')
			b++;
		if (*a == '.')
			a++;
		if (*b == '.')
			b++;
	}
	return 0;
}

void
harness_code_prefix(const struct harness *h, char *out, size_t size)
{
	size_t i;

	for (i = 0; i + 1 < size && h->id[i] != '\0' && h->id[i] != '-'; i++)
		out[i] = (char)toupper((unsigned char)h->id[i]);
	out[i] = '\0';
}

void
harness_end_code(const struct harness *h, const char *reason, char *out,
    size_t size)
{
	size_t i, n;

	out[0] = '\0';
	if (reason == NULL || *reason == '\0' ||
	    strcmp(reason, "pane_exited") == 0 ||
	    strcmp(reason, "session_lost") == 0)
		return;
	harness_code_prefix(h, out, size);
	n = strlen(out);
	for (i = 0; reason[i] != '\0' && n + 2 < size; i++) {
		if (i == 0)
			out[n++] = '_';
		out[n++] = (char)toupper((unsigned char)reason[i]);
	}
	out[n] = '\0';
}
