/*
 * aiterm-setup: see setup.h and `aiterm-setup --help`.
 *
 * Order: lock, what Aiterm needs (mux, state root, plugins), the terminal
 * test through MCP, then each client found (or named by --clients):
 * register and read back, or with --uninstall remove what an earlier
 * setup added (recorded in <state root>/setup/owned.json).  The report is
 * printed for people, or as one JSON object with --json; the exit status
 * is 1 when anything failed or no client was found.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "clients.h"
#include "hooks.h"
#include "inpane.h"
#include "prereq.h"
#include "report.h"
#include "selftest.h"
#include "setup.h"
#include "steer.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/names.h"
#include "util/xmalloc.h"

#ifndef AITERM_BINDIR
#define AITERM_BINDIR "/usr/local/bin"
#endif

static const char usage[] =
"usage: aiterm-setup [--json] [--dry-run] [--uninstall]\n"
"                    [--remove-claude-parent-hooks]\n"
"                    [--remove-cursor-parent-hooks]\n"
"                    [--codex-steer enable|disable|status]\n"
"                    [--clients LIST] [--plugins LIST] [--server PATH]\n"
"                    [--lock-wait SECONDS]\n"
"\n"
"Registers aiterm-mcp with every AI client installed here (Claude Code,\n"
"Codex, Grok, Cursor) and reads each registration back through the\n"
"client.  Before any config is touched it checks what Aiterm needs (tmux,\n"
"the state root, the plugins) and runs a terminal test through the\n"
"server's MCP interface.  Nothing is installed: what is missing is named\n"
"with how to get it.\n"
"\n"
"  --json          one JSON object: per client registered,\n"
"                  already_registered, skipped (why) or failed (code)\n"
"  --dry-run       show the edits (a diff, or the command) and write nothing\n"
"  --uninstall     remove exactly what an earlier aiterm-setup added\n"
"  --remove-claude-parent-hooks, --remove-cursor-parent-hooks\n"
"                  take only Aiterm's hooks out of the user's Claude Code\n"
"                  settings or Cursor hooks.json (before going back to a\n"
"                  version without them)\n"
"  --codex-steer enable|disable|status\n"
"                  Codex's Steer option (answers into the running turn);\n"
"                  unsupported on Linux, where answers reach Codex through\n"
"                  its thread queue\n"
"  --clients LIST  only these: claude-code,codex-cli,grok-cli,cursor\n"
"  --plugins LIST  the harness and reducer plugins the server loads\n"
"                  (registered as AITERM_PLUGINS; mux plugins always load)\n"
"  --server PATH   the aiterm-mcp to register (default: " AITERM_BINDIR
"/aiterm-mcp)\n"
"  --lock-wait S   wait this long for another aiterm-setup (default 10)\n"
"\n"
"Exit status: 0 all went well, 1 something failed or no client was found,\n"
"2 bad usage.\n";

static int
parse(int argc, char **argv, struct setup_opts *o)
{
	static const struct option longs[] = {
		{ "json", no_argument, NULL, 'j' },
		{ "dry-run", no_argument, NULL, 'n' },
		{ "uninstall", no_argument, NULL, 'u' },
		{ "remove-claude-parent-hooks", no_argument, NULL, 'R' },
		{ "remove-cursor-parent-hooks", no_argument, NULL, 'C' },
		{ "codex-steer", required_argument, NULL, 'S' },
		{ "clients", required_argument, NULL, 'c' },
		{ "plugins", required_argument, NULL, 'p' },
		{ "server", required_argument, NULL, 's' },
		{ "lock-wait", required_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	char *end;
	int ch;

	memset(o, 0, sizeof *o);
	o->lock_wait_s = 10;
	while ((ch = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (ch) {
		case 'j': o->json = true; break;
		case 'n': o->dry_run = true; break;
		case 'u': o->uninstall = true; break;
		case 'R': o->remove_hooks = HOOKS_CLAUDE + 1; break;
		case 'C': o->remove_hooks = HOOKS_CURSOR + 1; break;
		case 'S':
			if (strcmp(optarg, "enable") != 0 &&
			    strcmp(optarg, "disable") != 0 &&
			    strcmp(optarg, "status") != 0) {
				fprintf(stderr, "aiterm-setup: --codex-steer "
				    "wants enable, disable or status, not "
				    "'%s'\n", optarg);
				return 2;
			}
			o->codex_steer = optarg;
			break;
		case 'c': o->clients = optarg; break;
		case 'p': o->plugins = optarg; break;
		case 's': o->server = optarg; break;
		case 'w':
			errno = 0;
			o->lock_wait_s = (int)strtol(optarg, &end, 10);
			if (errno != 0 || *end != '\0' || o->lock_wait_s < 0 ||
			    o->lock_wait_s > 3600) {
				fprintf(stderr, "aiterm-setup: --lock-wait "
				    "wants 0..3600 seconds, not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h': fputs(usage, stdout); exit(0);
		case 'V': puts("aiterm-setup " PACKAGE_VERSION); exit(0);
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "aiterm-setup: unexpected argument '%s'\n%s",
		    argv[optind], usage);
		return 2;
	}
	return 0;
}

/* Whether id is in the comma list (NULL: every id). */
static bool
listed(const char *list, const char *id)
{
	return list == NULL || names_has(list, id);
}

