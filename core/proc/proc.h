/*
 * The process layer: what the OS says about a process.  One file per
 * platform (proc-linux.c, proc-darwin.c) behind this interface, chosen by
 * the build.
 */
#ifndef AITERM_PROC_H
#define AITERM_PROC_H

#include <stddef.h>

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

#endif
