#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/transcript.h"
#include "plugin/host.h"
#include "proc/proc.h"
#include "pty/session.h"
#include "util/xmalloc.h"

extern char **environ;

/* A transcript written before the launch started is not its transcript. */
#define CLOCK_SLACK_MS	2000

/* The server's environment with the launch's pane variables over it. */
static const char **
pane_env(const struct agent_record *r)
{
	size_t n = 0, i, k, len;
	const char **env;

	while (environ[n] != NULL)
		n++;
	env = xcalloc(n + AGENT_ENV_MAX + 1, sizeof *env);
	for (i = 0, k = 0; i < n; i++) {
		const char *eq = strchr(environ[i], '=');
		size_t j;
		bool over = false;

		len = eq == NULL ? strlen(environ[i]) : (size_t)(eq -
		    environ[i]) + 1;
		for (j = 0; r->env[j] != NULL && !over; j++)
			over = strncmp(r->env[j], environ[i], len) == 0;
		if (!over)
			env[k++] = environ[i];
	}
	for (i = 0; r->env[i] != NULL; i++)
		env[k++] = r->env[i];
	env[k] = NULL;
	return env;
}

static void
query_init(struct aiterm_transcript_query *q, const struct agent_record *r,
    const char **env)
{
	memset(q, 0, sizeof *q);
	q->launch_id = r->launch_id;
	q->cwd = r->cwd;
	q->home = r->home;
	q->env = env;
	q->started_ms = r->started_ms;
}

char *
transcript_dir(const struct harness *h, const struct agent_record *r,
    int *depth, struct aiterm_error *err)
{
	struct aiterm_transcript_query q;
	struct aiterm_buf dir = BUF_INIT;
	const char **env = pane_env(r);

	query_init(&q, r, env);
	*depth = 0;
	if (h->ops->transcript_dir(host_get(), &q, (struct aiterm_buf *)&dir,
	    depth, err) != 0) {
		buf_free(&dir);
		free(env);
		return NULL;
	}
	free(env);
	return buf_steal(&dir, NULL);
}

struct candidate {
	char		*path;
	const char	*name;
	long long	 mtime_ms;
	unsigned long long dev, ino;
	int		 claim;		/* AITERM_CLAIM_* */
	long		 holder;	/* the launch's process holding it, or 0 */
};

struct candidates {
	struct candidate *c;
	size_t		 n, cap;
};

static void
collect(const char *dir, int depth, long long since, struct candidates *cs)
{
	struct candidate *c;
	struct dirent *d;
	struct stat st;
	DIR *dp;
	char *p;

	if ((dp = opendir(dir)) == NULL)
		return;
	while ((d = readdir(dp)) != NULL) {
		if (d->d_name[0] == '.')
			continue;
		p = xasprintf("%s/%s", dir, d->d_name);
		if (stat(p, &st) != 0) {
			free(p);
			continue;
		}
		if (S_ISDIR(st.st_mode) && depth > 0) {
			collect(p, depth - 1, since, cs);
			free(p);
			continue;
		}
		if (!S_ISREG(st.st_mode) || (long long)st.st_mtim.tv_sec *
		    1000 + st.st_mtim.tv_nsec / 1000000 < since) {
			free(p);
			continue;
		}
		if (cs->n == cs->cap) {
			cs->cap = cs->cap == 0 ? 16 : cs->cap * 2;
			cs->c = xrealloc(cs->c, cs->cap * sizeof *cs->c);
		}
		c = &cs->c[cs->n++];
		memset(c, 0, sizeof *c);
		c->path = p;
		c->name = strrchr(p, '/') + 1;
		c->mtime_ms = (long long)st.st_mtim.tv_sec * 1000 +
		    st.st_mtim.tv_nsec / 1000000;
		c->dev = (unsigned long long)st.st_dev;
		c->ino = (unsigned long long)st.st_ino;
	}
	closedir(dp);
}

static int
by_path(const void *a, const void *b)
{
	return strcmp(((const struct candidate *)a)->path,
	    ((const struct candidate *)b)->path);
}

static ssize_t
read_head(const char *path, char *buf, size_t size)
{
	ssize_t n, got = 0;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	while ((size_t)got < size && (n = read(fd, buf + got, size -
	    (size_t)got)) > 0)
		got += n;
	close(fd);
	return got;
}

