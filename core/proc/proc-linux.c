/*
 * The process layer on Linux: what /proc/<pid>/stat says.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc/proc.h"

/*
 * starttime is field 22 of /proc/<pid>/stat (proc(5)), in clock ticks
 * since boot.  Field 2 is the command name in parentheses, which may hold
 * spaces and ')' itself, so fields are counted from the last ')', after
 * which field 3 begins.
 */
#define PROC_STAT_STARTTIME	22
#define PROC_STAT_AFTER_COMM	3

/* Large enough for every field and any command name the kernel prints. */
#define PROC_STAT_SIZE		4096

/* Read /proc/<pid>/stat into buf, NUL-terminated. */
static int
proc_read_stat(long pid, char *buf, size_t size)
{
	char path[64];
	size_t len = 0;
	ssize_t n;
	int fd, rc = -1;

	snprintf(path, sizeof path, "/proc/%ld/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return -1;
	while (len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1)
			goto out_close;
		if (n == 0)
			break;
		len += (size_t)n;
	}
	buf[len] = '\0';
	rc = 0;

out_close:
	close(fd);
	return rc;
}

/* Find field number want (counted as in proc(5)); fills *field and *flen. */
static int
proc_stat_field(const char *stat, int want, const char **field, size_t *flen)
{
	const char *p, *start = NULL;
	int n;

	if ((p = strrchr(stat, ')')) == NULL)
		return -1;
	p++;
	for (n = PROC_STAT_AFTER_COMM; n <= want; n++) {
		if (*p != ' ')
			return -1;
		start = ++p;
		while (*p != ' ' && *p != '\n' && *p != '\0')
			p++;
		if (p == start)
			return -1;
	}
	*field = start;
	*flen = (size_t)(p - start);
	return 0;
}

int
proc_start_id(long pid, char *buf, size_t len)
{
	char stat[PROC_STAT_SIZE];
	const char *field;
	size_t flen, i;

	if (pid <= 0 || pid > INT_MAX) {
		errno = ESRCH;
		return -1;
	}
	if (proc_read_stat(pid, stat, sizeof stat) == -1)
		return -1;
	if (proc_stat_field(stat, PROC_STAT_STARTTIME, &field, &flen) == -1) {
		errno = EINVAL;
		return -1;
	}
	for (i = 0; i < flen; i++) {
		if (!isdigit((unsigned char)field[i])) {
			errno = EINVAL;
			return -1;
		}
	}
	if (flen >= len) {
		errno = ERANGE;
		return -1;
	}
	memcpy(buf, field, flen);
	buf[flen] = '\0';
	return 0;
}

/* Fields 5 (pgrp) and 8 (tpgid) of /proc/<pid>/stat. */
#define PROC_STAT_PGRP		5
#define PROC_STAT_TPGID		8

static int
proc_stat_long(const char *stat, int want, long *out)
{
	const char *field;
	char num[32];
	size_t flen;

	if (proc_stat_field(stat, want, &field, &flen) == -1 ||
	    flen >= sizeof num)
		return -1;
	memcpy(num, field, flen);
	num[flen] = '\0';
	*out = strtol(num, NULL, 10);
	return 0;
}

int
proc_tty_foreground(long pid, long *pgrp, long *tpgid)
{
	char stat[PROC_STAT_SIZE];

	if (pid <= 0 || pid > INT_MAX || proc_read_stat(pid, stat,
	    sizeof stat) == -1)
		return -1;
	if (proc_stat_long(stat, PROC_STAT_PGRP, pgrp) == -1 ||
	    proc_stat_long(stat, PROC_STAT_TPGID, tpgid) == -1) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}
