/* A pane's family over a process table: see family.h for the rule. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proc/family.h"
#include "util/buf.h"
#include "util/xmalloc.h"

struct by_pid {
	long	pid;
	size_t	row;
};

static int
by_pid_cmp(const void *a, const void *b)
{
	const struct by_pid *x = a, *y = b;

	return x->pid < y->pid ? -1 : x->pid > y->pid;
}

/* The row of pid, or n. */
static size_t
row_of(const struct by_pid *idx, size_t n, long pid)
{
	struct by_pid key = { pid, 0 }, *hit;

	if (pid <= 0)
		return n;
	hit = bsearch(&key, idx, n, sizeof *idx, by_pid_cmp);
	return hit == NULL ? n : hit->row;
}

static bool
is_known(const struct proc_stat *ps, const struct family_rules *r)
{
	size_t k;

	for (k = 0; k < r->nknown; k++) {
		if (r->known[k].pid == ps->pid &&
		    strcmp(r->known[k].start_id, ps->start_id) == 0)
			return true;
	}
	return false;
}

/* In member (true) by another row, not by itself. */
static bool
via(const bool *member, size_t n, size_t self, size_t row)
{
	return row < n && row != self && member[row];
}

void
family_select(const struct proc_stat *t, size_t n,
    const struct family_rules *r, bool *member)
{
	struct by_pid *idx = xcalloc(n == 0 ? 1 : n, sizeof *idx);
	bool *known = xcalloc(n == 0 ? 1 : n, sizeof *known);
	bool *prot = xcalloc(n == 0 ? 1 : n, sizeof *prot);
	bool changed;
	size_t i, pass, up;

	for (i = 0; i < n; i++) {
		idx[i].pid = t[i].pid;
		idx[i].row = i;
		known[i] = is_known(&t[i], r);
		prot[i] = r->protect != NULL && r->protect[i];
		member[i] = false;
	}
	qsort(idx, n, sizeof *idx, by_pid_cmp);
	/* Protection runs down the parent links and stops at a known one. */
	for (pass = 0, changed = true; changed && pass <= n; pass++) {
		changed = false;
		for (i = 0; i < n; i++) {
			if (prot[i] || known[i])
				continue;
			up = row_of(idx, n, t[i].ppid);
			if (via(prot, n, i, up)) {
				prot[i] = true;
				changed = true;
			}
		}
	}
	for (pass = 0, changed = true; changed && pass <= n; pass++) {
		changed = false;
		for (i = 0; i < n; i++) {
			/* init: never, though its orphans may be. */
			if (member[i] || prot[i] || t[i].pid <= 1)
				continue;
			if (known[i] || (r->marked != NULL && r->marked[i]) ||
			    via(member, n, i, row_of(idx, n, t[i].ppid)) ||
			    via(member, n, i, row_of(idx, n, t[i].sid)) ||
			    via(member, n, i, row_of(idx, n, t[i].pgrp))) {
				member[i] = true;
				changed = true;
			}
		}
	}
	free(prot);
	free(known);
	free(idx);
}

/* Every one of marks is an entry of env (NUL-separated, len bytes). */
static bool
carries_all(const struct aiterm_buf *env, const char *const *marks)
{
	const char *p, *end = env->data + env->len;
	size_t m;
	bool found;

	for (m = 0; marks[m] != NULL; m++) {
		found = false;
		for (p = env->data; !found && p < end; p += strlen(p) + 1)
			found = strcmp(p, marks[m]) == 0;
		if (!found)
			return false;
	}
	return true;
}

static bool
carries(long pid, const char *const *marks)
{
	struct aiterm_buf env = BUF_INIT;
	bool yes;

	yes = proc_environ(pid, &env) == 0 && carries_all(&env, marks);
	buf_free(&env);
	return yes;
}

static bool
protected(const struct family_query *q, const struct proc_stat *ps)
{
	char exe[PROC_NAME_MAX];
	size_t i;

	if (ps->pid == (long)getpid())
		return true;
	for (i = 0; i < q->nprotect; i++) {
		if (q->protect_pids[i] == ps->pid)
			return true;
	}
	return q->protect_exe != NULL && proc_exe_name(ps->pid, exe,
	    sizeof exe) == 0 && strcmp(exe, q->protect_exe) == 0;
}

int
family_read(const struct family_query *q, struct proc_table *t, bool **member)
{
	struct family_rules r;
	bool *marked, *protect;
	size_t i;

	*member = NULL;
	if (proc_table_read(t) != 0)
		return -1;
	marked = xcalloc(t->n == 0 ? 1 : t->n, sizeof *marked);
	protect = xcalloc(t->n == 0 ? 1 : t->n, sizeof *protect);
	for (i = 0; i < t->n; i++) {
		const struct proc_stat *ps = &t->procs[i];

		protect[i] = protected(q, ps);
		marked[i] = !protect[i] && q->marks != NULL &&
		    ps->state != PROC_ZOMBIE &&
		    ps->start_ms >= q->marks_since_ms &&
		    carries(ps->pid, q->marks);
	}
	memset(&r, 0, sizeof r);
	r.known = q->known;
	r.nknown = q->nknown;
	r.marked = marked;
	r.protect = protect;
	*member = xcalloc(t->n == 0 ? 1 : t->n, sizeof **member);
	family_select(t->procs, t->n, &r, *member);
	free(protect);
	free(marked);
	return 0;
}
