/*
 * The view of tmux that list answers from (issue 38, ADR 0038).
 *
 * list used to send "list-panes -a" on every call: at 500 sessions tmux
 * took 16 ms to format it, most of it pane_current_command (a read of
 * /proc for every pane).  Now the answer of a full list is kept, with the
 * control client's generation (tmux-ctl.c) at the time it was read, and a
 * later list answers from it while nothing has changed:
 *
 * - Sessions and windows created, closed, renamed or moved (also from
 *   outside: another server, "tmux kill-session" by hand) make tmux send
 *   every control client a notification (%sessions-changed,
 *   %session-renamed, %unlinked-window-add/close, ...).  Any notification
 *   read, and any start or stop of the client (a tmux server that died
 *   and came back), moves the generation on, and the view is taken again
 *   by a full list.
 * - A notification can still be on its way: tmux queues them, and sends
 *   one after the answers of commands run in the same pass of its loop.
 *   So a list first asks the control client twice, one question after the
 *   other's answer ("display-message -p '#{pid}'", which costs tmux no
 *   walk of its sessions): everything that happened before the first was
 *   sent has been notified before the second is answered.  The server PID
 *   it gives must still be the view's.
 * - A pane's process that ends notifies nothing (remain-on-exit keeps the
 *   pane, tmux 3.3a tells control clients nothing of it), and the
 *   foreground command changes without a word.  Both are read for each
 *   live pane from /proc at every call, as tmux reads them itself: the
 *   pane process's stat (its state, start time and the terminal's
 *   foreground process group), then that group's cmdline, cut as tmux
 *   cuts pane_current_command.  A pane whose process is gone, a zombie,
 *   another process (start time) or unreadable is asked of tmux alone
 *   (pane_info), and a session tmux no longer has drops the view.  One
 *   tmux still calls alive while /proc shows its process ended (not
 *   reaped yet, or a child of the dead shell holds the terminal) is
 *   listed exited, status unknown, and asked again on the next call.
 *
 * Without a control client (AITERM_TMUX_CONTROL=0, a one-shot answer) or
 * without /proc there is no view: every list is a full one, as before.
 * Sizes (cols, rows) and the cursor are as of the full list: a resize of
 * another session's window notifies only clients attached to it.
 */
#include <ctype.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "mux-tmux.h"

/*
 * One session: start is its pane process's start time, fg the foreground
 * group info.command was read from (-1: read it again), comm the pane
 * process's name then, ended whether /proc shows the process ended while
 * tmux still calls the pane alive.
 */
struct tx_view_pane {
	char			*name;
	long			 created;
	struct aiterm_pane_info	 info;
	unsigned long long	 start;
	long			 fg;
	char			 comm[32];
	int			 ended;
	int			 stat_fd;	/* its /proc/<pid>/stat, or -1 */
};

static struct {
	struct tx_view_pane	*v;
	size_t			 n;
	size_t			 cap;
	int			 valid;
	unsigned long long	 gen;
	long			 server_pid;
	char			 socket[512];
} tx_view;

static void	tx_view_unhold(struct tx_view_pane *);

void
tx_view_drop(void)
{
	size_t i;

	for (i = 0; i < tx_view.n; i++) {
		free(tx_view.v[i].name);
		tx_view_unhold(&tx_view.v[i]);
	}
	tx_view.n = 0;
	tx_view.valid = 0;
}

static void __attribute__((destructor))
tx_view_unload(void)
{
	tx_view_drop();
	free(tx_view.v);
	tx_view.v = NULL;
	tx_view.cap = 0;
}

/*
 * What /proc/<pid>/stat says (buf, n bytes read): state, the foreground
 * process group of the controlling terminal, start time and comm.  0, or
 * -1 when it cannot be read (gone, or no /proc).
 */
static int
tx_proc_parse(char *buf, ssize_t n, char *state, long *tpgid,
    unsigned long long *start, char *comm, size_t len)
{
	char *lp, *rp, *p;
	int i;

	if (n <= 0)
		return -1;
	buf[n] = '\0';
	/* "pid (comm) S ppid pgrp session tty_nr tpgid ... starttime(22)" */
	if ((lp = strchr(buf, '(')) == NULL ||
	    (rp = strrchr(buf, ')')) == NULL || rp[1] != ' ')
		return -1;
	snprintf(comm, len, "%.*s", (int)(rp - lp - 1), lp + 1);
	*state = rp[2];
	/* p at field i (3: the state), moved on to 8, then to 22. */
	for (p = rp + 2, i = 3; i < 8 && p != NULL; i++)
		p = (p = strchr(p, ' ')) == NULL ? NULL : p + 1;
	if (p == NULL)
		return -1;
	*tpgid = strtol(p, NULL, 10);
	for (; i < 22 && p != NULL; i++)
		p = (p = strchr(p, ' ')) == NULL ? NULL : p + 1;
	if (p == NULL)
		return -1;
	*start = strtoull(p, NULL, 10);
	return 0;
}

