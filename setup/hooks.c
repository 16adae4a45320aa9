#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "hooks.h"
#include "jconf.h"
#include "state/stateroot.h"
#include "util/path.h"
#include "util/xmalloc.h"

#define CLAUDE_MATCHER	"mcp__aiterm__(agent_launch|pty_send)"
#define HOOK_TIMEOUT_S	86400	/* seed 000: the receiver waits 24 h */
#define KEPT	"\001aiterm-kept"	/* an entry whose place is kept */

/* One hook of a set: the event, aiterm-hook's verb, how it is written. */
struct hook {
	const char	*event;
	const char	*verb;
	bool		 matcher;	/* Claude: a matcher on our tools */
	bool		 rewake;	/* Claude: asyncRewake, 24 h */
	int		 timeout;	/* seconds when not 0 (Codex) */
};

static const struct hook claude_hooks[] = {
	{ "PreToolUse", "claude-pre", true, false, 0 },
	{ "PostToolUse", "claude-post", true, true, 0 },
	{ "SessionEnd", "claude-end", false, false, 0 },
	{ NULL, NULL, false, false, 0 },
};
static const struct hook cursor_hooks[] = {
	{ "afterMCPExecution", "cursor-after", false, false, 0 },
	{ "postToolUse", "cursor-post", false, false, 0 },
	{ NULL, NULL, false, false, 0 },
};
/*
 * Codex (Steer, DLV-CODEX): synchronous, every tool; the hook reads the
 * queue through `codex app-server`, which takes a few seconds to start.
 */
static const struct hook codex_hooks[] = {
	{ "PostToolUse", "codex-post", false, false, CODEX_HOOK_TIMEOUT_S },
	{ "Stop", "codex-stop", false, false, CODEX_HOOK_TIMEOUT_S },
	{ NULL, NULL, false, false, 0 },
};

static char	*file_path(enum hookset);
static json_t	*entry(enum hookset, const struct hook *, const char *);

static const struct {
	const struct hook	*hooks;
	const char		*env_dir;	/* overrides the folder */
	const char		*home_rel;	/* else under HOME */
	const char		*file;
	bool			 grouped;	/* Claude's {matcher, hooks:[...]} */
	const char		*minimum;	/* client version, or NULL */
	const char		*verb_prefix;	/* what makes a command ours */
	bool			 argv;		/* "command" + "args": no shell */
	bool			 in_place;	/* a reinstall keeps our place */
} sets[] = {
	[HOOKS_CLAUDE] = { claude_hooks, "CLAUDE_CONFIG_DIR", ".claude",
	    "settings.json", true, CLAUDE_HOOKS_MIN, "claude-", true, false },
	[HOOKS_CURSOR] = { cursor_hooks, NULL, ".cursor", "hooks.json", false,
	    NULL, "cursor-", false, false },
	/*
	 * Codex's approvals are keyed by place (hooks.json:stop:G:H): ours
	 * are appended, and a reinstall keeps them where they are.
	 */
	[HOOKS_CODEX] = { codex_hooks, "CODEX_HOME", ".codex", "hooks.json",
	    true, NULL, "codex-", false, true },
};

char *
hooks_file(enum hookset s)
{
	return file_path(s);
}

static char *
file_path(enum hookset s)
{
	const char *dir = sets[s].env_dir != NULL ? getenv(sets[s].env_dir) :
	    NULL, *home = getenv("HOME");

	return dir != NULL && *dir != '\0' ? xasprintf("%s/%s", dir,
	    sets[s].file) : xasprintf("%s/%s/%s", home ? home : "",
	    sets[s].home_rel, sets[s].file);
}

/* The folder of path, 0700, when it is not there. */
static void
ensure_dir(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	if (slash == NULL || slash == path)
		return;
	dir = xstrndup(path, (size_t)(slash - path));
	(void)mkdir(dir, 0700);
	free(dir);
}

/* "a.b.c" against "x.y.z", numerically. */
static int
version_cmp(const char *a, const char *b)
{
	long x, y;
	char *ea, *eb;

	for (;;) {
		x = strtol(a, &ea, 10);
		y = strtol(b, &eb, 10);
		if (x != y)
			return x < y ? -1 : 1;
		if (*ea != '.' || *eb != '.')
			return 0;
		a = ea + 1;
		b = eb + 1;
	}
}

