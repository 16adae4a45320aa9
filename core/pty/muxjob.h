/*
 * The multiplexer off the loop thread (issue 20, ADR 0003): a tmux server
 * that stops answering must not stop the server from answering ping,
 * tools/list, cancellations and calls that do not need it.
 *
 * One worker thread runs jobs in order; a job calls multiplexer ops (and
 * reads files), never libuv or a tool call; its done callback then runs
 * on the loop thread, where the call is finished.  Every op, from the
 * worker or from code still on the loop, goes through the table
 * session_mux() returns, which holds one lock around each op: the plugin
 * is called by one thread at a time, as its ABI promises.
 */
#ifndef AITERM_PTY_MUXJOB_H
#define AITERM_PTY_MUXJOB_H

#include "aiterm/plugin.h"

/*
 * The plugin's ops behind the lock (real: the loaded plugin's table, of
 * ABI minor version minor: members it does not have are NULL).
 */
const struct aiterm_mux_ops *muxjob_locked(const struct aiterm_mux_ops *real,
	    unsigned minor);

/* Run work(arg) on the worker, then done(arg) on the loop thread. */
void	muxjob_run(void (*work)(void *), void (*done)(void *), void *arg);

/*
 * The server is stopping: wait for the jobs in flight (each ends within
 * the multiplexer's own timeouts) and run their done callbacks here.
 */
void	muxjob_drain(void);

#endif