/* /proc/<pid>/<what> read once into buf (size - 1 bytes at most). */
static ssize_t
tx_proc_read(long pid, const char *what, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/%s", pid, what);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	return n;
}

static int
tx_proc_stat(long pid, char *state, long *tpgid, unsigned long long *start,
    char *comm, size_t len)
{
	char buf[1024];

	return tx_proc_parse(buf, tx_proc_read(pid, "stat", buf, sizeof buf),
	    state, tpgid, start, comm, len);
}

/*
 * The same for a pane of the view through a descriptor it keeps: a
 * pread of it costs half an open, read and close (1.0 against 2.3 us
 * here), which at 500 panes is most of a list.  The descriptor is the
 * process's, never another's with its pid: once it is gone the read
 * fails and tmux is asked.  At most a quarter of the descriptors this
 * process may open are kept.
 */
static size_t	tx_view_held, tx_view_hold_max;

static void
tx_view_unhold(struct tx_view_pane *p)
{
	if (p->stat_fd >= 0) {
		close(p->stat_fd);
		tx_view_held--;
	}
	p->stat_fd = -1;
}

static int
tx_view_stat(struct tx_view_pane *p, char *state, long *tpgid,
    unsigned long long *start, char *comm, size_t len)
{
	struct rlimit rl;
	char path[64], buf[1024];
	ssize_t n;

	if (tx_view_hold_max == 0)
		tx_view_hold_max = getrlimit(RLIMIT_NOFILE, &rl) == 0 &&
		    rl.rlim_cur != RLIM_INFINITY ? rl.rlim_cur / 4 : 256;
	if (p->stat_fd < 0 && tx_view_held < tx_view_hold_max) {
		snprintf(path, sizeof path, "/proc/%ld/stat", p->info.pid);
		if ((p->stat_fd = open(path, O_RDONLY | O_CLOEXEC)) >= 0)
			tx_view_held++;
	}
	if (p->stat_fd < 0)
		return tx_proc_stat(p->info.pid, state, tpgid, start, comm,
		    len);
	n = pread(p->stat_fd, buf, sizeof buf - 1, 0);
	if (tx_proc_parse(buf, n, state, tpgid, start, comm, len) == 0)
		return 0;
	tx_view_unhold(p);
	return -1;
}

int
tx_proc_ended(long pid)
{
	unsigned long long start;
	char state, comm[32];
	long tpgid;

	if (pid <= 0 || access("/proc/self/stat", R_OK) != 0)
		return 0;
	if (tx_proc_stat(pid, &state, &tpgid, &start, comm, sizeof comm) != 0)
		return access("/proc/self/stat", R_OK) == 0;
	return state == 'Z' || state == 'X';
}

/*
 * pane_current_command as tmux 3.3a makes it: the first word of the
 * foreground group's cmdline (osdep_get_name), cut by parse_window_name.
 * 0, or -1 when there is none (tmux would fall back to the pane's argv).
 */
static int
tx_proc_command(long pgrp, char *out, size_t len)
{
	char buf[4096], *name, *p;
	ssize_t n;

	n = tx_proc_read(pgrp, "cmdline", buf, sizeof buf);
	if (n <= 0 || buf[0] == '\0')
		return -1;
	buf[n] = '\0';
	name = buf;
	if (*name == '"')
		name++;
	name[strcspn(name, "\"")] = '\0';
	if (strncmp(name, "exec ", 5) == 0)
		name += 5;
	while (*name == ' ' || *name == '-')
		name++;
	if ((p = strchr(name, ' ')) != NULL)
		*p = '\0';
	if (*name != '\0') {
		p = name + strlen(name) - 1;
		while (p > name && !isalnum((unsigned char)*p) &&
		    !ispunct((unsigned char)*p))
			*p-- = '\0';
	}
	if (*name == '/' && (p = strrchr(name, '/')) != NULL && p[1] != '\0')
		name = p + 1;
	snprintf(out, len, "%s", name);
	return 0;
}

/* A list line's session, kept by tx_view_commit when the list is whole. */
void
tx_view_add(const char *session, long created,
    const struct aiterm_pane_info *info, void *arg)
{
	struct tx_view_pane *p;
	long tpgid;
	char state;

	(void)arg;
	if (tx_view.n == tx_view.cap) {
		tx_view.cap = tx_view.cap == 0 ? 64 : tx_view.cap * 2;
		/* Out of memory aborts, as tx_alloc does. */
		tx_view.v = realloc(tx_view.v, tx_view.cap * sizeof *tx_view.v);
		if (tx_view.v == NULL)
			abort();
	}
	p = &tx_view.v[tx_view.n++];
	memset(p, 0, sizeof *p);
	p->stat_fd = -1;
	p->name = tx_strdup(session);
	p->created = created;
	p->info = *info;
	/* The command tmux gave is of a group not known here: read again. */
	p->fg = -1;
	if (!info->dead && info->pid > 0 && tx_proc_stat(info->pid, &state,
	    &tpgid, &p->start, p->comm, sizeof p->comm) != 0)
		p->start = 0;
}

