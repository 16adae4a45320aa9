/*
 * The process layer on macOS: what proc_pidinfo(PROC_PIDTBSDINFO and
 * PROC_PIDTASKINFO), proc_pidpath and sysctl(KERN_PROCARGS2) say.
 *
 * Differences from Linux: the clock of start_ms is the epoch (the start
 * time is wall-clock there), child_cpu_ms is always 0 (not reported), and
 * CPU times come in Mach absolute time units, converted with
 * mach_timebase_info.
 */
#include <sys/types.h>
#include <sys/proc.h>
#include <sys/proc_info.h>
#include <sys/stat.h>
#include <sys/sysctl.h>
#include <sys/time.h>

#include <errno.h>
#include <libproc.h>
#include <limits.h>
#include <mach/mach_time.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc/proc.h"
#include "util/xmalloc.h"

/* Which proc_state each p_stat value of <sys/proc.h> is. */
static const struct {
	int		stat;
	enum proc_state	state;
} proc_states[] = {
	{ SRUN, PROC_RUNNING },
	{ SSLEEP, PROC_SLEEPING },
	{ SSTOP, PROC_STOPPED },
	{ SZOMB, PROC_ZOMBIE },
};

static int
proc_bsdinfo(long pid, struct proc_bsdinfo *info)
{
	int n;

	if (pid <= 0 || pid > INT_MAX) {
		errno = ESRCH;
		return -1;
	}
	n = proc_pidinfo((int)pid, PROC_PIDTBSDINFO, 0, info,
	    PROC_PIDTBSDINFO_SIZE);
	if (n != PROC_PIDTBSDINFO_SIZE) {
		if (n > 0)
			errno = EIO;
		return -1;
	}
	return 0;
}

