/*
 * The process layer on Linux: what /proc says.  The table is one read of
 * /proc/<pid>/stat per process; the executable is the link /proc/<pid>/exe
 * and argv is /proc/<pid>/cmdline.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proc/proc.h"
#include "util/xmalloc.h"

/*
 * Fields of /proc/<pid>/stat as numbered in proc(5).  Field 2 is the
 * command name in parentheses, which may hold spaces and ')' itself, so
 * fields are counted from the last ')', after which field 3 begins.
 */
enum {
	PROC_STAT_AFTER_COMM = 3,
	PROC_STAT_STATE = 3,
	PROC_STAT_PPID = 4,
	PROC_STAT_PGRP = 5,
	PROC_STAT_SESSION = 6,
	PROC_STAT_TPGID = 8,
	PROC_STAT_UTIME = 14,
	PROC_STAT_STIME = 15,
	PROC_STAT_CUTIME = 16,
	PROC_STAT_CSTIME = 17,
	PROC_STAT_STARTTIME = 22,
	PROC_STAT_NFIELDS = 23,	/* fields[0 .. 22], 0-2 unused */
};

/* Large enough for every field and any command name the kernel prints. */
#define PROC_STAT_SIZE		4096
/* Longer argument vectors are digested up to here. */
#define PROC_CMDLINE_MAX	(256 * 1024)

/* Which proc_state each state letter of proc(5) is. */
static const struct {
	char		letter;
	enum proc_state	state;
} proc_states[] = {
	{ 'R', PROC_RUNNING },
	{ 'S', PROC_SLEEPING },
	{ 'D', PROC_SLEEPING },
	{ 'I', PROC_SLEEPING },
	{ 'T', PROC_STOPPED },
	{ 't', PROC_STOPPED },
	{ 'Z', PROC_ZOMBIE },
};

struct proc_fields {
	const char	*start[PROC_STAT_NFIELDS];
	size_t		 len[PROC_STAT_NFIELDS];
};

/* Read a whole small file into buf (NUL-terminated); the length or -1. */
static ssize_t
proc_read_file(const char *path, char *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			close(fd);
			return -1;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	close(fd);
	return (ssize_t)len;
}

static int
proc_read_stat(long pid, char *buf, size_t size)
{
	char path[64];

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	return proc_read_file(path, buf, size) == -1 ? -1 : 0;
}

/* Split the fields after the command name; the name goes to name. */
static int
proc_split(const char *stat, struct proc_fields *f, char *name, size_t nlen)
{
	const char *open = strchr(stat, '('), *p;
	size_t len;
	int n;

	if (open == NULL || (p = strrchr(stat, ')')) == NULL || p < open)
		return -1;
	if (name != NULL) {
		len = (size_t)(p - open - 1);
		if (len >= nlen)
			len = nlen - 1;
		memcpy(name, open + 1, len);
		name[len] = '\0';
	}
	p++;
	for (n = PROC_STAT_AFTER_COMM; n < PROC_STAT_NFIELDS; n++) {
		if (*p != ' ')
			return -1;
		f->start[n] = ++p;
		while (*p != ' ' && *p != '\n' && *p != '\0')
			p++;
		if (p == f->start[n])
			return -1;
		f->len[n] = (size_t)(p - f->start[n]);
	}
	return 0;
}

static int
proc_field_num(const struct proc_fields *f, int n, long long *out)
{
	char num[32], *end;

	if (f->len[n] >= sizeof num)
		return -1;
	memcpy(num, f->start[n], f->len[n]);
	num[f->len[n]] = '\0';
	errno = 0;
	*out = strtoll(num, &end, 10);
	if (errno != 0 || *end != '\0')
		return -1;
	return 0;
}

static long
proc_ticks(void)
{
	static long hz;

	if (hz <= 0 && (hz = sysconf(_SC_CLK_TCK)) <= 0)
		hz = 100;
	return hz;
}

