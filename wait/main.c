/*
 * aiterm-wait: the waiter a parent without a receiver of its own starts
 * (DLV-WAIT, ADR 0014).  A pure reader: it never touches the child's
 * session; it waits until the delivery's record says ready (or failed),
 * claims the body by creating <id>.claim exclusively (one waiter, one
 * print), prints the answer on stdout and exits.
 *
 *   aiterm-wait [--state-dir DIR] [--timeout SECONDS] DELIVERY_ID
 *
 * Exit status: 0 the answer was printed (the child's own outcome is in
 * its last line), 1 the delivery failed (why on stderr), 2 bad usage or
 * no such delivery, 3 someone else claimed it, 4 timed out.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/inotify.h>
#endif

#include "deliver/store.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

static const char usage[] =
"usage: aiterm-wait [--state-dir DIR] [--timeout SECONDS] DELIVERY_ID\n";

/* A change in the deliveries folder, or a second passing. */
static int
watch_open(void)
{
#ifdef __linux__
	char *dir = delivery_dir();
	int fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);

	if (fd >= 0 && inotify_add_watch(fd, dir, IN_CLOSE_WRITE |
	    IN_MOVED_TO | IN_CREATE) < 0) {
		close(fd);
		fd = -1;
	}
	free(dir);
	return fd;
#else
	return -1;
#endif
}

static void
watch_wait(int fd, int ms)
{
	struct pollfd pf = { fd, POLLIN, 0 };
	char drain[4096];

	if (fd < 0) {
		usleep((useconds_t)(ms < 1000 ? ms : 1000) * 1000);
		return;
	}
	if (poll(&pf, 1, ms) > 0)
		while (read(fd, drain, sizeof drain) > 0)
			;
}

/* Claim and print: 0, or 3 when another waiter has it. */
static int
hand_over(const struct delivery *d)
{
	struct aiterm_error err = ERROR_INIT;
	char *claim = state_path("parent-deliveries/%s.claim", d->id);
	char *body_path = state_path("parent-deliveries/%s.body", d->id);
	char *body = NULL, pid[32];
	size_t len = 0;
	int fd, rc = 0;

	if (file_read(body_path, &body, &len, &err) != 0) {
		fprintf(stderr, "aiterm-wait: %s\n", error_msg(&err));
		rc = 1;
		goto out;
	}
	fd = open(claim, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		fprintf(stderr, "aiterm-wait: delivery %s was already taken "
		    "(%s)\n", d->id, claim);
		rc = 3;
		goto out;
	}
	snprintf(pid, sizeof pid, "%ld\n", (long)getpid());
	if (write(fd, pid, strlen(pid)) < 0 || fsync(fd) != 0)
		rc = 1;
	close(fd);
	if (fwrite(body, 1, len, stdout) != len || (len > 0 &&
	    body[len - 1] != '\n' && putchar('\n') == EOF) ||
	    fflush(stdout) != 0)
		rc = 1;
out:
	error_clear(&err);
	free(body);
	free(claim);
	free(body_path);
	return rc;
}

int
main(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "state-dir", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct aiterm_error err = ERROR_INIT;
	const char *dir = NULL;
	struct delivery d;
	long long deadline = -1;
	double timeout;
	char *end;
	int ch, fd, left;

	while ((ch = getopt_long(argc, argv, "", longs, NULL)) != -1) {
		switch (ch) {
		case 's': dir = optarg; break;
		case 't':
			timeout = strtod(optarg, &end);
			if (*end != '\0' || timeout < 0) {
				fprintf(stderr, "aiterm-wait: --timeout wants "
				    "seconds, not '%s'\n", optarg);
				return 2;
			}
			deadline = session_now_ms() + (long long)(timeout *
			    1000);
			break;
		case 'h': fputs(usage, stdout); return 0;
		default: fputs(usage, stderr); return 2;
		}
	}
	if (optind != argc - 1 || !delivery_id_valid(argv[optind])) {
		fprintf(stderr, "aiterm-wait: %s%s", optind < argc ?
		    "not a delivery id: " : "", optind < argc ? argv[optind] :
		    "");
		fputs(optind < argc ? "\n" : usage, stderr);
		return 2;
	}
	if (state_root_init(dir, &err) != 0) {
		fprintf(stderr, "aiterm-wait: %s\n", error_msg(&err));
		return 2;
	}
	fd = watch_open();
	for (;;) {
		if (delivery_read(argv[optind], &d, &err) != 0) {
			fprintf(stderr, "aiterm-wait: %s\n", error_msg(&err));
			return 2;
		}
		if (strcmp(d.state, "ready") == 0)
			return hand_over(&d);
		if (strcmp(d.state, "failed") == 0 ||
		    strcmp(d.state, "unknown") == 0) {
			fprintf(stderr, "aiterm-wait: delivery %s is %s (%s)\n",
			    d.id, d.state, d.outcome);
			return 1;
		}
		left = deadline < 0 ? 60000 : (int)(deadline -
		    session_now_ms());
		if (left <= 0) {
			fprintf(stderr, "aiterm-wait: delivery %s still %s\n",
			    d.id, d.state);
			return 4;
		}
		watch_wait(fd, left < 60000 ? left : 60000);
	}
}
