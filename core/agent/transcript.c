#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/transcript.h"
#include "plugin/host.h"
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
};

static void
collect(const char *dir, int depth, long long since,
    struct candidate **c, size_t *n, size_t *cap)
{
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
			collect(p, depth - 1, since, c, n, cap);
			free(p);
			continue;
		}
		if (!S_ISREG(st.st_mode) || (long long)st.st_mtim.tv_sec *
		    1000 + st.st_mtim.tv_nsec / 1000000 < since) {
			free(p);
			continue;
		}
		if (*n == *cap) {
			*cap = *cap == 0 ? 16 : *cap * 2;
			*c = xrealloc(*c, *cap * sizeof **c);
		}
		(*c)[*n].path = p;
		(*c)[*n].name = strrchr(p, '/') + 1;
		(*c)[*n].mtime_ms = (long long)st.st_mtim.tv_sec * 1000 +
		    st.st_mtim.tv_nsec / 1000000;
		(*n)++;
	}
	closedir(dp);
}

static int
newest_first(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	return x->mtime_ms < y->mtime_ms ? 1 : x->mtime_ms > y->mtime_ms ?
	    -1 : strcmp(x->path, y->path);
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

int
transcript_locate(const struct harness *h, struct agent_record *r,
    struct aiterm_error *err)
{
	struct aiterm_transcript_query q;
	struct candidate *c = NULL;
	size_t n = 0, cap = 0, i;
	const char **env;
	char *dir, *head;
	ssize_t len;
	int depth, found = 1;

	if (r->transcript[0] != '\0')
		return 0;
	if ((dir = transcript_dir(h, r, &depth, err)) == NULL)
		return -1;
	collect(dir, depth, r->started_ms - CLOCK_SLACK_MS, &c, &n, &cap);
	free(dir);
	if (n > 1)
		qsort(c, n, sizeof *c, newest_first);
	env = pane_env(r);
	query_init(&q, r, env);
	head = xmalloc(TRANSCRIPT_HEAD_MAX);
	for (i = 0; i < n && found == 1; i++) {
		len = read_head(c[i].path, head, TRANSCRIPT_HEAD_MAX);
		if (len >= 0 && h->ops->transcript_claim(&q, c[i].name, head,
		    (size_t)len, c[i].mtime_ms) == 1) {
			snprintf(r->transcript, sizeof r->transcript, "%s",
			    c[i].path);
			found = 0;
		}
	}
	free(head);
	free(env);
	for (i = 0; i < n; i++)
		free(c[i].path);
	free(c);
	return found;
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

int
transcript_turn(const struct harness *h, const char *path, unsigned index,
    struct aiterm_turn *turn, struct aiterm_buf *answer,
    struct aiterm_error *err)
{
	struct aiterm_buf bytes = BUF_INIT;
	int rc;

	memset(turn, 0, sizeof *turn);
	turn->answer = (struct aiterm_buf *)answer;
	turn->reason = "no_transcript";
	if ((rc = read_whole(path, &bytes, err)) != 0)
		return rc < 0 ? -1 : 0;
	rc = h->ops->read_turn(host_get(), buf_str(&bytes), bytes.len, index,
	    turn, err);
	buf_free(&bytes);
	if (turn->reason == NULL)
		turn->reason = "unspecified";
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
