/*
 * The process layer: what the OS says about a process.  One file per
 * platform (proc-linux.c, proc-darwin.c) behind this interface, chosen by
 * the build.  What is decided from these facts without the OS (which
 * processes are one launch) is in launch.c.
 */
#ifndef AITERM_PROC_H
#define AITERM_PROC_H

#include <stdbool.h>
#include <stddef.h>

#include "util/buf.h"

#define PROC_START_ID_MAX	32
#define PROC_NAME_MAX		64

/*
 * A start identifier for pid that differs whenever the PID is reused
 * (Linux: boot-relative start time in clock ticks from /proc/<pid>/stat).
 * Returns 0 and fills buf, or -1 when the process does not exist.
 */
int	proc_start_id(long pid, char *buf, size_t len);

/*
 * The process group of pid and the foreground process group of its
 * controlling terminal.  The process is in the foreground when they are
 * equal.  Returns 0, or -1 when the process does not exist.
 */
int	proc_tty_foreground(long pid, long *pgrp, long *tpgid);

enum proc_state {
	PROC_RUNNING,		/* on a CPU or runnable */
	PROC_SLEEPING,		/* waiting (any kind of sleep) */
	PROC_STOPPED,		/* SIGSTOP/SIGTSTP or a tracing stop */
	PROC_ZOMBIE,		/* exited, not reaped yet */
	PROC_OTHER,		/* anything else the OS reports */
};

/* One row of the process table. */
struct proc_stat {
	long		 pid;
	long		 ppid;
	long		 pgrp;
	long		 sid;		/* its session (the leader's pid), -1 unknown */
	long		 tpgid;		/* foreground group of its tty, -1 none */
	enum proc_state	 state;
	/*
	 * Start time in ms on the clock of proc_clock_ms (Linux: since boot),
	 * comparable only with other start_ms and proc_clock_ms.
	 */
	unsigned long long start_ms;
	unsigned long long cpu_ms;	/* user + system CPU so far */
	/*
	 * CPU of its children that it waited for (Linux cutime + cstime);
	 * 0 where the platform does not say (macOS).
	 */
	unsigned long long child_cpu_ms;
	char		 start_id[PROC_START_ID_MAX];	/* as proc_start_id */
	/*
	 * What the process runs, for classifying it: the OS's short command
	 * name from the table; proc_exe_name is the better source.  Never
	 * returned to a client.
	 */
	char		 name[PROC_NAME_MAX];
};

struct proc_table {
	struct proc_stat	*procs;
	size_t			 n;
	size_t			 cap;
};

#define PROC_TABLE_INIT { NULL, 0, 0 }

/*
 * Every process the OS shows now, one read of each.  Processes that end
 * while the table is read are left out.  Returns 0, or -1 with errno.
 */
int	proc_table_read(struct proc_table *t);
/*
 * root and its descendants only, as the parent links say now (what
 * proc_table_read would show of them, without reading every process):
 * Linux walks /proc/<pid>/task/<tid>/children; where that is missing, or
 * a list is too long to trust, the whole table.  Returns 0, or -1 with
 * errno; a root that is gone gives an empty table.
 */
int	proc_tree_read(struct proc_table *t, long root);
void	proc_table_free(struct proc_table *t);

/* Now on the clock and at the resolution of proc_stat.start_ms. */
unsigned long long proc_clock_ms(void);

/*
 * The file name (no directory) of the executable pid runs, NUL-terminated.
 * Returns 0, or -1 when it cannot be read.
 */
int	proc_exe_name(long pid, char *buf, size_t len);

/*
 * The executable name of the job in the foreground of pid's terminal when
 * that job is not pid's own process group (a program a shell runs): 0, or
 * -1 when the shell itself is in the foreground or nothing can be read.
 */
static inline int
proc_tty_job_exe(long pid, char *buf, size_t len)
{
	long pgrp, tpgid;

	if (proc_tty_foreground(pid, &pgrp, &tpgid) != 0 || tpgid <= 0 ||
	    tpgid == pgrp)
		return -1;
	return proc_exe_name(tpgid, buf, len);
}

/*
 * Append pid's argument vector to out, each argument followed by a NUL.
 * Returns 0, or -1 when it cannot be read (gone, a zombie, not ours).
 */
int	proc_argv(long pid, struct aiterm_buf *out);

/* A file a process holds open, by device and inode (AGT-JOB). */
struct proc_file {
	unsigned long long	 dev;
	unsigned long long	 ino;
};

/*
 * Append the regular files pid holds open to *files (grown with
 * xrealloc; *n counts them).  Returns 0, or -1 when they cannot be read
 * (gone, not ours, or a platform that does not say).
 */
int	proc_open_files(long pid, struct proc_file **files, size_t *n);
/*
 * Append pid's environment to out, each "NAME=value" followed by a NUL
 * (Linux: /proc/<pid>/environ, what it was started with).  Returns 0, or
 * -1 when it cannot be read (gone, not ours; macOS: not supported, ENOSYS).
 */
int	proc_environ(long pid, struct aiterm_buf *out);

/*
 * Whether the terminal on pid's standard input reads by lines (ICANON
 * on: 1) or key by key (0: a line editor, a REPL or ssh at its prompt, a
 * full-screen program).  -1 when it cannot be told (gone, not a terminal,
 * not ours; macOS: not supported).
 */
int	proc_tty_canonical(long pid);

/*
 * Whether the terminal on pid's standard input waits for a secret (issue
 * 36): it reads lines with echo off (termios ECHO clear, ICANON set) and
 * a process of its foreground group among pid and its descendants is
 * blocked in read(2) on it (PROC_SECRET_READ), or sleeps where it cannot
 * be inspected (PROC_SECRET_HIDDEN: a set-user-ID sudo or su; the caller
 * wants more evidence, its prompt).  PROC_SECRET_NO otherwise; -1 when it
 * cannot be told (gone, not a terminal; macOS: not supported).
 */
enum {
	PROC_SECRET_NO,
	PROC_SECRET_READ,
	PROC_SECRET_HIDDEN,
};
int	proc_tty_secret(long pid);

/* One row of the process table for pid.  Returns 0, or -1 when it is gone. */
int	proc_stat_get(long pid, struct proc_stat *ps);

/*
 * Send sig to pid only while it is still the process of start_id (as
 * proc_start_id), so a reused pid is never signalled.  Linux checks and
 * signals through a pidfd: both are about one process.  Where there is no
 * pidfd (macOS) the start is checked just before kill(2).  Returns 0, or
 * -1 with errno (ESRCH: gone, or the pid is another process's now).
 */
int	proc_signal(long pid, const char *start_id, int sig);

/*
 * Make this process the reaper of its orphaned descendants (SUP-RUN), so
 * that a grandchild which left its process group is still ours to find
 * and end.  Returns 0, or -1 where the platform has no such thing.
 */
int	proc_become_subreaper(void);

#endif
