#include <stdlib.h>
#include <string.h>

#include "deliver/receiver.h"
#include "plugin/registry.h"

/* The i-th loaded receiver's ops, NULL past the end or for another kind. */
static const struct aiterm_receiver_ops *
receiver_at(size_t i)
{
	const struct plugin_entry *e = registry_entry(i);

	if (e == NULL || !e->loaded || e->kind != AITERM_KIND_RECEIVER)
		return NULL;
	return e->plugin->ops;
}

const struct aiterm_receiver_ops *
receiver_of_origin(const struct call_origin *o, struct aiterm_parent *p)
{
	const struct aiterm_receiver_ops *r;
	const char *name = o->client;
	json_t *meta = o->meta;
	char *text = meta != NULL ? json_dumps(meta, JSON_COMPACT) :
	    strdup("{}");
	size_t i, n = registry_count();

	for (i = 0; i < n; i++) {
		memset(p, 0, sizeof *p);
		if ((r = receiver_at(i)) != NULL && text != NULL &&
		    r->detect(name, text, p)) {
			free(text);
			return r;
		}
	}
	memset(p, 0, sizeof *p);
	free(text);
	return NULL;
}

const struct aiterm_receiver_ops *
receiver_of_kind(const char *kind)
{
	const struct aiterm_receiver_ops *r;
	size_t i, n = registry_count();

	for (i = 0; i < n; i++) {
		if ((r = receiver_at(i)) != NULL && strcmp(r->kind, kind) == 0)
			return r;
	}
	return NULL;
}