static unsigned long long
proc_ticks_ms(long long ticks)
{
	return ticks <= 0 ? 0 :
	    (unsigned long long)ticks * 1000ULL / (unsigned long long)proc_ticks();
}

static enum proc_state
proc_state_of(char letter)
{
	size_t i;

	for (i = 0; i < sizeof proc_states / sizeof proc_states[0]; i++) {
		if (proc_states[i].letter == letter)
			return proc_states[i].state;
	}
	return PROC_OTHER;
}

/* Fill ps from the text of /proc/<pid>/stat. */
static int
proc_parse(const char *stat, long pid, struct proc_stat *ps)
{
	struct proc_fields f;
	long long v[PROC_STAT_NFIELDS];
	static const int want[] = { PROC_STAT_PPID, PROC_STAT_PGRP,
	    PROC_STAT_SESSION, PROC_STAT_TPGID, PROC_STAT_UTIME, PROC_STAT_STIME,
	    PROC_STAT_CUTIME, PROC_STAT_CSTIME, PROC_STAT_STARTTIME };
	size_t i;

	memset(ps, 0, sizeof *ps);
	if (proc_split(stat, &f, ps->name, sizeof ps->name) != 0)
		return -1;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		if (proc_field_num(&f, want[i], &v[want[i]]) != 0)
			return -1;
	}
	if (f.len[PROC_STAT_STARTTIME] >= sizeof ps->start_id)
		return -1;
	ps->pid = pid;
	ps->ppid = (long)v[PROC_STAT_PPID];
	ps->pgrp = (long)v[PROC_STAT_PGRP];
	ps->sid = (long)v[PROC_STAT_SESSION];
	ps->tpgid = (long)v[PROC_STAT_TPGID];
	ps->state = proc_state_of(f.start[PROC_STAT_STATE][0]);
	ps->start_ms = proc_ticks_ms(v[PROC_STAT_STARTTIME]);
	ps->cpu_ms = proc_ticks_ms(v[PROC_STAT_UTIME] + v[PROC_STAT_STIME]);
	ps->child_cpu_ms = proc_ticks_ms(v[PROC_STAT_CUTIME] +
	    v[PROC_STAT_CSTIME]);
	memcpy(ps->start_id, f.start[PROC_STAT_STARTTIME],
	    f.len[PROC_STAT_STARTTIME]);
	ps->start_id[f.len[PROC_STAT_STARTTIME]] = '\0';
	return 0;
}