void
tx_view_begin(void)
{
	tx_view_drop();
}

void
tx_view_commit(const struct tx_server *srv, long server_pid,
    unsigned long long gen)
{
	char state, comm[32];
	long tpgid;
	unsigned long long start;

	/* No /proc: every live pane would be asked of tmux alone. */
	if (server_pid <= 1 || tx_proc_stat((long)getpid(), &state, &tpgid,
	    &start, comm, sizeof comm) != 0) {
		tx_view_drop();
		return;
	}
	snprintf(tx_view.socket, sizeof tx_view.socket, "%s", srv->socket);
	tx_view.server_pid = server_pid;
	tx_view.gen = gen;
	tx_view.valid = 1;
}

/* Ask the control client for the server's PID: 0 with *pid, else -1. */
static int
tx_view_barrier(const struct aiterm_host *host, const struct tx_server *srv,
    long *pid, struct aiterm_error *err)
{
	struct tx_argv cmd = TX_ARGV_INIT;
	struct tx_result res = TX_RESULT_INIT;
	int rc = -1;

	tx_argv_add(&cmd, "display-message");
	tx_argv_add(&cmd, "-p");
	tx_argv_add(&cmd, "#{pid}");
	if (tx_run(host, srv, &cmd, TX_RESEND_OK, &res, err) != 0)
		goto out;
	*pid = res.status == 0 && tx_ctl_answered_line() ?
	    strtol(tx_str_get(&res.out), NULL, 10) : -1;
	rc = 0;
out:
	tx_result_free(&res);
	tx_argv_free(&cmd);
	return rc;
}

/*
 * Bring a live pane up to now from /proc: 0 done, 1 when tmux must be
 * asked about it.
 */
static int
tx_view_look(struct tx_view_pane *p)
{
	unsigned long long start;
	char state, comm[32];
	long tpgid;

	if (p->info.dead)
		return 0;
	if (p->ended || p->info.pid <= 0 || p->start == 0 ||
	    tx_view_stat(p, &state, &tpgid, &start, comm,
	    sizeof comm) != 0 || start != p->start || state == 'Z' ||
	    state == 'X' || tpgid <= 0)
		return 1;
	/* The shell itself in the foreground, unchanged: nothing to read. */
	if (tpgid == p->fg && tpgid == p->info.pid &&
	    strcmp(comm, p->comm) == 0)
		return 0;
	if (tx_proc_command(tpgid, p->info.command,
	    sizeof p->info.command) != 0)
		return 1;
	p->fg = tpgid;
	snprintf(p->comm, sizeof p->comm, "%s", comm);
	return 0;
}

int
tx_view_list(const struct aiterm_host *host, const struct tx_server *srv,
    tx_pane_info_fn pane_info, aiterm_mux_list_cb cb, void *arg,
    struct aiterm_error *err)
{
	long pid;
	int k;

	if (!tx_view.valid || strcmp(tx_view.socket, srv->socket) != 0)
		return 0;
	for (k = 0; k < 2; k++) {
		if (tx_view_barrier(host, srv, &pid, err) != 0) {
			tx_view_drop();
			return -1;
		}
		if (pid != tx_view.server_pid ||
		    tx_ctl_generation() != tx_view.gen) {
			tx_view_drop();
			return 0;
		}
	}
	return tx_view_answer(host, pane_info, cb, arg, err);
}

int
tx_view_answer(const struct aiterm_host *host, tx_pane_info_fn pane_info,
    aiterm_mux_list_cb cb, void *arg, struct aiterm_error *err)
{
	struct aiterm_pane_info info;
	struct tx_view_pane *p;
	long pid;
	size_t i;

	if (!tx_view.valid)
		return 0;
	for (i = 0; i < tx_view.n; i++) {
		p = &tx_view.v[i];
		if (tx_view_look(p) == 0)
			continue;
		pid = p->info.pid;
		if (pane_info(host, p->name, &p->info, err) != 0) {
			tx_view_drop();
			return -1;
		}
		/*
		 * Gone without a word yet, or another process in the pane:
		 * a full list instead.  Else tmux's own answer stands (dead,
		 * with its status; or alive with a command only tmux could
		 * name).  A notification read meanwhile is of something after
		 * the barrier: the next call takes the view again.
		 */
		if (!p->info.exists || (!p->info.dead && p->info.pid != pid)) {
			tx_view_drop();
			return 0;
		}
		p->fg = -1;
		tx_view_unhold(p);
		/*
		 * Still alive to tmux, ended to /proc (tmux has not reaped
		 * it yet, or a child holds the terminal): exited, status
		 * unknown, and asked again next time.
		 */
		p->ended = !p->info.dead && tx_proc_ended(p->info.pid);
	}
	for (i = 0; i < tx_view.n; i++) {
		p = &tx_view.v[i];
		info = p->info;
		if (p->ended) {
			info.dead = 1;
			info.dead_status = -1;
		}
		cb(p->name, p->created, &info, arg);
	}
	return 1;
}