/*
 * Ours: the command runs aiterm-hook with one of the set's verbs, as its
 * first argument (the argv form) or a word after it (a shell command,
 * what Aiterm wrote before, or Cursor's).
 */
static bool
command_ours(enum hookset s, json_t *entry)
{
	const char *cmd = json_string_value(json_object_get(entry, "command"));
	const char *at = cmd != NULL ? strstr(cmd, "aiterm-hook") : NULL;
	const char *verb = json_string_value(json_array_get(
	    json_object_get(entry, "args"), 0)), *p;
	size_t n = strlen(sets[s].verb_prefix);

	if (at == NULL)
		return false;
	if (verb != NULL)
		return strncmp(verb, sets[s].verb_prefix, n) == 0;
	for (p = at; (p = strstr(p, sets[s].verb_prefix)) != NULL; p += n) {
		if (p[-1] == ' ')
			return true;
	}
	return false;
}

/* An entry of an event's list: Claude's group holds the commands. */
static bool
entry_ours(enum hookset s, json_t *entry)
{
	json_t *h;
	size_t i;

	if (!sets[s].grouped)
		return command_ours(s, entry);
	json_array_foreach(json_object_get(entry, "hooks"), i, h) {
		if (command_ours(s, h))
			return true;
	}
	return false;
}

/* Take our entries out of root's hooks; true when there were any. */
static bool
strip(enum hookset s, json_t *root)
{
	json_t *hooks = json_object_get(root, "hooks"), *list;
	const struct hook *k;
	bool any = false;
	size_t i;

	for (k = sets[s].hooks; k->event != NULL; k++) {
		list = json_object_get(hooks, k->event);
		for (i = json_array_size(list); i-- > 0;) {
			if (entry_ours(s, json_array_get(list, i)) &&
			    json_object_get(json_array_get(list, i), KEPT) ==
			    NULL) {
				json_array_remove(list, i);
				any = true;
			}
		}
		if (list != NULL && json_array_size(list) == 0)
			json_object_del(hooks, k->event);
	}
	if (hooks != NULL && json_object_size(hooks) == 0)
		json_object_del(root, "hooks");
	return any;
}

/*
 * A place kept: the first entry of ours in each event's list becomes the
 * entry as it should be, marked so that strip keeps it (unmark takes the
 * marks away).
 */

static void
place_ours(enum hookset s, json_t *root, const char *program)
{
	json_t *list, *e;
	const struct hook *k;
	size_t i;

	for (k = sets[s].hooks; k->event != NULL; k++) {
		list = json_object_get(json_object_get(root, "hooks"),
		    k->event);
		for (i = 0; i < json_array_size(list); i++) {
			if (!entry_ours(s, json_array_get(list, i)))
				continue;
			e = entry(s, k, program);
			json_object_set_new(e, KEPT, json_true());
			json_array_set_new(list, i, e);
			break;
		}
	}
}

static bool
placed(json_t *list)
{
	json_t *e;
	size_t i;

	json_array_foreach(list, i, e) {
		if (json_object_get(e, KEPT) != NULL)
			return true;
	}
	return false;
}

static void
unmark(json_t *hooks)
{
	const char *ev;
	json_t *list, *e;
	size_t i;

	json_object_foreach(hooks, ev, list) {
		json_array_foreach(list, i, e)
			json_object_del(e, KEPT);
	}
}

/*
 * One hook's command.  The argv form (Claude Code): the program and its
 * arguments, spawned without a shell.  Else a shell command line.
 */
static json_t *
command(enum hookset s, const struct hook *k, const char *program)
{
	json_t *h;
	char *cmd;

	if (sets[s].argv)
		return json_pack("{s:s, s:[s, s, s]}", "command", program,
		    "args", k->verb, "--state-dir", state_root());
	cmd = xasprintf("'%s' %s --state-dir '%s'", program, k->verb,
	    state_root());
	h = json_pack("{s:s}", "command", cmd);
	free(cmd);
	return h;
}

