/*
 * The creation lock: <state_root>/tmux.lock, an flock(2) shared by every
 * aiterm-mcp on the state root (ADR 0020).
 *
 * tmux 3.3a dies (SIGSEGV in control_write) when a session is created
 * while several control clients are attached or attaching: its
 * session-created notification reaches a control client whose control
 * state is not there.  Each aiterm-mcp keeps one control client
 * (tmux-ctl.c), so many servers on one state root are many control
 * clients.  Whatever adds or removes a session or a control client is
 * therefore done under this lock: a session's create (by a one-shot
 * client), the start of a control client until its first answer, and
 * kill-session.  One at a time, these never crashed tmux
 * (doc/reliability.md).
 *
 * The wait is bounded: the lock is tried without blocking every
 * TX_LOCK_STEP_MS until TX_LOCK_WAIT_MS (2 s) have passed, and then the
 * caller is told.  It runs on the loop thread, like the create it
 * guards, so the loop waits at most that long.  A holder keeps it for
 * one tmux command: eight servers opening 24 sessions each at once
 * waited 0 ms (median), 209 ms (p99), 579 ms (max).  flock is released by the kernel when its holder dies, so a
 * crashed server never leaves it held; the descriptor is closed on exec,
 * so no tmux server started under it inherits it.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "mux-tmux.h"

#define TX_LOCK_STEP_MS	2

/* The lock this process holds, and how many takes it answers. */
static int tx_lock_fd = -1;
static int tx_lock_depth;

int
tx_lock_take(const struct aiterm_host *host, const struct tx_server *srv,
    struct aiterm_error *err)
{
	long long deadline = tx_now_ms() + TX_LOCK_WAIT_MS;
	int fd, r, rc = -1;

	/* Nested (a kill that starts a control client): already ours. */
	if (tx_lock_depth > 0) {
		tx_lock_depth++;
		return 0;
	}
	fd = open(srv->lock, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0) {
		if (err != NULL)
			host->error(err, "tmux: cannot open the lock %s: %s",
			    srv->lock, strerror(errno));
		return -1;
	}
	for (;;) {
		r = flock(fd, LOCK_EX | LOCK_NB);
		if (r == 0) {
			tx_lock_fd = fd;
			tx_lock_depth = 1;
			return 0;
		}
		if (errno != EWOULDBLOCK && errno != EINTR) {
			if (err != NULL)
				host->error(err, "tmux: cannot lock %s: %s",
				    srv->lock, strerror(errno));
			break;
		}
		if (tx_now_ms() >= deadline) {
			if (err != NULL)
				host->error(err, "tmux: another aiterm-mcp on "
				    "this state root held %s for more than %d "
				    "ms; nothing was done, try again",
				    srv->lock, TX_LOCK_WAIT_MS);
			rc = -2;
			break;
		}
		poll(NULL, 0, TX_LOCK_STEP_MS);
	}
	close(fd);
	return rc;
}

void
tx_lock_drop(void)
{
	if (tx_lock_depth > 0 && --tx_lock_depth == 0) {
		close(tx_lock_fd);	/* releases the flock */
		tx_lock_fd = -1;
	}
}
