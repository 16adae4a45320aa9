#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "jconf.h"
#include "jsonedit.h"
#include "run.h"
#include "state/atomic.h"
#include "util/xmalloc.h"

#define SERVERS "mcpServers"

int
jconf_load(struct jconf *c, const char *path, struct setup_outcome *o)
{
	json_error_t je;

	memset(c, 0, sizeof *c);
	c->mode = 0600;
	if (cfile_read(&c->file, path, o) != 0)
		return -1;
	c->path = c->file.path;
	c->exists = c->file.exists;
	if (!c->exists)
		c->text = xstrdup("{}\n");
	else {
		c->mode = c->file.st.st_mode & 07777;
		c->text = xstrdup(c->file.text);
		if (strlen(c->text) != c->file.len)
			return setup_fail(o, "CONFIG_CORRUPT",
			    "%s holds a NUL byte; it was left as it is", path);
	}
	c->root = json_loads(c->text, JSON_REJECT_DUPLICATES, &je);
	if (c->root == NULL)
		return setup_fail(o, "CONFIG_CORRUPT", "%s is not valid JSON "
		    "(line %d, column %d: %s); it was left as it is", path,
		    je.line, je.column, je.text);
	if (!json_is_object(c->root) || (json_object_get(c->root, SERVERS) !=
	    NULL && !json_is_object(json_object_get(c->root, SERVERS))))
		return setup_fail(o, "CONFIG_CORRUPT", "%s: not a JSON object "
		    "with an object \"%s\"; it was left as it is", path,
		    SERVERS);
	return 0;
}

void
jconf_free(struct jconf *c)
{
	cfile_free(&c->file);
	free(c->text);
	json_decref(c->root);
	memset(c, 0, sizeof *c);
}

json_t *
jconf_server(const struct jconf *c, const char *name)
{
	return json_object_get(json_object_get(c->root, SERVERS), name);
}

/* What the edit must parse to: the old value plus or minus name. */
static json_t *
expected(const struct jconf *c, const char *name, const json_t *value,
    bool drop_parent)
{
	json_t *want = json_deep_copy(c->root), *servers;

	servers = json_object_get(want, SERVERS);
	if (value != NULL) {
		if (servers == NULL) {
			servers = json_object();
			json_object_set_new(want, SERVERS, servers);
		}
		json_object_set_new(servers, name, json_deep_copy(value));
	} else {
		json_object_del(servers, name);
		if (drop_parent && json_object_size(servers) == 0)
			json_object_del(want, SERVERS);
	}
	return want;
}

/* The unified diff of a -> b, through diff(1). */
static char *
unified(const char *path, const char *a, const char *b)
{
	char ta[] = "/tmp/aiterm-setup-a.XXXXXX", tb[] = "/tmp/aiterm-setup-b.XXXXXX";
	char la[512], lb[512];
	char *argv[] = { "diff", "-u", "--label", la, "--label", lb, ta, tb,
	    NULL };
	struct run_result r;
	char *d;
	int fa = mkstemp(ta), fb = mkstemp(tb);

	snprintf(la, sizeof la, "%s", path);
	snprintf(lb, sizeof lb, "%s (after aiterm-setup)", path);
	if (fa < 0 || fb < 0 || write(fa, a, strlen(a)) < 0 ||
	    write(fb, b, strlen(b)) < 0 || run_cmd(argv, 10000, &r) != 0)
		d = xstrdup("(diff could not run)");
	else {
		d = xstrdup(r.out.data != NULL ? r.out.data : "");
		run_result_free(&r);
	}
	if (fa >= 0) {
		close(fa);
		unlink(ta);
	}
	if (fb >= 0) {
		close(fb);
		unlink(tb);
	}
	return d;
}

/*
 * A copy of the file as it was, <path>.aiterm-setup-<time>.bak beside the
 * path as named (a link's folder, not its target's); *kept is its name.
 */
static int
backup(const struct jconf *c, char **kept, struct setup_outcome *o)
{
	struct aiterm_error err = ERROR_INIT;
	struct stat st;
	struct tm tm;
	time_t now = time(NULL);
	char stamp[32], *path;
	int k, e;

	*kept = NULL;
	if (!c->exists)
		return 0;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
	/* Never over an older copy: a second run in the same second. */
	path = xasprintf("%s.aiterm-setup-%s.bak", c->path, stamp);
	for (k = 2; lstat(path, &st) == 0 && k < 1000; k++) {
		free(path);
		path = xasprintf("%s.aiterm-setup-%s-%d.bak", c->path, stamp,
		    k);
	}
	if (atomic_write(path, c->text, strlen(c->text), &err) != 0 ||
	    chmod(path, c->mode) != 0) {
		e = errno;
		setup_fail(o, "BACKUP_FAILED", "could not keep a copy of %s "
		    "as %s: %s; nothing was changed", c->path, path,
		    err.msg != NULL ? err.msg : strerror(e));
		error_clear(&err);
		(void)unlink(path);
		free(path);
		return -1;
	}
	*kept = path;
	return 0;
}

