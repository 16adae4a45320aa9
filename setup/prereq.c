#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clients.h"
#include "prereq.h"
#include "run.h"
#include "util/path.h"
#include "util/xmalloc.h"

#ifndef AITERM_BINDIR
#define AITERM_BINDIR "/usr/local/bin"
#endif

/* tmux 3.0 is the oldest the mux-tmux plugin is tested on. */
#define TMUX_MIN_MAJOR	3

char *
prereq_server(const char *given, struct report *rep)
{
	char *path, *abs;

	path = xstrdup(given != NULL ? given : AITERM_BINDIR "/aiterm-mcp");
	if (strchr(path, '/') == NULL) {
		abs = path_search(path);
		free(path);
		path = abs;
	}
	if (path == NULL || !path_is_executable(path)) {
		report_fatal(rep, "SERVER_MISSING", "no aiterm-mcp at %s: build "
		    "and install Aiterm first (make install), or name it "
		    "with --server", given != NULL ? given : AITERM_BINDIR
		    "/aiterm-mcp");
		free(path);
		return NULL;
	}
	abs = realpath(path, NULL);
	free(path);
	report_fact(rep, "server", json_string(abs));
	return abs;
}

int
prereq_mux(struct report *rep)
{
	char *argv[] = { "tmux", "-V", NULL }, *v;
	struct run_result r;
	int rc = -1, major = 0;

	if (run_cmd(argv, 10000, &r) != 0 || r.status != 0) {
		run_result_free(&r);
		return report_fatal(rep, "MUX_MISSING", "tmux is not installed: "
		    "Aiterm keeps its sessions in tmux (Debian/Ubuntu: apt-get "
		    "install tmux; macOS: brew install tmux)");
	}
	v = run_first_line(r.out.data, 40);
	sscanf(v, "tmux %d", &major);
	if (major < TMUX_MIN_MAJOR && strncmp(v, "tmux next", 9) != 0)
		report_fatal(rep, "MUX_TOO_OLD", "%s is older than tmux %d.0",
		    v, TMUX_MIN_MAJOR);
	else {
		report_fact(rep, "mux", json_string(v));
		rc = 0;
	}
	free(v);
	run_result_free(&r);
	return rc;
}

/* The client whose CLI a harness drives, or NULL. */
static const struct client *
client_of(const char *harness)
{
	size_t i;

	for (i = 0; i < clients_count(); i++) {
		if (strcmp(client_harness(client_at(i)), harness) == 0)
			return client_at(i);
	}
	return NULL;
}

/* One plugin of --list-plugins, as the report shows it. */
static json_t *
plugin_fact(json_t *p)
{
	json_t *f = json_pack("{s:O, s:O, s:O}", "name",
	    json_object_get(p, "name"), "kind", json_object_get(p, "kind"),
	    "loaded", json_object_get(p, "loaded")), *prov;
	const struct client *c;
	struct setup_outcome probe;
	size_t i;

	if (json_object_get(p, "error") != NULL)
		json_object_set(f, "why", json_object_get(p, "error"));
	json_array_foreach(json_object_get(p, "provides"), i, prov) {
		if ((c = client_of(json_string_value(prov))) == NULL)
			continue;
		memset(&probe, 0, sizeof probe);
		/* A harness whose CLI is not here is reported, not an error. */
		json_object_set_new(f, "cli", json_string(client_detect(c,
		    &probe) && probe.binary != NULL ? "installed" :
		    "not installed"));
		setup_outcome_free(&probe);
	}
	return f;
}

/* Every name of --plugins must be an installed plugin. */
static int
check_named(const struct setup_opts *o, json_t *plugins,
    struct report *rep)
{
	char *copy, *tok, *save = NULL;
	json_t *p;
	size_t i;
	int rc = 0;

	if (o->plugins == NULL)
		return 0;
	copy = xstrdup(o->plugins);
	for (tok = strtok_r(copy, ",", &save); tok != NULL && rc == 0;
	    tok = strtok_r(NULL, ",", &save)) {
		json_array_foreach(plugins, i, p) {
			if (json_string_value(json_object_get(p, "name")) &&
			    strcmp(json_string_value(json_object_get(p,
			    "name")), tok) == 0)
				break;
		}
		if (i == json_array_size(plugins))
			rc = report_fatal(rep, "PLUGIN_NOT_FOUND", "--plugins "
			    "names '%s', which is not installed (aiterm-mcp "
			    "--list-plugins lists what is)", tok);
	}
	free(copy);
	return rc;
}

int
prereq_plugins(const struct setup_opts *o, struct report *rep)
{
	char *argv[] = { (char *)o->server, "--list-plugins", NULL };
	struct run_result r;
	json_t *j = NULL, *list, *p, *facts;
	size_t i, muxes = 0;
	int rc = -1;

	if (run_cmd(argv, 20000, &r) != 0 || r.status != 0 ||
	    (j = json_loads(r.out.data, 0, NULL)) == NULL) {
		report_fatal(rep, "SERVER_BROKEN", "%s --list-plugins failed "
		    "(status %d)", o->server, r.status);
		goto out;
	}
	list = json_object_get(j, "plugins");
	facts = json_array();
	json_array_foreach(list, i, p) {
		json_array_append_new(facts, plugin_fact(p));
		muxes += json_is_true(json_object_get(p, "loaded")) &&
		    strcmp(json_string_value(json_object_get(p, "kind")) ?
		    json_string_value(json_object_get(p, "kind")) : "",
		    "mux") == 0 ? 1 : 0;
	}
	report_fact(rep, "plugins", facts);
	if (muxes == 0)
		report_fatal(rep, "MUX_PLUGIN_MISSING", "no multiplexer plugin "
		    "loads (aiterm-mcp --list-plugins says why); reinstall "
		    "Aiterm's plugins");
	else
		rc = check_named(o, list, rep);
out:
	json_decref(j);
	run_result_free(&r);
	return rc;
}
