/*
 * strace: each process's start-up inside the dynamic loader, folded.
 *
 * After a successful execve, a program's first system calls are the
 * loader's (ld.so.preload, ld.so.cache, mapping each shared library,
 * TLS and stack limits) and the same for every program.  That run, up to
 * the first call that is not the loader's (an open of a file that is not
 * a library, a write, a clone ...), becomes one line naming the libraries
 * it loaded: "(+27 loader calls: libc.so.6)", with the process's
 * "[pid N] " when strace -f gave one.  The execve line and every later
 * line stay as they are, as does any failed call of a library open.
 * Output with no such run is declined.
 */
#include <stdlib.h>
#include <string.h>

#include "sys.h"

#define ST_PIDS		32	/* processes followed at once */
#define ST_MIN_RUN	4	/* shorter runs stay as they are */

/* The loader's calls. */
static const char *const st_loader[] = {
	"brk(", "mmap(", "mprotect(", "munmap(", "access(", "openat(",
	"open(", "newfstatat(", "fstat(", "read(", "pread64(", "close(",
	"arch_prctl(", "set_tid_address(", "set_robust_list(", "rseq(",
	"prlimit64(", "getrandom(", "statfs(", NULL,
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

/* "[pid 123] " at the start of l (len 0 when none). */
static struct rl_line
pid_prefix(struct rl_line l)
{
	const char *e;

	if (!rl_starts(&l, "[pid ") || (e = memchr(l.p, ']', l.len)) ==
	    NULL || (size_t)(e - l.p) + 2 > l.len)
		return (struct rl_line){ l.p, 0 };
	return (struct rl_line){ l.p, (size_t)(e - l.p) + 2 };
}

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

int
red_strace(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct st_proc procs[ST_PIDS];
	struct st_run *runs = NULL, *r;
	struct st_proc *p;
	struct rl_lines t;
	struct rl_line pid, c;
	size_t *in_run = NULL, i, nprocs = 0, nruns = 0, folded = 0;
	int rc = -1;

	if (!rl_split(in, &t))
		return -1;
	if (t.n == 0 || (runs = calloc(t.n, sizeof *runs)) == NULL ||
	    (in_run = calloc(t.n, sizeof *in_run)) == NULL)
		goto out;
	for (i = 0; i < t.n; i++) {
		pid = pid_prefix(t.v[i]);
		c = rl_from(t.v[i], pid.len);
		if ((p = proc_of(procs, &nprocs, pid)) == NULL)
			continue;
		if (p->run > 0 && loader_call(c)) {
			r = &runs[p->run - 1];
			if (r->n++ == 0)
				r->first = i;
			note_lib(r, c);
			in_run[i] = p->run;
			continue;
		}
		p->run = 0;
		if (rl_starts(&c, "execve(") && rl_ends(&c, "= 0")) {
			runs[nruns].pid = pid;
			p->run = ++nruns;
		}
	}
	for (i = 0; i < t.n; i++) {
		r = in_run[i] > 0 ? &runs[in_run[i] - 1] : NULL;
		if (r == NULL || r->n < ST_MIN_RUN) {
			rl_put(h, out, &t.v[i]);
			continue;
		}
		folded++;
		if (i == r->first)
			h->buf_printf(out, "%.*s(+%zu loader calls%s%s)\n",
			    (int)r->pid.len, r->pid.p, r->n,
			    r->libs[0] != '\0' ? ": " : "", r->libs);
	}
	rc = folded > 0 ? 0 : -1;
out:
	free(runs);
	free(in_run);
	rl_lines_free(&t);
	return rc;
}