/* Every name of --clients must be a client setup knows. */
static int
check_clients(const char *list)
{
	char *copy, *tok, *save = NULL;
	size_t i;
	int rc = 0;

	if (list == NULL)
		return 0;
	copy = xstrdup(list);
	for (tok = strtok_r(copy, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < clients_count(); i++) {
			if (strcmp(tok, client_id(client_at(i))) == 0)
				break;
		}
		if (i == clients_count()) {
			fprintf(stderr, "aiterm-setup: unknown client '%s' "
			    "(known: claude-code, codex-cli, grok-cli, "
			    "cursor)\n", tok);
			rc = 2;
		}
	}
	free(copy);
	return rc;
}

/* flock on <state root>/setup/lock, waiting up to the option's seconds. */
static int
take_lock(const struct setup_opts *o, struct report *rep)
{
	char *path = state_path("setup/lock");
	int fd, waited;

	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	free(path);
	if (fd < 0)
		return report_fatal(rep, "STATE_UNWRITABLE", "cannot create "
		    "the setup lock in %s: %s", state_root(), strerror(errno));
	for (waited = 0; flock(fd, LOCK_EX | LOCK_NB) != 0; waited++) {
		if (waited >= o->lock_wait_s * 10) {
			close(fd);
			return report_fatal(rep, "SETUP_BUSY", "another "
			    "aiterm-setup holds %s/setup/lock; gave up after "
			    "%d s (--lock-wait)", state_root(), o->lock_wait_s);
		}
		usleep(100000);
	}
	return fd;
}

static json_t *
owned_load(void)
{
	char *path = state_path("setup/owned.json");
	json_t *j = json_load_file(path, 0, NULL);

	free(path);
	return json_is_object(j) ? j : (json_decref(j), json_object());
}

static void
owned_save(json_t *owned, struct report *rep)
{
	struct aiterm_error err = ERROR_INIT;
	char *path = state_path("setup/owned.json");
	char *text = json_dumps(owned, JSON_INDENT(2) | JSON_SORT_KEYS);

	if (atomic_write(path, text, strlen(text), &err) != 0)
		report_fatal(rep, "STATE_UNWRITABLE", "could not record what "
		    "setup added: %s", error_msg(&err));
	error_clear(&err);
	free(text);
	free(path);
}

json_t *
setup_server_env(const struct setup_opts *o)
{
	json_t *env = json_object();

	if (o->plugins != NULL)
		json_object_set_new(env, "AITERM_PLUGINS",
		    json_string(o->plugins));
	return env;
}

static void
each_client(struct setup_ctx *x, struct report *rep)
{
	struct setup_outcome *o;
	const struct client *c;
	size_t i;

	for (i = 0; i < clients_count(); i++) {
		c = client_at(i);
		if (!listed(x->opts->clients, client_id(c)))
			continue;
		o = report_add(rep, client_id(c));
		if (!client_detect(c, o) || o->status == SETUP_FAILED)
			continue;
		if (x->opts->uninstall)
			client_unregister(c, x, o);
		else
			client_register(c, x, o);
	}
}

/*
 * --codex-steer: Linux with the Codex CLI, setup/steer.h.  Elsewhere the
 * Steer option is not built; the queue delivers on every platform (ADR
 * 0016).
 */
static int
codex_steer(const struct setup_opts *o, struct report *rep)
{
#ifdef __linux__
	return steer_run(o->codex_steer, rep);
#else
	const char *why = "Codex's Steer option is not built on this "
	    "platform; answers reach Codex through its thread queue";

	report_fact(rep, "codex_steer", json_string("unsupported"));
	if (strcmp(o->codex_steer, "enable") == 0)
		report_fatal(rep, "CODEX_STEER_UNSUPPORTED", "%s", why);
	else
		report_fact(rep, "codex_steer_note", json_string(why));
	return 0;
#endif
}

