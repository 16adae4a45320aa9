#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hooks.h"
#include "jconf.h"
#include "state/stateroot.h"
#include "util/path.h"
#include "util/xmalloc.h"

/* Ours: a command running aiterm-hook (quoted or not) with a claude- verb. */
#define OURS_PROGRAM	"aiterm-hook"
#define OURS_VERB	" claude-"
#define MATCHER		"mcp__aiterm__(agent_launch|pty_send)"
#define HOOK_TIMEOUT_S	86400	/* seed 000: the receiver waits 24 h */

/* Which events get which hook, and how. */
static const struct {
	const char	*event;
	const char	*verb;
	bool		 matcher, rewake;
} ours[] = {
	{ "PreToolUse", "claude-pre", true, false },
	{ "PostToolUse", "claude-post", true, true },
	{ "SessionEnd", "claude-end", false, false },
};
#define NOURS	(sizeof ours / sizeof ours[0])

static char *
settings_path(void)
{
	const char *dir = getenv("CLAUDE_CONFIG_DIR"), *home = getenv("HOME");

	return dir != NULL && *dir != '\0' ? xasprintf("%s/settings.json",
	    dir) : xasprintf("%s/.claude/settings.json", home ? home : "");
}


/* The folder of path, 0700, when it is not there (~/.claude). */
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

static bool
is_ours(json_t *group)
{
	json_t *h;
	size_t i;

	json_array_foreach(json_object_get(group, "hooks"), i, h) {
		const char *cmd = json_string_value(json_object_get(h,
		    "command"));

		if (cmd != NULL && strstr(cmd, OURS_PROGRAM) != NULL &&
		    strstr(strstr(cmd, OURS_PROGRAM), OURS_VERB) != NULL)
			return true;
	}
	return false;
}

/* Take our groups out of root's hooks; true when there were any. */
static bool
strip(json_t *root)
{
	json_t *hooks = json_object_get(root, "hooks"), *list;
	bool any = false;
	size_t k, i;

	for (k = 0; k < NOURS; k++) {
		list = json_object_get(hooks, ours[k].event);
		for (i = json_array_size(list); i-- > 0;) {
			if (is_ours(json_array_get(list, i))) {
				json_array_remove(list, i);
				any = true;
			}
		}
		if (list != NULL && json_array_size(list) == 0)
			json_object_del(hooks, ours[k].event);
	}
	if (hooks != NULL && json_object_size(hooks) == 0)
		json_object_del(root, "hooks");
	return any;
}

static json_t *
group(size_t k, const char *hook)
{
	json_t *h = json_pack("{s:s, s:s}", "type", "command", "command",
	    ""), *g = json_object();
	char *cmd = xasprintf("'%s' %s --state-dir '%s'", hook, ours[k].verb,
	    state_root());

	json_object_set_new(h, "command", json_string(cmd));
	free(cmd);
	if (ours[k].rewake) {
		json_object_set_new(h, "asyncRewake", json_true());
		json_object_set_new(h, "timeout", json_integer(HOOK_TIMEOUT_S));
	}
	if (ours[k].matcher)
		json_object_set_new(g, "matcher", json_string(MATCHER));
	json_object_set_new(g, "hooks", json_pack("[o]", h));
	return g;
}

int
claude_hooks_install(const char *version, bool dry, struct setup_outcome *o,
    char **note)
{
	struct jconf c;
	json_t *want, *hooks, *list;
	char *path = settings_path(), *hook = path_sibling("aiterm-hook", AITERM_BINDIR);
	const char *v = version != NULL ? version : "";
	size_t k;
	int rc = -1;

	*note = NULL;
	if (version_cmp(v, CLAUDE_HOOKS_MIN) < 0) {
		*note = xasprintf("parent hooks not installed: Claude Code %s is "
		    "older than %s", v, CLAUDE_HOOKS_MIN);
		free(path);
		free(hook);
		return 0;
	}
	if (!dry)
		ensure_dir(path);
	if (jconf_load(&c, path, o) != 0)
		goto out;
	want = json_deep_copy(c.root);
	strip(want);
	if ((hooks = json_object_get(want, "hooks")) == NULL) {
		hooks = json_object();
		json_object_set_new(want, "hooks", hooks);
	}
	for (k = 0; k < NOURS; k++) {
		if ((list = json_object_get(hooks, ours[k].event)) == NULL) {
			list = json_array();
			json_object_set_new(hooks, ours[k].event, list);
		}
		json_array_append_new(list, group(k, hook));
	}
	if (json_equal(want, c.root)) {
		*note = xasprintf("parent hooks already in %s", path);
		rc = 0;
	} else if ((rc = jconf_replace(&c, want, dry, o)) == 0)
		*note = xasprintf("parent hooks %s %s", dry ? "would go into" :
		    "installed in", path);
	json_decref(want);
out:
	jconf_free(&c);
	free(path);
	free(hook);
	return rc;
}

int
claude_hooks_remove(bool dry, struct setup_outcome *o, bool *removed)
{
	struct jconf c;
	json_t *want;
	char *path = settings_path();
	int rc = -1;

	*removed = false;
	if (jconf_load(&c, path, o) != 0)
		goto out;
	want = json_deep_copy(c.root);
	if ((*removed = strip(want)))
		rc = jconf_replace(&c, want, dry, o);
	else
		rc = 0;
	json_decref(want);
out:
	jconf_free(&c);
	free(path);
	return rc;
}