static int
proc_format_start(const struct proc_bsdinfo *info, char *buf, size_t len)
{
	int n;

	n = snprintf(buf, len, "%llu.%06llu",
	    (unsigned long long)info->pbi_start_tvsec,
	    (unsigned long long)info->pbi_start_tvusec);
	if (n < 0 || (size_t)n >= len) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

/*
 * The start identifier is the process start time, "<seconds>.<microseconds>"
 * since the epoch, which differs whenever the PID is reused.
 */
int
proc_start_id(long pid, char *buf, size_t len)
{
	struct proc_bsdinfo info;

	if (proc_bsdinfo(pid, &info) == -1)
		return -1;
	return proc_format_start(&info, buf, len);
}

int
proc_tty_foreground(long pid, long *pgrp, long *tpgid)
{
	struct proc_bsdinfo info;

	if (proc_bsdinfo(pid, &info) == -1) {
		errno = ESRCH;
		return -1;
	}
	*pgrp = (long)info.pbi_pgid;
	*tpgid = (long)info.e_tpgid;
	return 0;
}

static enum proc_state
proc_state_of(unsigned status)
{
	size_t i;

	for (i = 0; i < sizeof proc_states / sizeof proc_states[0]; i++) {
		if ((unsigned)proc_states[i].stat == status)
			return proc_states[i].state;
	}
	return PROC_OTHER;
}

static unsigned long long
proc_mach_ms(uint64_t t)
{
	static mach_timebase_info_data_t tb;

	if (tb.denom == 0 && (mach_timebase_info(&tb) != KERN_SUCCESS ||
	    tb.denom == 0)) {
		tb.numer = 1;
		tb.denom = 1;
	}
	return (unsigned long long)(t / 1000000ULL * tb.numer / tb.denom);
}

static int
proc_stat_of(long pid, struct proc_stat *ps)
{
	struct proc_bsdinfo info;
	struct proc_taskinfo ti;

	memset(ps, 0, sizeof *ps);
	if (proc_bsdinfo(pid, &info) == -1 ||
	    proc_format_start(&info, ps->start_id, sizeof ps->start_id) == -1)
		return -1;
	ps->pid = pid;
	ps->ppid = (long)info.pbi_ppid;
	ps->pgrp = (long)info.pbi_pgid;
	ps->sid = (long)getsid((pid_t)pid);
	ps->tpgid = info.e_tpgid > 0 ? (long)info.e_tpgid : -1;
	ps->state = proc_state_of(info.pbi_status);
	ps->start_ms = (unsigned long long)info.pbi_start_tvsec * 1000ULL +
	    (unsigned long long)info.pbi_start_tvusec / 1000ULL;
	snprintf(ps->name, sizeof ps->name, "%s", info.pbi_name[0] != '\0' ?
	    info.pbi_name : info.pbi_comm);
	/* A zombie has no task: its CPU reads as 0. */
	if (proc_pidinfo((int)pid, PROC_PIDTASKINFO, 0, &ti, sizeof ti) ==
	    (int)sizeof ti)
		ps->cpu_ms = proc_mach_ms(ti.pti_total_user) +
		    proc_mach_ms(ti.pti_total_system);
	return 0;
}

int
proc_stat_get(long pid, struct proc_stat *ps)
{
	return proc_stat_of(pid, ps);
}

int
proc_table_read(struct proc_table *t)
{
	int *pids, want, got, i;

	t->n = 0;
	if ((want = proc_listallpids(NULL, 0)) <= 0)
		return -1;
	want += 64;
	pids = xcalloc((size_t)want, sizeof *pids);
	got = proc_listallpids(pids, want * (int)sizeof *pids);
	if (got <= 0) {
		free(pids);
		return -1;
	}
	if (got > want)
		got = want;
	if (t->cap < (size_t)got) {
		t->cap = (size_t)got;
		t->procs = xrealloc(t->procs, t->cap * sizeof *t->procs);
	}
	for (i = 0; i < got; i++) {
		if (pids[i] > 0 && proc_stat_of(pids[i], &t->procs[t->n]) == 0)
			t->n++;
	}
	free(pids);
	return 0;
}

/* macOS has no children list to walk: the whole table. */
int
proc_tree_read(struct proc_table *t, long root)
{
	(void)root;
	return proc_table_read(t);
}

void
proc_table_free(struct proc_table *t)
{
	free(t->procs);
	t->procs = NULL;
	t->n = t->cap = 0;
}

unsigned long long
proc_clock_ms(void)
{
	struct timeval tv;

	gettimeofday(&tv, NULL);
	return (unsigned long long)tv.tv_sec * 1000ULL +
	    (unsigned long long)tv.tv_usec / 1000ULL;
}

int
proc_exe_name(long pid, char *buf, size_t len)
{
	char path[PROC_PIDPATHINFO_MAXSIZE];
	const char *base;

	if (pid <= 0 || pid > INT_MAX || proc_pidpath((int)pid, path,
	    sizeof path) <= 0)
		return -1;
	base = strrchr(path, '/');
	base = base == NULL ? path : base + 1;
	if (*base == '\0' || strlen(base) >= len) {
		errno = ERANGE;
		return -1;
	}
	memcpy(buf, base, strlen(base) + 1);
	return 0;
}

static int
proc_argmax(void)
{
	int mib[2] = { CTL_KERN, KERN_ARGMAX }, argmax;
	size_t size = sizeof argmax;

	if (sysctl(mib, 2, &argmax, &size, NULL, 0) == -1 || argmax <= 0)
		return -1;
	return argmax;
}

/*
 * KERN_PROCARGS2: int argc, the executable path, NUL padding, then argc
 * NUL-terminated arguments (the environment follows, never read here).
 */
int
proc_argv(long pid, struct aiterm_buf *out)
{
	int mib[3] = { CTL_KERN, KERN_PROCARGS2, 0 }, argmax, argc;
	size_t size;
	char *buf, *p, *end;
	int rc = -1;

	if (pid <= 0 || pid > INT_MAX || (argmax = proc_argmax()) == -1)
		return -1;
	mib[2] = (int)pid;
	buf = xmalloc((size_t)argmax);
	size = (size_t)argmax;
	if (sysctl(mib, 3, buf, &size, NULL, 0) == -1 || size < sizeof argc)
		goto out;
	memcpy(&argc, buf, sizeof argc);
	end = buf + size;
	p = buf + sizeof argc;
	while (p < end && *p != '\0')
		p++;
	while (p < end && *p == '\0')
		p++;
	if (argc <= 0 || p >= end)
		goto out;
	for (; argc > 0 && p < end; argc--) {
		size_t n = strnlen(p, (size_t)(end - p));

		buf_add(out, p, n);
		buf_addc(out, '\0');
		p += n + 1;
	}
	rc = 0;
out:
	free(buf);
	return rc;
}

/*
 * Not read on macOS yet: KERN_PROCARGS2 holds the environment after argv,
 * but nothing here has been run on a Mac.  Without it a closed session's
 * processes are found by ancestry, session and group only (PTY-CLOSE).
 */
int
proc_environ(long pid, struct aiterm_buf *out)
{
	(void)pid;
	(void)out;
	errno = ENOSYS;
	return -1;
}

/* No pidfd: the start is checked just before kill(2). */
int
proc_signal(long pid, const char *start_id, int sig)
{
	char now[PROC_START_ID_MAX];

	if (proc_start_id(pid, now, sizeof now) != 0 ||
	    strcmp(now, start_id) != 0) {
		errno = ESRCH;
		return -1;
	}
	return kill((pid_t)pid, sig);
}

/* macOS has no child subreaper: a grandchild that left the group escapes. */
int
proc_become_subreaper(void)
{
	errno = ENOSYS;
	return -1;
}

/* PROC_PIDLISTFDS, then each vnode's stat (PROC_PIDFDVNODEPATHINFO). */
int
proc_open_files(long pid, struct proc_file **files, size_t *n)
{
	struct vnode_fdinfowithpath vi;
	struct proc_fdinfo *fds;
	int size, i, count;

	if (pid <= 0 || pid > INT_MAX ||
	    (size = proc_pidinfo((int)pid, PROC_PIDLISTFDS, 0, NULL, 0)) <= 0)
		return -1;
	fds = xmalloc((size_t)size);
	if ((size = proc_pidinfo((int)pid, PROC_PIDLISTFDS, 0, fds,
	    size)) <= 0) {
		free(fds);
		return -1;
	}
	count = size / (int)sizeof *fds;
	for (i = 0; i < count; i++) {
		if (fds[i].proc_fdtype != PROX_FDTYPE_VNODE ||
		    proc_pidfdinfo((int)pid, fds[i].proc_fd,
		    PROC_PIDFDVNODEPATHINFO, &vi, sizeof vi) != sizeof vi ||
		    (vi.pvip.vip_vi.vi_stat.vst_mode & S_IFMT) != S_IFREG)
			continue;
		*files = xrealloc(*files, (*n + 1) * sizeof **files);
		(*files)[*n].dev = (unsigned long long)
		    vi.pvip.vip_vi.vi_stat.vst_dev;
		(*files)[*n].ino = (unsigned long long)
		    vi.pvip.vip_vi.vi_stat.vst_ino;
		(*n)++;
	}
	free(fds);
	return 0;
}

int
proc_tty_canonical(long pid)
{
	(void)pid;
	errno = ENOSYS;
	return -1;
}

int
proc_tty_secret(long pid)
{
	(void)pid;
	errno = ENOSYS;
	return -1;
}