static int
proc_stat_of(long pid, struct proc_stat *ps)
{
	char stat[PROC_STAT_SIZE];

	if (pid <= 0 || pid > INT_MAX) {
		errno = ESRCH;
		return -1;
	}
	if (proc_read_stat(pid, stat, sizeof stat) == -1)
		return -1;
	if (proc_parse(stat, pid, ps) == -1) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

int
proc_stat_get(long pid, struct proc_stat *ps)
{
	return proc_stat_of(pid, ps);
}

int
proc_start_id(long pid, char *buf, size_t len)
{
	struct proc_stat ps;
	size_t n;

	if (proc_stat_of(pid, &ps) == -1)
		return -1;
	if ((n = strlen(ps.start_id)) >= len) {
		errno = ERANGE;
		return -1;
	}
	memcpy(buf, ps.start_id, n + 1);
	return 0;
}

int
proc_tty_foreground(long pid, long *pgrp, long *tpgid)
{
	struct proc_stat ps;

	if (proc_stat_of(pid, &ps) == -1)
		return -1;
	*pgrp = ps.pgrp;
	*tpgid = ps.tpgid;
	return 0;
}

static long
proc_dirent_pid(const char *name)
{
	long pid = 0;

	for (; *name != '\0'; name++) {
		if (!isdigit((unsigned char)*name) || pid > INT_MAX / 10)
			return -1;
		pid = pid * 10 + (*name - '0');
	}
	return pid > 0 ? pid : -1;
}

/* The kernel lists a thread's children (CONFIG_PROC_CHILDREN). */
static int
proc_children_supported(void)
{
	char path[96];

	snprintf(path, sizeof path, "/proc/%ld/task/%ld/children",
	    (long)getpid(), (long)getpid());
	return access(path, R_OK) == 0;
}

int
proc_table_read(struct proc_table *t)
{
	struct dirent *de;
	DIR *d;
	long pid;

	t->n = 0;
	if ((d = opendir("/proc")) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		if ((pid = proc_dirent_pid(de->d_name)) == -1)
			continue;
		if (t->n == t->cap) {
			t->cap = t->cap == 0 ? 256 : t->cap * 2;
			t->procs = xrealloc(t->procs, t->cap *
			    sizeof *t->procs);
		}
		/* Gone since readdir: left out. */
		if (proc_stat_of(pid, &t->procs[t->n]) == 0)
			t->n++;
	}
	closedir(d);
	return 0;
}

/* A pid list file the size of this or more is not trusted whole. */
#define PROC_CHILDREN_SIZE	8192
/* More processes under one pane than this: the whole table instead. */
#define PROC_TREE_MAX		65536

static void
proc_table_add(struct proc_table *t, long pid)
{
	if (t->n == t->cap) {
		t->cap = t->cap == 0 ? 256 : t->cap * 2;
		t->procs = xrealloc(t->procs, t->cap * sizeof *t->procs);
	}
	/* Gone since it was named: left out. */
	if (proc_stat_of(pid, &t->procs[t->n]) == 0)
		t->n++;
}

/*
 * Add the children of every thread of pid (/proc/<pid>/task/<tid>/
 * children).  0; 1 when pid is gone; -1 when the kernel has no such
 * file or a list did not fit (the caller reads the whole table then).
 */
static int
proc_children_add(struct proc_table *t, long pid)
{
	char path[320], list[PROC_CHILDREN_SIZE], *p, *end;
	struct dirent *de;
	ssize_t len;
	long kid;
	DIR *d;
	int rc = 0;

	snprintf(path, sizeof path, "/proc/%ld/task", pid);
	if ((d = opendir(path)) == NULL)
		return 1;
	while (rc == 0 && (de = readdir(d)) != NULL) {
		if (proc_dirent_pid(de->d_name) == -1)
			continue;
		snprintf(path, sizeof path, "/proc/%ld/task/%s/children", pid,
		    de->d_name);
		/* -1: the thread ended since readdir (the kernel has it). */
		if ((len = proc_read_file(path, list, sizeof list)) == -1)
			continue;
		if ((size_t)len >= sizeof list - 1) {
			rc = -1;
			break;
		}
		for (p = list; *p != '\0'; p = end) {
			kid = strtol(p, &end, 10);
			if (end == p)
				break;
			if (kid <= 0)
				continue;
			if (t->n >= PROC_TREE_MAX) {
				rc = -1;
				break;
			}
			proc_table_add(t, kid);
		}
	}
	closedir(d);
	return rc;
}

int
proc_tree_read(struct proc_table *t, long root)
{
	size_t i;

	t->n = 0;
	if (!proc_children_supported())
		return proc_table_read(t);
	proc_table_add(t, root);
	for (i = 0; i < t->n; i++) {
		if (proc_children_add(t, t->procs[i].pid) == -1)
			return proc_table_read(t);
	}
	return 0;
}

void
proc_table_free(struct proc_table *t)
{
	free(t->procs);
	t->procs = NULL;
	t->n = t->cap = 0;
}

/*
 * starttime counts clock ticks of CLOCK_BOOTTIME (proc(5)); now is
 * truncated to a tick the same way, so a process started after a reading
 * of the clock never has a smaller start_ms than that reading.
 */
unsigned long long
proc_clock_ms(void)
{
	struct timespec ts;
	unsigned long long ticks;

	if (clock_gettime(CLOCK_BOOTTIME, &ts) != 0)
		clock_gettime(CLOCK_MONOTONIC, &ts);
	ticks = (unsigned long long)ts.tv_sec * (unsigned long long)proc_ticks()
	    + (unsigned long long)ts.tv_nsec /
	    (1000000000ULL / (unsigned long long)proc_ticks());
	return proc_ticks_ms((long long)ticks);
}

int
proc_exe_name(long pid, char *buf, size_t len)
{
	static const char deleted[] = " (deleted)";
	char path[64], target[PATH_MAX];
	const char *base;
	ssize_t n;
	size_t blen;

	snprintf(path, sizeof path, "/proc/%ld/exe", pid);
	if ((n = readlink(path, target, sizeof target - 1)) <= 0)
		return -1;
	target[n] = '\0';
	blen = strlen(target);
	if (blen > sizeof deleted - 1 && strcmp(target + blen -
	    (sizeof deleted - 1), deleted) == 0)
		target[blen - (sizeof deleted - 1)] = '\0';
	base = strrchr(target, '/');
	base = base == NULL ? target : base + 1;
	if (*base == '\0' || strlen(base) >= len) {
		errno = ERANGE;
		return -1;
	}
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

/* A NUL-separated list file of /proc/<pid> (cmdline, environ) into out. */
static int
proc_nul_list(long pid, const char *file, struct aiterm_buf *out)
{
	char path[64], chunk[4096];
	size_t total = 0, before = out->len;
	ssize_t n = 0;
	int fd;

	snprintf(path, sizeof path, "/proc/%ld/%s", pid, file);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (total < PROC_CMDLINE_MAX) {
		n = read(fd, chunk, sizeof chunk);
		if (n == -1 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		buf_add(out, chunk, (size_t)n);
		total += (size_t)n;
	}
	close(fd);
	/* A zombie or a kernel thread has an empty list: unknown. */
	if (total == 0 || n == -1) {
		out->len = before;
		if (out->data != NULL)
			out->data[before] = '\0';
		return -1;
	}
	if (out->data[out->len - 1] != '\0')
		buf_addc(out, '\0');
	return 0;
}

int
proc_argv(long pid, struct aiterm_buf *out)
{
	return proc_nul_list(pid, "cmdline", out);
}

int
proc_environ(long pid, struct aiterm_buf *out)
{
	return proc_nul_list(pid, "environ", out);
}

int
proc_signal(long pid, const char *start_id, int sig)
{
	char now[PROC_START_ID_MAX];
	int rc;
#if defined(SYS_pidfd_open) && defined(SYS_pidfd_send_signal)
	int fd, saved;

	if (pid <= 0 || pid > INT_MAX) {
		errno = ESRCH;
		return -1;
	}
	/*
	 * The pidfd is the process that held pid when it was opened; a start
	 * read afterwards that is still start_id proves it is that process.
	 */
	if ((fd = (int)syscall(SYS_pidfd_open, (pid_t)pid, 0)) >= 0) {
		if (proc_start_id(pid, now, sizeof now) != 0 ||
		    strcmp(now, start_id) != 0) {
			errno = ESRCH;
			rc = -1;
		} else
			rc = (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL,
			    0) == 0 ? 0 : -1;
		saved = errno;
		close(fd);
		errno = saved;
		return rc;
	}
	if (errno == ESRCH)
		return -1;
#endif
	if (proc_start_id(pid, now, sizeof now) != 0 ||
	    strcmp(now, start_id) != 0) {
		errno = ESRCH;
		return -1;
	}
	rc = kill((pid_t)pid, sig);
	return rc;
}

int
proc_become_subreaper(void)
{
	return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0 ? 0 : -1;
}

/* Each /proc/<pid>/fd/<n> followed to its file (stat, not the link). */
int
proc_open_files(long pid, struct proc_file **files, size_t *n)
{
	struct dirent *e;
	char dir[64], path[64 + sizeof e->d_name];
	struct stat st;
	DIR *d;

	snprintf(dir, sizeof dir, "/proc/%ld/fd", pid);
	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		*files = xrealloc(*files, (*n + 1) * sizeof **files);
		(*files)[*n].dev = (unsigned long long)st.st_dev;
		(*files)[*n].ino = (unsigned long long)st.st_ino;
		(*n)++;
	}
	closedir(d);
	return 0;
}

/* The terminal on pid's standard input: its path and its modes. */
static int
tty_of(long pid, char *tty, size_t len, struct termios *t)
{
	char link[64];
	ssize_t n;
	int fd, rc;

	snprintf(link, sizeof link, "/proc/%ld/fd/0", pid);
	if ((n = readlink(link, tty, len - 1)) <= 0)
		return -1;
	tty[n] = '\0';
	if (strncmp(tty, "/dev/", 5) != 0)
		return -1;
	/* Not our controlling terminal; the pane's processes keep it open. */
	fd = open(tty, O_RDONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd == -1)
		return -1;
	rc = tcgetattr(fd, t);
	close(fd);
	return rc == 0 ? 0 : -1;
}

int
proc_tty_canonical(long pid)
{
	char tty[PATH_MAX];
	struct termios t;

	if (tty_of(pid, tty, sizeof tty, &t) != 0)
		return -1;
	return (t.c_lflag & ICANON) != 0;
}

/*
 * Whether p is blocked in read(2) on the terminal tty (/proc/<p>/syscall:
 * the call's number and first argument, the descriptor): 1 yes, 0 no,
 * -1 cannot be told (not ours to inspect: a set-user-ID sudo).
 */
static int
reads_tty(long p, const char *tty)
{
	char path[64], link[PATH_MAX], line[256];
	unsigned long fd;
	long nr;
	ssize_t n;

	snprintf(path, sizeof path, "/proc/%ld/syscall", p);
	if ((n = proc_read_file(path, line, sizeof line)) <= 0)
		return -1;
	/* "running", or a call with no arguments shown. */
	if (sscanf(line, "%ld 0x%lx", &nr, &fd) != 2 || nr != SYS_read)
		return 0;
	snprintf(path, sizeof path, "/proc/%ld/fd/%lu", p, fd);
	if ((n = readlink(path, link, sizeof link - 1)) <= 0)
		return -1;
	link[n] = '\0';
	/*
	 * /dev/tty is its controlling terminal: the one whose foreground
	 * group it is in (ssh and sudo open it for the password).
	 */
	return strcmp(link, tty) == 0 || strcmp(link, "/dev/tty") == 0;
}

int
proc_tty_secret(long pid)
{
	struct proc_table tab = PROC_TABLE_INIT;
	char tty[PATH_MAX];
	struct termios t;
	long pgrp, tpgid;
	size_t i;
	int rc = PROC_SECRET_NO, r;

	if (tty_of(pid, tty, sizeof tty, &t) != 0)
		return -1;
	/* Lines read with echo off: what a password prompt sets. */
	if ((t.c_lflag & ECHO) != 0 || (t.c_lflag & ICANON) == 0)
		return PROC_SECRET_NO;
	if (proc_tty_foreground(pid, &pgrp, &tpgid) != 0 ||
	    proc_tree_read(&tab, pid) != 0)
		return -1;
	for (i = 0; i < tab.n && rc != PROC_SECRET_READ; i++) {
		if (tab.procs[i].pgrp != tpgid ||
		    tab.procs[i].state != PROC_SLEEPING)
			continue;
		if ((r = reads_tty(tab.procs[i].pid, tty)) == 1)
			rc = PROC_SECRET_READ;
		else if (r < 0)
			rc = PROC_SECRET_HIDDEN;
	}
	proc_table_free(&tab);
	return rc;
}
