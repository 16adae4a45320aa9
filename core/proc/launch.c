/*
 * Launch grouping over a process table: see launch.h for the rules and
 * doc/observe.md for why.
 */
#include <stdlib.h>
#include <string.h>

#include "proc/launch.h"
#include "util/xmalloc.h"

/* Shells: glue between a terminal and what it runs. */
static const char *const launch_shells[] = {
	"sh", "ash", "bash", "dash", "zsh", "ksh", "ksh93", "mksh", "pdksh",
	"oksh", "yash", "posh", "fish", "tcsh", "csh", "rc", "es", "nu",
	"elvish", "pwsh", "busybox", "login", NULL,
};

/* Programs that run one other program and only wait for it. */
static const char *const launch_wrappers[] = {
	"env", "nice", "nohup", "setsid", "stdbuf", "timeout", "time",
	"ionice", "chrt", "taskset", "flock", "unbuffer", "caffeinate", NULL,
};

/* Runtimes whose scripts are npm shims for a native binary. */
static const char *const launch_shim_runtimes[] = {
	"node", "nodejs", NULL,
};

struct by_ppid {
	long	ppid;
	size_t	row;
};

static bool
in_list(const char *const *list, const char *name)
{
	size_t i;

	/* A login shell's argv[0] (the fallback name) starts with '-'. */
	if (name[0] == '-')
		name++;
	for (i = 0; list[i] != NULL; i++) {
		if (strcmp(list[i], name) == 0)
			return true;
	}
	return false;
}

enum launch_role
launch_role_of(const char *name)
{
	if (in_list(launch_shells, name))
		return LAUNCH_SHELL;
	if (in_list(launch_wrappers, name))
		return LAUNCH_WRAPPER;
	return LAUNCH_CANDIDATE;
}

bool
launch_is_shim_runtime(const char *name)
{
	return in_list(launch_shim_runtimes, name);
}

static int
by_ppid_cmp(const void *a, const void *b)
{
	const struct by_ppid *x = a, *y = b;

	if (x->ppid != y->ppid)
		return x->ppid < y->ppid ? -1 : 1;
	return x->row < y->row ? -1 : x->row > y->row;
}

/* The first entry of idx (n sorted) with ppid, or n. */
static size_t
first_child(const struct by_ppid *idx, size_t n, long ppid)
{
	size_t lo = 0, hi = n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (idx[mid].ppid < ppid)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void
add_node(struct launch_tree *t, const struct proc_stat *ps, int parent)
{
	struct launch_node *nd = &t->nodes[t->n++];

	nd->ps = ps;
	nd->parent = parent;
	nd->role = ps->state == PROC_ZOMBIE ? LAUNCH_DEAD :
	    launch_role_of(ps->name);
	nd->shim_runtime = nd->role == LAUNCH_CANDIDATE &&
	    launch_is_shim_runtime(ps->name);
	nd->launch = -1;
	nd->background = false;
}

/* Breadth first from the root, so a parent always precedes its children. */
static void
collect(struct launch_tree *t, const struct proc_stat *table, size_t n,
    size_t root)
{
	struct by_ppid *idx = xcalloc(n, sizeof *idx);
	bool *seen = xcalloc(n, sizeof *seen);
	size_t i, j;

	for (i = 0; i < n; i++) {
		idx[i].ppid = table[i].ppid;
		idx[i].row = i;
	}
	qsort(idx, n, sizeof *idx, by_ppid_cmp);
	t->nodes = xcalloc(n, sizeof *t->nodes);
	seen[root] = true;
	add_node(t, &table[root], -1);
	for (i = 0; i < t->n; i++) {
		long pid = t->nodes[i].ps->pid;

		for (j = first_child(idx, n, pid); j < n &&
		    idx[j].ppid == pid; j++) {
			if (seen[idx[j].row] || table[idx[j].row].pid == pid)
				continue;
			seen[idx[j].row] = true;
			add_node(t, &table[idx[j].row], (int)i);
		}
	}
	free(seen);
	free(idx);
}

static int
new_launch(struct launch_tree *t, int head)
{
	struct launch *l;

	t->launches = xrealloc(t->launches, (t->nlaunches + 1) *
	    sizeof *t->launches);
	l = &t->launches[t->nlaunches];
	memset(l, 0, sizeof *l);
	l->head = l->body = head;
	l->shim = -1;
	return (int)t->nlaunches++;
}

/*
 * Join candidates to the launch of their nearest candidate ancestor and
 * find each body.  carrier[i] is the nearest candidate at or above node i.
 */
static void
group(struct launch_tree *t)
{
	int *carrier = xcalloc(t->n, sizeof *carrier);
	int *children = xcalloc(t->n, sizeof *children);
	int *only = xcalloc(t->n, sizeof *only);
	struct launch_node *nd;
	struct launch *l;
	size_t i;
	int up, cur;

	for (i = 0; i < t->n; i++) {
		nd = &t->nodes[i];
		up = nd->parent < 0 ? -1 : carrier[nd->parent];
		if (nd->role != LAUNCH_CANDIDATE) {
			carrier[i] = up;
			continue;
		}
		carrier[i] = (int)i;
		if (up < 0) {
			nd->launch = new_launch(t, (int)i);
		} else {
			nd->launch = t->nodes[up].launch;
			children[up]++;
			only[up] = (int)i;
		}
		l = &t->launches[nd->launch];
		l->candidates++;
		if (t->tpgid > 0 && nd->ps->pgrp == t->tpgid)
			l->foreground = true;
	}
	for (i = 0; i < t->nlaunches; i++) {
		l = &t->launches[i];
		cur = l->head;
		while (t->nodes[cur].shim_runtime && children[cur] == 1)
			cur = only[cur];
		l->body = cur;
		l->shim = cur == l->head ? -1 : l->head;
		l->stopped = t->nodes[cur].ps->state == PROC_STOPPED;
	}
	free(only);
	free(children);
	free(carrier);
}

void
launch_tree_build(struct launch_tree *t, const struct proc_stat *table,
    size_t n, long root_pid, unsigned long long bg_ms)
{
	size_t i, root = n, fg = 0;

	memset(t, 0, sizeof *t);
	t->harness = -1;
	t->tpgid = -1;
	for (i = 0; i < n && root == n; i++) {
		if (table[i].pid == root_pid)
			root = i;
	}
	if (root == n) {
		t->why = HARNESS_NO_ROOT;
		return;
	}
	t->tpgid = table[root].tpgid;
	collect(t, table, n, root);
	for (i = 1; i < t->n; i++)
		t->nodes[i].background = t->nodes[i].ps->start_ms >=
		    t->nodes[0].ps->start_ms + bg_ms;
	group(t);
	for (i = 0; i < t->nlaunches; i++) {
		if (t->launches[i].foreground) {
			fg++;
			t->harness = (int)i;
		}
	}
	t->why = fg == 0 ? HARNESS_NONE : fg == 1 ? HARNESS_ONE :
	    HARNESS_AMBIGUOUS;
	if (fg != 1)
		t->harness = -1;
}

void
launch_tree_free(struct launch_tree *t)
{
	free(t->nodes);
	free(t->launches);
	memset(t, 0, sizeof *t);
	t->harness = -1;
}

int
launch_tree_find(const struct launch_tree *t, long pid)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->nodes[i].ps->pid == pid)
			return (int)i;
	}
	return -1;
}
