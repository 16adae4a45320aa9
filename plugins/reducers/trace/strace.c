/*
 * strace (without -c): the calls that failed ("= -1 ENOENT (...)"), the
 * program's own messages (its writes to fd 1 and 2) and the calls that
 * shape its processes (execve, clone, exit) stay, as does every line that
 * is no call (the program's output, "+++ exited with 1 +++"); each run of
 * other calls becomes "[… 412 calls: read 300, access 100, brk 12]"
 * (calls.c).
 *
 * After a successful execve, a program's first system calls are the
 * loader's (ld.so.preload, ld.so.cache, mapping each shared library,
 * TLS and stack limits) and the same for every program.  That run, up to
 * the first call that is not the loader's (an open of a file that is not
 * a library, a write, a clone ...), becomes one line naming the libraries
 * it loaded: "(+27 loader calls: libc.so.6)", with the process's
 * "[pid N] " when strace -f gave one.  A failed call of a library open
 * in it is the loader's search and folds with it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calls.h"

#define ST_PIDS		32	/* processes followed at once */
#define ST_MIN_RUN	4	/* shorter loader runs stay as they are */

/* The loader's calls. */
static const char *const st_loader[] = {
	"brk(", "mmap(", "mprotect(", "munmap(", "access(", "openat(",
	"open(", "newfstatat(", "fstat(", "read(", "pread64(", "close(",
	"arch_prctl(", "set_tid_address(", "set_robust_list(", "rseq(",
	"prlimit64(", "getrandom(", "statfs(", NULL,
};

/* Calls that always stay: the program's messages, its processes. */
static const char *const st_keep[] = {
	"write(1,", "write(2,", "writev(1,", "writev(2,", "pwrite64(2,",
	"execve(", "execveat(", "clone(", "clone3(", "fork(", "vfork(",
	"exit(", "exit_group(", "kill(", "tgkill(", "wait4(", NULL,
};

/* A process followed: its loader run, while it lasts. */
struct st_proc {
	struct rl_line	 pid;		/* "[pid 123] ", or empty */
	size_t		 run;		/* its open run + 1, 0 when none */
};

/* One loader run: where it starts, how many calls, what it loaded. */
struct st_run {
	struct rl_line	 pid;
	size_t		 first, n;	/* its first line, its calls */
	char		 libs[160];
};

/* "= -1 ENOENT (...)", "= ? ERESTARTSYS": the call failed. */
static bool
st_failed(struct rl_line c, struct rl_line name, struct rl_line ret)
{
	(void)c;
	(void)name;
	return (ret.len >= 2 && ret.p[0] == '-' && ret.p[1] >= '0' &&
	    ret.p[1] <= '9' && memchr(ret.p, 'E', ret.len) != NULL) ||
	    (ret.len > 2 && ret.p[0] == '?' && ret.p[1] == ' ');
}

static const struct tr_calls st_spec = { st_failed, st_keep };

static bool
loader_call(struct rl_line c)
{
	size_t i;

	for (i = 0; st_loader[i] != NULL; i++) {
		if (!rl_starts(&c, st_loader[i]))
			continue;
		/* A file opened is the loader's only when it is a library. */
		if (rl_starts(&c, "open") || rl_starts(&c, "access("))
			return rl_has(&c, "/ld.so.") || rl_has(&c, ".so\"") ||
			    rl_has(&c, ".so.");
		return true;
	}
	return false;
}

/* The file name of a library opened: "libc.so.6". */
static void
note_lib(struct st_run *r, struct rl_line c)
{
	const char *q, *e, *s;
	size_t n, have = strlen(r->libs);

	if (!rl_starts(&c, "open") || rl_has(&c, "= -1") ||
	    rl_has(&c, "/ld.so.") || (q = memchr(c.p, '"', c.len)) == NULL ||
	    (e = memchr(q + 1, '"', c.len - (size_t)(q + 1 - c.p))) == NULL)
		return;
	for (s = e; s > q + 1 && s[-1] != '/'; s--)
		;
	n = (size_t)(e - s);
	if (n == 0 || have + n + 3 >= sizeof r->libs)
		return;
	if (have > 0) {
		memcpy(r->libs + have, ", ", 2);
		have += 2;
	}
	memcpy(r->libs + have, s, n);
	r->libs[have + n] = '\0';
}

