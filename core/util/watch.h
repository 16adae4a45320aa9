/*
 * Watching a path that may not exist yet (a transcript, or the folder it
 * will appear in): inotify (uv_fs_event) on the deepest part of the path
 * that exists, moving down as folders appear, so a file created later
 * wakes the watcher without polling.  cb runs on every change seen.
 */
#ifndef AITERM_UTIL_WATCH_H
#define AITERM_UTIL_WATCH_H

typedef void (*watch_cb)(void *arg);
struct path_watch;

struct path_watch *path_watch_start(const char *target, watch_cb cb,
	    void *arg);
/* Watch another target (e.g. the file once it is known). */
void	path_watch_retarget(struct path_watch *w, const char *target);
/* Stop; cb is not called again.  Frees w (later, from the loop). */
void	path_watch_stop(struct path_watch *w);

/*
 * Watching a process end (Linux: a pidfd polled by the loop, so its exit
 * wakes cb at once).  NULL where the system has no pidfd: the caller's
 * other events (the pane's output, its deadline) still end its wait.
 */
struct pid_watch;
struct pid_watch *pid_watch_start(long pid, watch_cb cb, void *arg);
void	pid_watch_stop(struct pid_watch *w);

#endif
