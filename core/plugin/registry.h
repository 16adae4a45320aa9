/*
 * The plugin registry: every manifest found on the search path, whether
 * its module loaded, and if not, exactly why.  A broken plugin is recorded
 * and skipped; it never stops the others.
 */
#ifndef AITERM_REGISTRY_H
#define AITERM_REGISTRY_H

#include <jansson.h>
#include <stdbool.h>

#include "aiterm/plugin.h"
#include "plugin/manifest.h"

struct plugin_entry {
	char				*manifest_path;
	char				*name;		/* NULL when the manifest is unreadable */
	enum aiterm_plugin_kind		 kind;		/* 0 when unknown */
	char				*version;
	char				**provides;	/* NULL-terminated, may be NULL */
	bool				 loaded;
	char				*error;		/* why it did not load */
	const struct aiterm_plugin	*plugin;	/* set when loaded */
	/* Kind reducer: the manifest's reducers (claims), when loaded. */
	struct manifest_reducer		*reducers;
	size_t				 nreducers;
};

/*
 * Scan path_list (colon-separated directories, may be NULL), then
 * system_dir (may be NULL or empty), for "*.yaml" manifests in name order
 * and load each one.  Safe to call once per process.
 */
void	registry_load(const char *path_list, const char *system_dir);
/* The search path in effect: $AITERM_PLUGIN_PATH, then the system dir. */
void	registry_load_default(void);
size_t	registry_count(void);
const struct plugin_entry *registry_entry(size_t i);
/* The first loaded plugin of kind (with name, when name is not NULL). */
const struct aiterm_plugin *registry_find(enum aiterm_plugin_kind kind,
	    const char *name);
/* [{manifest, name, kind, version, loaded, error}, ...] */
json_t	*registry_to_json(void);
/* Forget everything (tests); modules stay mapped. */
void	registry_reset(void);

#endif