static struct st_proc *
proc_of(struct st_proc *v, size_t *n, struct rl_line pid)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if (v[i].pid.len == pid.len && memcmp(v[i].pid.p, pid.p,
		    pid.len) == 0)
			return &v[i];
	}
	if (*n == ST_PIDS)
		return NULL;
	v[*n].pid = pid;
	v[*n].run = 0;
	return &v[(*n)++];
}

/*
 * Mark each loader run of ST_MIN_RUN calls or more as a group (group[i]
 * its number) and write its line into what[]; the number of groups.
 */
static size_t
loader_groups(const struct rl_lines *t, size_t *group, char **what,
    struct st_run *runs)
{
	struct st_proc procs[ST_PIDS], *p;
	struct rl_line pid, c;
	size_t i, nprocs = 0, nruns = 0, ngroups = 0, *num;
	struct st_run *r;

	for (i = 0; i < t->n; i++) {
		pid = tr_pid_prefix(t->v[i]);
		c = rl_from(t->v[i], pid.len);
		if ((p = proc_of(procs, &nprocs, pid)) == NULL)
			continue;
		if (p->run > 0 && loader_call(c)) {
			r = &runs[p->run - 1];
			if (r->n++ == 0)
				r->first = i;
			note_lib(r, c);
			group[i] = p->run;
			continue;
		}
		p->run = 0;
		if (rl_starts(&c, "execve(") && rl_ends(&c, "= 0")) {
			runs[nruns].pid = pid;
			p->run = ++nruns;
		}
	}
	if ((num = calloc(nruns + 1, sizeof *num)) == NULL)
		return 0;
	for (i = 0; i < t->n; i++) {
		if (group[i] == 0)
			continue;
		r = &runs[group[i] - 1];
		if (r->n < ST_MIN_RUN) {
			group[i] = 0;
			continue;
		}
		if (num[group[i]] == 0) {
			num[group[i]] = ++ngroups;
			if (asprintf(&what[ngroups - 1], "%.*s(+%zu loader "
			    "calls%s%s)\n", (int)r->pid.len, r->pid.p, r->n,
			    r->libs[0] != '\0' ? ": " : "", r->libs) < 0)
				what[ngroups - 1] = NULL;
		}
		group[i] = num[group[i]];
	}
	free(num);
	for (i = 0; i < ngroups; i++)
		if (what[i] == NULL)
			return 0;
	return ngroups;
}

int
red_strace(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct tr_groups g = { NULL, NULL };
	struct st_run *runs = NULL;
	struct rl_lines t;
	size_t *group = NULL, i;
	char **what = NULL;
	int rc = -1;

	/* strace -c's table is a summary already. */
	if (tr_summary_asked(in->argv, "abeEIoOpPsSuUX"))
		return -1;
	if (!rl_split(in, &t))
		return -1;
	if (t.n == 0 || (runs = calloc(t.n, sizeof *runs)) == NULL ||
	    (group = calloc(t.n, sizeof *group)) == NULL ||
	    (what = calloc(t.n, sizeof *what)) == NULL)
		goto out;
	if (loader_groups(&t, group, what, runs) == 0)
		memset(group, 0, t.n * sizeof *group);
	g.group = group;
	g.what = what;
	rc = tr_calls_reduce(h, in, out, &t, &st_spec, &g);
out:
	for (i = 0; what != NULL && i < t.n; i++)
		free(what[i]);
	free(what);
	free(runs);
	free(group);
	rl_lines_free(&t);
	return rc;
}
