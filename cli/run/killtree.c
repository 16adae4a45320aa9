/* Signalling a run's process tree: its group and our descendants. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/run/killtree.h"
#include "proc/proc.h"

/* Whether p descends from self through the table's parent links. */
static bool
descends(const struct proc_table *t, const struct proc_stat *p, long self)
{
	long ppid = p->ppid;
	size_t i, hops = 0;

	while (ppid > 1 && hops++ < t->n) {
		if (ppid == self)
			return true;
		for (i = 0; i < t->n && t->procs[i].pid != ppid; i++)
			;
		if (i == t->n)
			return false;
		ppid = t->procs[i].ppid;
	}
	return false;
}

/* Call fn on each live descendant; returns how many there were. */
static unsigned
each_descendant(void (*fn)(long pid, int sig), int sig)
{
	struct proc_table t = PROC_TABLE_INIT;
	long self = (long)getpid();
	unsigned n = 0;
	size_t i;

	if (proc_table_read(&t) != 0)
		return 0;
	for (i = 0; i < t.n; i++) {
		if (t.procs[i].pid == self ||
		    t.procs[i].state == PROC_ZOMBIE ||
		    !descends(&t, &t.procs[i], self))
			continue;
		if (fn != NULL)
			fn(t.procs[i].pid, sig);
		n++;
	}
	proc_table_free(&t);
	return n;
}

static void
send_one(long pid, int sig)
{
	kill((pid_t)pid, sig);
}

unsigned
killtree_signal(long pgid, int sig)
{
	unsigned n = each_descendant(send_one, sig);

	/* After the walk: what the group signal ends is counted first. */
	if (pgid > 1)
		kill(-(pid_t)pgid, sig);
	return n;
}

bool
killtree_any_alive(void)
{
	return each_descendant(NULL, 0) > 0;
}

void
killtree_reap(void)
{
	int status;

	while (waitpid(-1, &status, WNOHANG) > 0)
		;
}