/* pid is root or below it, by the table's parent links. */
static bool
in_tree(const struct proc_table *t, long root, long pid)
{
	size_t i, hops;

	for (hops = 0; hops < t->n && pid > 1; hops++) {
		if (pid == root)
			return true;
		for (i = 0; i < t->n && t->procs[i].pid != pid; i++)
			;
		if (i == t->n)
			return false;
		pid = t->procs[i].ppid;
	}
	return pid == root;
}

/*
 * The launch's own processes (the pane's process and everything below
 * it) against the candidates: each candidate one of them holds open gets
 * that holder.  Nothing is found where the platform cannot say.
 */
static void
holders(const char *session, struct candidates *cs)
{
	struct proc_table t = PROC_TABLE_INIT;
	struct proc_file *f = NULL;
	size_t i, j, k, nf;
	long root;

	if ((root = session_pane_pid(session, true)) <= 0 ||
	    proc_tree_read(&t, root) != 0)
		return;
	for (i = 0; i < t.n; i++) {
		if (!in_tree(&t, root, t.procs[i].pid))
			continue;
		nf = 0;
		if (proc_open_files(t.procs[i].pid, &f, &nf) != 0)
			continue;
		for (j = 0; j < cs->n; j++) {
			for (k = 0; k < nf && cs->c[j].holder == 0; k++) {
				if (f[k].dev == cs->c[j].dev &&
				    f[k].ino == cs->c[j].ino)
					cs->c[j].holder = t.procs[i].pid;
			}
		}
	}
	free(f);
	proc_table_free(&t);
}

/* The one candidate of the given claim (and held, when held), or NULL. */
static struct candidate *
only(struct candidates *cs, int claim, bool held, size_t *count)
{
	struct candidate *one = NULL;
	size_t i;

	*count = 0;
	for (i = 0; i < cs->n; i++) {
		if (cs->c[i].claim != claim || (held && cs->c[i].holder == 0))
			continue;
		one = &cs->c[i];
		(*count)++;
	}
	return *count == 1 ? one : NULL;
}

static int
bind(const char *session, struct agent_record *r, const struct candidate *c,
    struct aiterm_error *err)
{
	char exe[PROC_NAME_MAX] = "?";

	snprintf(r->transcript, sizeof r->transcript, "%s", c->path);
	if (c->claim == AITERM_CLAIM_YES)
		snprintf(r->bound_by, sizeof r->bound_by, "session_id");
	else {
		proc_exe_name(c->holder, exe, sizeof exe);
		snprintf(r->bound_by, sizeof r->bound_by, "process_fd pid %ld "
		    "(%s)", c->holder, exe);
	}
	/* Bound once, with its evidence, before anything is read of it. */
	return agent_record_write(session, r, err) == 0 ? TRANSCRIPT_BOUND :
	    -1;
}

int
transcript_locate(const struct harness *h, const char *session,
    struct agent_record *r, struct aiterm_error *err)
{
	struct aiterm_transcript_query q;
	struct candidates cs = { NULL, 0, 0 };
	struct candidate *one;
	size_t i, ids, held, fits;
	const char **env;
	char *dir, *head;
	ssize_t len;
	int depth, rc = TRANSCRIPT_NOT_YET;

	if (r->transcript[0] != '\0')
		return TRANSCRIPT_BOUND;
	if ((dir = transcript_dir(h, r, &depth, err)) == NULL)
		return -1;
	collect(dir, depth, r->started_ms - CLOCK_SLACK_MS, &cs);
	free(dir);
	if (cs.n > 1)
		qsort(cs.c, cs.n, sizeof *cs.c, by_path);
	env = pane_env(r);
	query_init(&q, r, env);
	head = xmalloc(TRANSCRIPT_HEAD_MAX);
	for (i = 0, fits = 0; i < cs.n; i++) {
		len = read_head(cs.c[i].path, head, TRANSCRIPT_HEAD_MAX);
		cs.c[i].claim = len < 0 ? AITERM_CLAIM_NO :
		    h->ops->transcript_claim(&q, cs.c[i].name, head,
		    (size_t)len, cs.c[i].mtime_ms);
		if (cs.c[i].claim == AITERM_CLAIM_IF_OPEN)
			fits++;
	}
	free(head);
	free(env);
	if ((one = only(&cs, AITERM_CLAIM_YES, false, &ids)) != NULL)
		rc = bind(session, r, one, err);
	else if (ids > 1)
	{
		error_set(err, "%zu files name this launch's session id", ids);
		rc = TRANSCRIPT_AMBIGUOUS;
	} else if (fits > 0) {
		holders(session, &cs);
		if ((one = only(&cs, AITERM_CLAIM_IF_OPEN, true, &held)) !=
		    NULL)
			rc = bind(session, r, one, err);
		else if (held > 1) {
			error_set(err, "the launch's own processes hold %zu "
			    "files that could be its transcript open", held);
			rc = TRANSCRIPT_AMBIGUOUS;
		}
	}
	for (i = 0; i < cs.n; i++)
		free(cs.c[i].path);
	free(cs.c);
	return rc;
}

