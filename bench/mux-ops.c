/*
 * mux-tmux op latency: send_text with Enter, pane_info, list and capture,
 * each through a one-shot tmux client per op (AITERM_TMUX_CONTROL=0, as
 * before the control client) and through the control client.
 *
 *	make bench/mux-ops && bench/mux-ops [runs [sessions]]
 *
 * The plugin is loaded from the build tree with libltdl, as the core does,
 * and driven through the core's host table.  Its private server lives in
 * a temporary state root (HOME and TMUX_TMPDIR are pointed there too) and
 * holds `sessions` idle sessions (50 by default) plus the two the ops aim
 * at: one running cat, which takes the typed lines, and one showing a full
 * screen, for capture.  Each op runs `runs` times (200 by default) per
 * mode after one untimed call; the mean, median and 90th percentile are
 * printed in milliseconds.  The server is killed by its PID at the end.
 */
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ltdl.h>

#include "aiterm/plugin.h"
#include "plugin/host.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/error.h"
#include "util/xmalloc.h"

#ifndef PLUGIN_DIR
#define PLUGIN_DIR "plugins/mux-tmux"
#endif

static const struct aiterm_host *host;
static const struct aiterm_mux_ops *ops;
static struct aiterm_mux_info info;

static double
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void
die(const char *what, struct aiterm_error *err)
{
	fprintf(stderr, "mux-ops: %s: %s\n", what, error_msg(err));
	exit(1);
}

static int
by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static void
count_cb(const char *session, long created,
    const struct aiterm_pane_info *pane, void *arg)
{
	(void)session;
	(void)created;
	(void)pane;
	(*(int *)arg)++;
}

enum op { OP_SEND, OP_PANE, OP_LIST, OP_CAPTURE, OP_COUNT };

static const char *const op_names[OP_COUNT] = {
	[OP_SEND] = "send_text+enter",
	[OP_PANE] = "pane_info",
	[OP_LIST] = "list",
	[OP_CAPTURE] = "capture",
};

/* One op; exits on failure. */
static void
run_op(enum op op)
{
	static const char text[] = "the quick brown fox; $HOME #{x} 'q'";
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_pane_info pi;
	struct aiterm_buf screen = BUF_INIT;
	int rc = 0, count = 0;

	switch (op) {
	case OP_SEND:
		rc = ops->send_text(host, "sink", text, sizeof text - 1, 1,
		    &err);
		break;
	case OP_PANE:
		rc = ops->pane_info(host, "sink", &pi, &err);
		if (rc == 0 && !pi.exists)
			rc = error_set(&err, "the sink session is gone");
		break;
	case OP_LIST:
		rc = ops->list(host, count_cb, &count, &err);
		break;
	case OP_CAPTURE:
		rc = ops->capture(host, "screen", &screen, &err);
		break;
	case OP_COUNT:
		break;
	}
	if (rc != 0)
		die(op_names[op], &err);
	buf_free(&screen);
}

static void
measure(enum op op, const char *mode, int runs)
{
	double *t = xmalloc((size_t)runs * sizeof *t), sum = 0, start;
	int i;

	run_op(op);
	for (i = 0; i < runs; i++) {
		start = now_ms();
		run_op(op);
		t[i] = now_ms() - start;
		sum += t[i];
	}
	qsort(t, (size_t)runs, sizeof *t, by_value);
	printf("%-16s %-8s %8.3f %8.3f %8.3f\n", op_names[op], mode,
	    sum / runs, t[runs / 2], t[(runs * 9) / 10]);
	free(t);
}

static void
create(const char *session, const char *const *argv)
{
	struct aiterm_mux_create o = {
		.session = session, .argv = argv, .cols = 120, .rows = 40,
	};
	struct aiterm_error err = ERROR_INIT;

	if (ops->create(host, &o, &err) != 0)
		die(session, &err);
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

/* End the server this program started, by its PID, and nothing else. */
static void
kill_server(void)
{
	const char *argv[] = {
		info.binary, "-S", info.socket, "display-message", "-p",
		"#{pid}", NULL,
	};
	struct aiterm_buf out = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	long pid;
	int waited;

	if (host_run(argv, &out, NULL, &err) == 0) {
		pid = strtol(buf_str(&out), NULL, 10);
		if (pid > 1 && kill((pid_t)pid, SIGTERM) == 0)
			for (waited = 0; waited < 5000 &&
			    kill((pid_t)pid, 0) == 0; waited += 10)
				usleep(10000);
	}
	buf_free(&out);
	error_clear(&err);
}

int
main(int argc, char **argv)
{
	static const char *const idle[] = { "sleep", "100000", NULL };
	static const char *const sink[] = { "sh", "-c",
	    "stty -echo; exec cat > /dev/null", NULL };
	static const char *const full[] = { "sh", "-c",
	    "i=0; while [ $i -lt 60 ]; do i=$((i+1)); "
	    "echo \"line $i: some text to capture, 0123456789\"; done; "
	    "exec sleep 100000", NULL };
	const struct aiterm_plugin *(*describe)(void);
	struct aiterm_error err = ERROR_INIT;
	char root[64], path[PATH_MAX], name[32];
	int runs = argc > 1 ? atoi(argv[1]) : 200;
	int sessions = argc > 2 ? atoi(argv[2]) : 50, i, m;
	lt_dlhandle module;
	enum op op;

	if (runs < 1 || sessions < 0) {
		fprintf(stderr, "usage: mux-ops [runs [sessions]]\n");
		return 2;
	}
	snprintf(root, sizeof root, "/tmp/aiterm-muxbench-XXXXXX");
	if (mkdtemp(root) == NULL) {
		perror("mkdtemp");
		return 1;
	}
	setenv("HOME", root, 1);
	setenv("TMUX_TMPDIR", root, 1);
	unsetenv("TMUX");
	unsetenv("AITERM_TMUX_CONTROL");
	snprintf(path, sizeof path, "%s/state", root);
	if (state_root_init(path, &err) != 0)
		die("state root", &err);

	if (lt_dlinit() != 0 || (module = lt_dlopenext(PLUGIN_DIR
	    "/mux_tmux")) == NULL) {
		fprintf(stderr, "mux-ops: %s/mux_tmux: %s (run make first)\n",
		    PLUGIN_DIR, lt_dlerror());
		return 1;
	}
	*(void **)&describe = lt_dlsym(module, AITERM_PLUGIN_SYMBOL);
	if (describe == NULL) {
		fprintf(stderr, "mux-ops: no %s\n", AITERM_PLUGIN_SYMBOL);
		return 1;
	}
	ops = describe()->ops;
	host = host_get();
	if (ops->probe(host, &info, &err) != 0)
		die("probe", &err);

	create("sink", sink);
	create("screen", full);
	for (i = 0; i < sessions; i++) {
		snprintf(name, sizeof name, "idle%03d", i);
		create(name, idle);
	}
	/* Let the screen fill and cat start. */
	usleep(300000);

	printf("mux-tmux ops on tmux %s, %d sessions, %d runs each, ms\n",
	    info.version, sessions + 2, runs);
	printf("%-16s %-8s %8s %8s %8s\n", "op", "mode", "mean", "p50",
	    "p90");
	for (op = 0; op < OP_COUNT; op++) {
		for (m = 0; m < 2; m++) {
			if (m == 0)
				setenv("AITERM_TMUX_CONTROL", "0", 1);
			else
				unsetenv("AITERM_TMUX_CONTROL");
			measure(op, m == 0 ? "spawn" : "control", runs);
		}
	}

	kill_server();
	lt_dlclose(module);
	lt_dlexit();
	state_root_reset();
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	return 0;
}
