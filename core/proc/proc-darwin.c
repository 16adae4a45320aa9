/*
 * The process layer on macOS: what proc_pidinfo(PROC_PIDTBSDINFO) says.
 */
#include <sys/types.h>
#include <sys/proc_info.h>

#include <errno.h>
#include <libproc.h>
#include <limits.h>
#include <stdio.h>

#include "proc/proc.h"

/*
 * The start identifier is the process start time, "<seconds>.<microseconds>"
 * since the epoch, which differs whenever the PID is reused.
 */
int
proc_start_id(long pid, char *buf, size_t len)
{
	struct proc_bsdinfo info;
	int n;

	if (pid <= 0 || pid > INT_MAX) {
		errno = ESRCH;
		return -1;
	}
	n = proc_pidinfo((int)pid, PROC_PIDTBSDINFO, 0, &info,
	    PROC_PIDTBSDINFO_SIZE);
	if (n != PROC_PIDTBSDINFO_SIZE) {
		if (n > 0)
			errno = EIO;
		return -1;
	}
	n = snprintf(buf, len, "%llu.%06llu",
	    (unsigned long long)info.pbi_start_tvsec,
	    (unsigned long long)info.pbi_start_tvusec);
	if (n < 0 || (size_t)n >= len) {
		errno = ERANGE;
		return -1;
	}
	return 0;
}

int
proc_tty_foreground(long pid, long *pgrp, long *tpgid)
{
	struct proc_bsdinfo info;

	if (pid <= 0 || pid > INT_MAX || proc_pidinfo((int)pid,
	    PROC_PIDTBSDINFO, 0, &info, PROC_PIDTBSDINFO_SIZE) !=
	    PROC_PIDTBSDINFO_SIZE) {
		errno = ESRCH;
		return -1;
	}
	*pgrp = (long)info.pbi_pgid;
	*tpgid = (long)info.e_tpgid;
	return 0;
}