/* The whole transcript, whole lines: 0, 1 when it does not exist, -1. */
static int
read_whole(const char *path, struct aiterm_buf *bytes, struct aiterm_error *err)
{
	char chunk[65536];
	ssize_t n;
	int fd;

	if (path[0] == '\0')
		return 1;
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		if (errno == ENOENT)
			return 1;
		return error_set(err, "%s: %s", path, strerror(errno));
	}
	while ((n = read(fd, chunk, sizeof chunk)) > 0) {
		if (bytes->len + (size_t)n > TRANSCRIPT_MAX) {
			close(fd);
			return error_set(err, "%s is over %u MiB: too large to "
			    "read", path, TRANSCRIPT_MAX >> 20);
		}
		buf_add(bytes, chunk, (size_t)n);
	}
	close(fd);
	/* A record still being written waits for its end. */
	while (bytes->len > 0 && bytes->data[bytes->len - 1] != '\n')
		bytes->len--;
	return 0;
}

unsigned
transcript_count(const struct harness *h, const char *path)
{
	struct aiterm_buf bytes = BUF_INIT;
	unsigned n = 0;

	if (read_whole(path, &bytes, NULL) == 0)
		n = h->ops->count_turns(buf_str(&bytes), bytes.len);
	buf_free(&bytes);
	return n;
}

/* text with its runs of white space made one space, trimmed (allocated). */
static char *
squeeze(const char *text, size_t len)
{
	char *out = xmalloc(len + 1), *o = out;
	bool space = false;
	size_t i;

	for (i = 0; i < len; i++) {
		if (strchr(" \t\r\n", text[i]) != NULL) {
			space = o > out;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = false;
		*o++ = text[i];
	}
	*o = '\0';
	return out;
}

/* Whether the prompt found holds the text sent (white space aside). */
static bool
prompt_holds(const struct aiterm_buf *found, const char *sent)
{
	char *f = squeeze(buf_str(found), found->len);
	char *s = squeeze(sent, strlen(sent));
	bool yes = strstr(f, s) != NULL;

	free(f);
	free(s);
	return yes;
}

int
transcript_turn(const struct harness *h, const struct agent_record *r,
    struct aiterm_turn *turn, struct aiterm_buf *answer,
    struct aiterm_error *err)
{
	struct aiterm_buf bytes = BUF_INIT, prompt = BUF_INIT;
	int rc;

	memset(turn, 0, sizeof *turn);
	turn->answer = (struct aiterm_buf *)answer;
	turn->reason = "no_transcript";
	if ((rc = read_whole(r->transcript, &bytes, err)) != 0)
		return rc < 0 ? -1 : 0;
	if (h->abi_minor >= 4)
		turn->prompt = &prompt;
	rc = h->ops->read_turn(host_get(), buf_str(&bytes), bytes.len,
	    r->index, turn, err);
	buf_free(&bytes);
	if (turn->reason == NULL)
		turn->reason = "unspecified";
	/*
	 * A turn at this index with another prompt (ABI 2.4, ADR 0039): a
	 * CLI that queued text and ran it as a turn of its own.  Its answer
	 * is not this turn's.
	 */
	if (rc == 0 && turn->state != AITERM_TURN_NONE && prompt.len > 0 &&
	    r->prompt[0] != '\0' && !prompt_holds(&prompt, r->prompt)) {
		error_set(err, "the transcript's turn at index %u is the "
		    "prompt \"%.80s\", not the text sent (\"%.80s\")",
		    r->index, buf_str(&prompt), r->prompt);
		turn->state = AITERM_TURN_NONE;
		turn->reason = "prompt_mismatch";
		buf_reset(answer);
		rc = TRANSCRIPT_OTHER_PROMPT;
	}
	turn->prompt = NULL;
	buf_free(&prompt);
	return rc;
}

char *
transcript_watch_target(const struct harness *h, const struct agent_record *r)
{
	int depth;

	if (r->transcript[0] != '\0')
		return xstrdup(r->transcript);
	return transcript_dir(h, r, &depth, NULL);
}