static json_t *
entry(enum hookset s, const struct hook *k, const char *program)
{
	json_t *h = command(s, k, program), *g;

	if (!sets[s].grouped)
		return h;
	json_object_set_new(h, "type", json_string("command"));
	if (k->rewake) {
		json_object_set_new(h, "asyncRewake", json_true());
		json_object_set_new(h, "timeout", json_integer(HOOK_TIMEOUT_S));
	}
	if (k->timeout != 0)
		json_object_set_new(h, "timeout", json_integer(k->timeout));
	g = json_object();
	if (k->matcher)
		json_object_set_new(g, "matcher", json_string(CLAUDE_MATCHER));
	json_object_set_new(g, "hooks", json_pack("[o]", h));
	return g;
}

int
hooks_install(enum hookset s, const char *version, bool dry,
    struct setup_outcome *o, char **note)
{
	struct jconf c;
	const struct hook *k;
	json_t *want, *hooks, *list;
	char *path = file_path(s), *program;
	int rc = -1;

	*note = NULL;
	if (sets[s].minimum != NULL && version_cmp(version != NULL ? version :
	    "", sets[s].minimum) < 0) {
		*note = xasprintf("parent hooks not installed: version %s is "
		    "older than %s", version != NULL ? version : "?",
		    sets[s].minimum);
		free(path);
		return 0;
	}
	program = path_sibling("aiterm-hook", AITERM_BINDIR);
	/*
	 * Claude Code replaces ${CLAUDE_PROJECT_DIR} (and refuses other
	 * ${...} names) in each argument of an argv-form hook.
	 */
	if (sets[s].argv && (strstr(program, "${") != NULL ||
	    strstr(state_root(), "${") != NULL)) {
		rc = setup_fail(o, "HOOK_PATH_UNSUPPORTED", "parent hooks not "
		    "installed: %s or the state folder %s holds \"${\", which "
		    "Claude Code would substitute in a hook's arguments",
		    program, state_root());
		free(program);
		free(path);
		return rc;
	}
	/* A shell command line: its quoting holds no quote. */
	if (!sets[s].argv && (strchr(program, '\'') != NULL ||
	    strchr(state_root(), '\'') != NULL)) {
		rc = setup_fail(o, "HOOK_PATH_UNSUPPORTED", "parent hooks not "
		    "installed: %s or the state folder %s holds a quote (')",
		    program, state_root());
		free(program);
		free(path);
		return rc;
	}
	if (!dry)
		ensure_dir(path);
	if (jconf_load(&c, path, o) != 0) {
		jconf_free(&c);
		free(program);
		free(path);
		return -1;
	}
	want = json_deep_copy(c.root);
	if (sets[s].in_place)
		place_ours(s, want, program);
	strip(s, want);
	if (s == HOOKS_CURSOR && json_object_get(want, "version") == NULL)
		json_object_set_new(want, "version", json_integer(1));
	if ((hooks = json_object_get(want, "hooks")) == NULL) {
		hooks = json_object();
		json_object_set_new(want, "hooks", hooks);
	}
	for (k = sets[s].hooks; k->event != NULL; k++) {
		if ((list = json_object_get(hooks, k->event)) == NULL) {
			list = json_array();
			json_object_set_new(hooks, k->event, list);
		}
		if (!placed(list))
			json_array_append_new(list, entry(s, k, program));
	}
	unmark(hooks);
	if (json_equal(want, c.root)) {
		*note = xasprintf("parent hooks already in %s", path);
		rc = 0;
	} else if ((rc = jconf_replace(&c, want, dry, o)) == 0)
		*note = xasprintf("parent hooks %s %s", dry ? "would go into" :
		    "installed in", path);
	json_decref(want);
	jconf_free(&c);
	free(program);
	free(path);
	return rc;
}

int
hooks_remove(enum hookset s, bool dry, struct setup_outcome *o,
    bool *removed)
{
	struct jconf c;
	json_t *want;
	char *path = file_path(s);
	int rc = -1;

	*removed = false;
	if (jconf_load(&c, path, o) == 0) {
		want = json_deep_copy(c.root);
		rc = (*removed = strip(s, want)) ? jconf_replace(&c, want, dry,
		    o) : 0;
		json_decref(want);
	}
	jconf_free(&c);
	free(path);
	return rc;
}
