#include "config.h"
#include <sys/stat.h>
#include <sys/types.h>
#ifdef __linux__
#include <sys/sysmacros.h>
#endif

#include <dirent.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "inpane.h"
#include "proc/proc.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/*
 * The first line of the config the mux-tmux plugin writes beside the
 * socket (plugins/mux-tmux/tmux-conf.c): what makes a tmux server
 * Aiterm's and not the user's own.
 */
#define CONF_MARK	"# Written by the aiterm mux-tmux plugin"
#define SOCK_NAME	"/tmux.sock"
#define ANCESTRY_MAX	64	/* a longer chain is a loop in a bad table */

/* Whether dir holds tmux.conf starting with CONF_MARK (never blocks). */
static bool
aiterm_conf(const char *dir)
{
	char *path = xasprintf("%s/tmux.conf", dir), head[sizeof CONF_MARK];
	struct stat st;
	ssize_t n = -1;
	int fd;

	fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = read(fd, head, sizeof head - 1);
	close(fd);
	return n == (ssize_t)sizeof head - 1 &&
	    memcmp(head, CONF_MARK, sizeof head - 1) == 0;
}

/*
 * The state root of the Aiterm tmux server pid runs, from its argument
 * vector (a tmux server keeps its first client's: "tmux -u -S
 * <root>/tmux.sock -f <root>/tmux.conf ..."), allocated; NULL when pid
 * is not one.
 */
static char *
aiterm_server_root(long pid)
{
	struct aiterm_buf argv = BUF_INIT;
	const char *a, *end, *sock = NULL;
	char *root = NULL;
	size_t n;

	if (proc_argv(pid, &argv) != 0) {
		buf_free(&argv);
		return NULL;
	}
	end = argv.data + argv.len;
	for (a = argv.data; a < end && sock == NULL; a += strlen(a) + 1) {
		if (strcmp(a, "-S") == 0 && a + 3 < end)
			sock = a + 3;
	}
	n = sock != NULL ? strlen(sock) : 0;
	if (n > sizeof SOCK_NAME - 1 && strcmp(sock + n - (sizeof SOCK_NAME -
	    1), SOCK_NAME) == 0) {
		root = xstrndup(sock, n - (sizeof SOCK_NAME - 1));
		if (!aiterm_conf(root)) {
			free(root);
			root = NULL;
		}
	}
	buf_free(&argv);
	return root;
}

static const struct proc_stat *
find(const struct proc_table *t, long pid)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	}
	return NULL;
}

/* An ancestor of this process is an Aiterm tmux server. */
static bool
by_ancestry(const struct proc_table *t, char **why)
{
	const struct proc_stat *p;
	long pid = (long)getppid();
	char *root;
	int hops;

	for (hops = 0; pid > 1 && hops < ANCESTRY_MAX; hops++) {
		if ((root = aiterm_server_root(pid)) != NULL) {
			*why = xasprintf("process %ld, an ancestor of this one, "
			    "is the tmux server of Aiterm's state root %s", pid,
			    root);
			free(root);
			return true;
		}
		pid = (p = find(t, pid)) != NULL ? p->ppid : 0;
	}
	return false;
}

#ifdef __linux__
#define PTS_MAJOR_FIRST	136	/* Unix98 pty slaves: majors 136-143 */
#define PTS_MAJOR_LAST	143

/* The pty number of fd's terminal (/dev/pts/N), or -1. */
static long
pts_number(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISCHR(st.st_mode) ||
	    major(st.st_rdev) < PTS_MAJOR_FIRST ||
	    major(st.st_rdev) > PTS_MAJOR_LAST)
		return -1;
	return (long)(major(st.st_rdev) - PTS_MAJOR_FIRST) * 256 +
	    (long)minor(st.st_rdev);
}

/* Whether pid holds the master of pty n (its fdinfo's "tty-index"). */
static bool
holds_master(long pid, long n)
{
	char path[PATH_MAX], link[64], line[128];
	struct dirent *de;
	bool found = false;
	ssize_t len;
	FILE *f;
	DIR *d;
	long idx;

	snprintf(path, sizeof path, "/proc/%ld/fd", pid);
	if ((d = opendir(path)) == NULL)
		return false;
	while (!found && (de = readdir(d)) != NULL) {
		snprintf(path, sizeof path, "/proc/%ld/fd/%s", pid, de->d_name);
		len = readlink(path, link, sizeof link - 1);
		if (len <= 0)
			continue;
		link[len] = '\0';
		if (strcmp(link, "/dev/ptmx") != 0 &&
		    strcmp(link, "/dev/pts/ptmx") != 0)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/fdinfo/%s", pid,
		    de->d_name);
		if ((f = fopen(path, "re")) == NULL)
			continue;
		while (!found && fgets(line, sizeof line, f) != NULL)
			found = sscanf(line, "tty-index: %ld", &idx) == 1 &&
			    idx == n;
		fclose(f);
	}
	closedir(d);
	return found;
}

/* A standard stream or the controlling terminal is an Aiterm pane. */
static bool
by_terminal(const struct proc_table *t, char **why)
{
	long pts[4];
	char *root;
	size_t i, k, n = 0;
	int fd;

	for (fd = 0; fd <= 2; fd++) {
		if ((pts[n] = pts_number(fd)) >= 0)
			n++;
	}
	fd = open("/dev/tty", O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0 && (pts[n] = pts_number(fd)) >= 0)
		n++;
	if (fd >= 0)
		close(fd);
	for (i = 0; n > 0 && i < t->n; i++) {
		if ((root = aiterm_server_root(t->procs[i].pid)) == NULL)
			continue;
		for (k = 0; k < n; k++) {
			if (holds_master(t->procs[i].pid, pts[k])) {
				*why = xasprintf("this terminal, /dev/pts/%ld, "
				    "is a pane of the tmux server of Aiterm's "
				    "state root %s", pts[k], root);
				free(root);
				return true;
			}
		}
		free(root);
	}
	return false;
}
#else
static bool
by_terminal(const struct proc_table *t, char **why)
{
	(void)t;
	(void)why;
	return false;
}
#endif

bool
inpane_detect(char **why)
{
	struct proc_table t = PROC_TABLE_INIT;
	const char *id = getenv("AITERM_SESSION_ID");
	bool in;

	*why = NULL;
	if (id != NULL && *id != '\0') {
		*why = xasprintf("AITERM_SESSION_ID is '%.64s'", id);
		return true;
	}
	if (proc_table_read(&t) != 0)
		return false;
	in = by_ancestry(&t, why) || by_terminal(&t, why);
	proc_table_free(&t);
	return in;
}