/* Show (dry) or write text as the new file, the old one kept beside. */
static int
commit_text(const struct jconf *c, const char *text, bool dry,
    struct setup_outcome *o)
{
	char *d, *kept;

	if (dry) {
		/* A client with two files shows both edits. */
		d = unified(c->path, c->exists ? c->text : "", text);
		kept = o->diff;
		o->diff = kept != NULL ? xasprintf("%s%s", kept, d) : d;
		if (kept != NULL) {
			free(kept);
			free(d);
		}
		return 0;
	}
	if (backup(c, &kept, o) != 0)
		return -1;
	if (cfile_write(&c->file, text, c->mode, o) != 0) {
		/* Nothing written: no copy of a file that did not change. */
		if (kept != NULL)
			(void)unlink(kept);
		free(kept);
		return -1;
	}
	/* A client with two files (Claude: its config, its settings). */
	if (kept != NULL) {
		d = o->backup;
		o->backup = d != NULL ? xasprintf("%s, %s", d, kept) : kept;
		if (d != NULL) {
			free(d);
			free(kept);
		}
	}
	return 0;
}

int
jconf_replace(struct jconf *c, const json_t *root, bool dry,
    struct setup_outcome *o)
{
	char *text;
	int rc;

	if (c->exists && (c->mode & S_IWUSR) == 0)
		return setup_fail(o, "CONFIG_READONLY", "%s is read-only "
		    "(mode %04o); it was left as it is", c->path,
		    (unsigned)c->mode);
	text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	if (text == NULL)
		return setup_fail(o, "CONFIG_EDIT_FAILED", "cannot write %s "
		    "as JSON", c->path);
	text = xrealloc(text, strlen(text) + 2);
	strcat(text, "\n");
	rc = commit_text(c, text, dry, o);
	free(text);
	return rc;
}

int
jconf_unlink_empty(const char *path, struct setup_outcome *o)
{
	struct setup_outcome quiet;
	struct cfile f;
	struct stat st;
	json_t *j;
	bool empty;

	/* Only the regular file setup made: never a link, a FIFO, ... */
	memset(&quiet, 0, sizeof quiet);
	memset(&f, 0, sizeof f);
	j = lstat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    cfile_read(&f, path, &quiet) == 0 && f.exists ?
	    json_loads(f.text, 0, NULL) : NULL;
	empty = json_is_object(j) && json_object_size(j) == 0;
	json_decref(j);
	cfile_free(&f);
	setup_outcome_free(&quiet);
	if (empty && unlink(path) != 0)
		return setup_fail(o, "WRITE_FAILED", "could not remove %s, "
		    "which setup created: %s", path, strerror(errno));
	return 0;
}

int
jconf_change(struct jconf *c, const char *name, const json_t *value,
    bool drop_parent, bool dry, bool *created, struct setup_outcome *o)
{
	json_t *want, *got;
	char *text;
	bool made = false;
	int rc = -1;

	if (c->exists && (c->mode & S_IWUSR) == 0)
		return setup_fail(o, "CONFIG_READONLY", "%s is read-only "
		    "(mode %04o); it was left as it is", c->path,
		    (unsigned)c->mode);
	want = expected(c, name, value, drop_parent);
	if (!c->exists) {
		/* A new file: written whole, two-space indented. */
		text = json_dumps(want, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
		made = true;
		if (text != NULL) {
			text = xrealloc(text, strlen(text) + 2);
			strcat(text, "\n");
		}
	} else
		text = value != NULL ? jedit_add(c->text, SERVERS, name,
		    value, &made) : jedit_remove(c->text, SERVERS, name,
		    drop_parent);
	got = text != NULL ? json_loads(text, 0, NULL) : NULL;
	if (got == NULL || !json_equal(got, want)) {
		setup_fail(o, "CONFIG_EDIT_FAILED", "the edit of %s did not "
		    "give what it should; it was left as it is", c->path);
		goto out;
	}
	if (created != NULL)
		*created = made;
	rc = commit_text(c, text, dry, o);
out:
	json_decref(want);
	json_decref(got);
	free(text);
	return rc;
}
