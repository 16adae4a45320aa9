#include <dirent.h>
#include <errno.h>
#include <ltdl.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/host.h"
#include "plugin/loader.h"
#include "plugin/manifest.h"
#include "plugin/registry.h"
#include "util/names.h"
#include "util/xmalloc.h"

static struct plugin_entry *entries;
static size_t nentries;
static bool ltdl_ready;

static struct plugin_entry *
entry_new(const char *path)
{
	struct plugin_entry *e;

	entries = xrealloc(entries, (nentries + 1) * sizeof *entries);
	e = &entries[nentries++];
	memset(e, 0, sizeof *e);
	e->manifest_path = xstrdup(path);
	return e;
}

static char **
strv_dup(char **v)
{
	char **copy;
	size_t n = 0, i;

	if (v == NULL)
		return NULL;
	while (v[n] != NULL)
		n++;
	copy = xcalloc(n + 1, sizeof *copy);
	for (i = 0; i < n; i++)
		copy[i] = xstrdup(v[i]);
	return copy;
}

static const struct plugin_entry *
find_loaded_name(const char *name)
{
	size_t i;

	for (i = 0; i < nentries; i++) {
		if (entries[i].name != NULL && entries[i].loaded &&
		    strcmp(entries[i].name, name) == 0)
			return &entries[i];
	}
	return NULL;
}

/*
 * AITERM_PLUGINS (comma-separated names, what aiterm-setup --plugins
 * registers) narrows the harness and reducer plugins loaded; a mux is
 * always loaded, the server needs one.
 */
static bool
chosen(const char *name, enum aiterm_plugin_kind kind)
{
	const char *list = getenv("AITERM_PLUGINS");

	return list == NULL || *list == '\0' || kind == AITERM_KIND_MUX ||
	    names_has(list, name);
}

static void
load_manifest(const char *path)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;
	const struct plugin_entry *first;
	struct plugin_entry *e = entry_new(path);

	memset(&m, 0, sizeof m);
	if (manifest_load(path, &m, &err) != 0) {
		e->error = xstrdup(error_msg(&err));
		goto out;
	}
	e->name = xstrdup(m.name);
	e->kind = m.kind;
	e->version = xstrdup(m.version);
	e->provides = strv_dup(m.provides);
	first = find_loaded_name(m.name);
	if (first != NULL) {
		e->error = xasprintf("shadowed by %s, found earlier on the "
		    "search path", first->manifest_path);
		goto out;
	}
	if (!chosen(m.name, m.kind)) {
		e->error = xstrdup("not chosen: AITERM_PLUGINS does not name "
		    "it");
		goto out;
	}
	e->plugin = loader_load(&m, &err);
	if (e->plugin == NULL) {
		e->error = xstrdup(error_msg(&err));
		goto out;
	}
	e->loaded = true;
	/* The entry takes the manifest's reducers. */
	e->reducers = m.reducers;
	e->nreducers = m.nreducers;
	m.reducers = NULL;
	m.nreducers = 0;
out:
	if (e->error != NULL)
		host_get()->log(AITERM_LOG_INFO, "loader", "%s: %s", path,
		    e->error);
	manifest_free(&m);
	error_clear(&err);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
is_manifest_name(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 5 && strcmp(name + n - 5, ".yaml") == 0;
}

static void
scan_dir(const char *dir)
{
	struct dirent *de;
	char **names = NULL, *path;
	size_t n = 0, i;
	DIR *d;

	d = opendir(dir);
	if (d == NULL) {
		if (errno != ENOENT)
			host_get()->log(AITERM_LOG_WARNING, "loader",
			    "cannot read plugin directory %s: %s", dir,
			    strerror(errno));
		return;
	}
	while ((de = readdir(d)) != NULL) {
		if (!is_manifest_name(de->d_name))
			continue;
		names = xrealloc(names, (n + 1) * sizeof *names);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n > 1)
		qsort(names, n, sizeof *names, name_cmp);
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, names[i]);
		load_manifest(path);
		free(path);
		free(names[i]);
	}
	free(names);
}

void
registry_load(const char *path_list, const char *system_dir)
{
	char *copy, *dir, *save = NULL;

	if (!ltdl_ready) {
		lt_dlinit();
		ltdl_ready = true;
	}
	if (path_list != NULL) {
		copy = xstrdup(path_list);
		for (dir = strtok_r(copy, ":", &save); dir != NULL;
		    dir = strtok_r(NULL, ":", &save))
			scan_dir(dir);
		free(copy);
	}
	if (system_dir != NULL && *system_dir != '\0')
		scan_dir(system_dir);
}

void
registry_load_default(void)
{
	const char *sys = getenv("AITERM_SYSTEM_PLUGINDIR");

	registry_load(getenv("AITERM_PLUGIN_PATH"),
	    sys != NULL ? sys : AITERM_PLUGINDIR);
}

size_t
registry_count(void)
{
	return nentries;
}

const struct plugin_entry *
registry_entry(size_t i)
{
	return i < nentries ? &entries[i] : NULL;
}

const struct aiterm_plugin *
registry_find(enum aiterm_plugin_kind kind, const char *name)
{
	size_t i;

	for (i = 0; i < nentries; i++) {
		if (!entries[i].loaded || entries[i].kind != kind)
			continue;
		if (name == NULL || strcmp(entries[i].name, name) == 0)
			return entries[i].plugin;
	}
	return NULL;
}

/* [{name, version, commands}] of a reducer plugin's manifest. */
static json_t *
reducers_json(const struct plugin_entry *e)
{
	json_t *list = json_array(), *cmds;
	size_t i;
	char **p;

	for (i = 0; i < e->nreducers; i++) {
		cmds = json_array();
		for (p = e->reducers[i].commands; *p != NULL; p++)
			json_array_append_new(cmds, json_string(*p));
		json_array_append_new(list, json_pack("{s:s, s:s, s:o}",
		    "name", e->reducers[i].name, "version",
		    e->reducers[i].version, "commands", cmds));
	}
	return list;
}

json_t *
registry_to_json(void)
{
	const struct plugin_entry *e;
	json_t *list = json_array(), *o, *prov;
	const char *kind;
	size_t i;
	char **p;

	for (i = 0; i < nentries; i++) {
		e = &entries[i];
		kind = plugin_kind_name(e->kind);
		o = json_pack("{s:s, s:s*, s:s*, s:s*, s:b}",
		    "manifest", e->manifest_path, "name", e->name,
		    "kind", kind, "version", e->version, "loaded", e->loaded);
		prov = json_array();
		for (p = e->provides; p != NULL && *p != NULL; p++)
			json_array_append_new(prov, json_string(*p));
		json_object_set_new(o, "provides", prov);
		if (e->nreducers > 0)
			json_object_set_new(o, "reducers", reducers_json(e));
		if (e->error != NULL)
			json_object_set_new(o, "error", json_string(e->error));
		json_array_append_new(list, o);
	}
	return list;
}

void
registry_reset(void)
{
	size_t i;
	char **p;

	for (i = 0; i < nentries; i++) {
		free(entries[i].manifest_path);
		free(entries[i].name);
		free(entries[i].version);
		free(entries[i].error);
		for (p = entries[i].provides; p != NULL && *p != NULL; p++)
			free(*p);
		free(entries[i].provides);
		manifest_reducers_free(entries[i].reducers,
		    entries[i].nreducers);
	}
	free(entries);
	entries = NULL;
	nentries = 0;
}