/* --remove-claude/cursor-parent-hooks: that and nothing else. */
static void
remove_hooks(struct setup_ctx *x, struct report *rep)
{
	enum hookset set = (enum hookset)(x->opts->remove_hooks - 1);
	const char *client = set == HOOKS_CLAUDE ? "claude-code" : "cursor";
	struct setup_outcome *o = report_add(rep, client);
	bool removed;

	if (hooks_remove(set, x->opts->dry_run, o, &removed) == 0) {
		o->status = !removed ? SETUP_NOT_OURS : x->opts->dry_run ?
		    SETUP_PLANNED : SETUP_REMOVED;
		setup_note(o, "%s", removed ? "Aiterm's parent hooks removed; "
		    "every other hook kept" : "no Aiterm parent hooks there");
		if (removed && !x->opts->dry_run)
			json_object_del(json_object_get(x->owned, client),
			    "hooks");
	}
	if (!x->opts->dry_run)
		owned_save(x->owned, rep);
}

/*
 * CTL-CLI: installing hooks into another product's config is a person's
 * decision (seed 004).  From a terminal Aiterm started, where an agent may
 * be the one typing, nothing that writes another product's config runs,
 * and there is no flag to say yes (ADR 0022).  The terminal is known by
 * AITERM_SESSION_ID and by what it cannot unset (setup/inpane.h).
 * --dry-run and the Codex Steer status write nothing and still run
 * (enable and disable write Codex's hooks.json and config.toml).
 */
static bool
refused_in_pane(const struct setup_opts *o, struct report *rep)
{
	char *why;

	if (o->dry_run || (o->codex_steer != NULL &&
	    strcmp(o->codex_steer, "status") == 0) || !inpane_detect(&why))
		return false;
	report_fatal(rep, "REFUSED_IN_AITERM_PANE", "this terminal is one "
	    "Aiterm opened (%s), where an agent may be the one typing: "
	    "installing or removing hooks in another product's config is a "
	    "person's decision, so aiterm-setup changes nothing from here, "
	    "and no option or variable overrides this. Run aiterm-setup "
	    "yourself in a terminal Aiterm did not open (--dry-run shows here "
	    "what it would change)", why);
	free(why);
	return true;
}

int
main(int argc, char **argv)
{
	struct aiterm_error err = ERROR_INIT;
	struct setup_opts opts;
	struct setup_ctx x;
	struct report rep;
	char *server = NULL, *why = NULL, *dir = NULL;
	json_t *facts = NULL;
	int rc, lock = -1, steer = 0;

	if ((rc = parse(argc, argv, &opts)) != 0 ||
	    (rc = check_clients(opts.clients)) != 0)
		return rc;
	report_init(&rep, &opts);
	if (refused_in_pane(&opts, &rep))
		goto done;
	server = prereq_server(opts.server, &rep);
	opts.server = server;
	if (server == NULL)
		goto done;
	if (state_root_init(NULL, &err) != 0 ||
	    state_root_require(&err) != 0) {
		report_fatal(&rep, "STATE_UNWRITABLE", "%s", error_msg(&err));
		goto done;
	}
	dir = state_path("setup");
	if (state_mkdir(dir, &err) != 0) {
		report_fatal(&rep, "STATE_UNWRITABLE", "%s", error_msg(&err));
		goto done;
	}
	if ((lock = take_lock(&opts, &rep)) < 0)
		goto done;
	memset(&x, 0, sizeof x);
	x.opts = &opts;
	x.env = setup_server_env(&opts);
	x.owned = owned_load();
	if (opts.codex_steer != NULL) {
		steer = codex_steer(&opts, &rep);
		goto clients_done;
	}
	if (opts.remove_hooks) {
		remove_hooks(&x, &rep);
		goto clients_done;
	}
	if (prereq_mux(&rep) != 0 || prereq_plugins(&opts, &rep) != 0)
		goto clients_done;
	if (!opts.uninstall) {
		if (selftest_run(server, x.env, &facts, &why) != 0) {
			report_fatal(&rep, "TERMINAL_TEST_FAILED", "%s; no "
			    "client config was touched", why != NULL ? why :
			    "the terminal test failed");
			report_fact(&rep, "terminal_test", facts);
			goto clients_done;
		}
		report_fact(&rep, "terminal_test", facts);
	}
	each_client(&x, &rep);
	if (!opts.dry_run)
		owned_save(x.owned, &rep);
clients_done:
	json_decref(x.env);
	json_decref(x.owned);
done:
	rc = report_print(&rep);
	if (rc == 0 && steer == STEER_EXIT_RESTART)
		rc = STEER_EXIT_RESTART;
	report_free(&rep);
	if (lock >= 0)
		close(lock);
	error_clear(&err);
	free(why);
	free(dir);
	free(server);
	return rc;
}
