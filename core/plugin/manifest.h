/*
 * Plugin manifests: "<name>.yaml" beside each module, read strictly with
 * libyaml before any code is loaded.  Unknown keys (other than "x-..."),
 * missing required fields, wrong types and bad YAML are errors naming the
 * file, line and column.
 */
#ifndef AITERM_MANIFEST_H
#define AITERM_MANIFEST_H

#include <stddef.h>

#include "aiterm/plugin.h"
#include "util/error.h"

/* One entry of a reducer manifest's "reducers:" list. */
struct manifest_reducer {
	char	*name;
	char	*version;
	char	**commands;	/* NULL-terminated command patterns */
};

struct manifest {
	char			*path;		/* the file it was read from */
	int			 manifest;	/* format version, must be 1 */
	char			*name;
	enum aiterm_plugin_kind	 kind;
	char			*module;	/* lt_dlopenext name, no suffix */
	unsigned		 abi_major;
	unsigned		 abi_minor;
	char			*version;
	char			*summary;	/* optional, NULL when absent */
	char			**platforms;	/* optional, NULL-terminated */
	char			**provides;	/* optional, NULL-terminated */
	struct manifest_reducer	*reducers;	/* kind reducer: required */
	size_t			 nreducers;
};

int		 manifest_load(const char *path, struct manifest *m,
		    struct aiterm_error *err);
/*
 * The same for a manifest already in memory (data[0..len), which need not
 * end in NUL), as if it had been read from path, which names it in
 * messages and in m->path.
 */
int		 manifest_load_data(const char *path, const char *data,
		    size_t len, struct manifest *m, struct aiterm_error *err);
void		 manifest_free(struct manifest *m);
/* Free a reducers list as manifest_load made it (n entries). */
void		 manifest_reducers_free(struct manifest_reducer *reducers,
		    size_t n);

/* "mux", "harness", "reducer", "receiver"; NULL for an unknown kind. */
const char	*plugin_kind_name(enum aiterm_plugin_kind kind);
/* 0 and *kind set, or -1 for an unknown name. */
int		 plugin_kind_parse(const char *name, enum aiterm_plugin_kind *kind);

#endif
