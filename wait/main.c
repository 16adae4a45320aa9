/*
 * aiterm-wait: the waiter a parent without a receiver of its own starts
 * (DLV-WAIT, ADR 0014).  A pure reader: it never touches the child's
 * session; it waits until the delivery's record says ready (or failed),
 * claims the body by creating <id>.claim exclusively (one waiter, one
 * print), prints the answer on stdout and exits; the record is then
 * submitted, or unknown when stdout would not take it whole (the body
 * stays; nobody prints it again).
 *
 *   aiterm-wait [--state-dir DIR] [--timeout SECONDS] DELIVERY_ID
 *
 * Exit status: 0 the answer was printed (the child's own outcome is in
 * its last line), 1 the delivery failed (why on stderr; an answer nobody
 * claimed within 24 hours is failed, and stderr names the file that
 * keeps it), 2 bad usage or
 * no such delivery, 3 someone else claimed it, 4 timed out.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deliver/expire.h"
#include "deliver/waiter.h"
#include "state/stateroot.h"
#include "util/stdfd.h"

static const char usage[] =
"usage: aiterm-wait [--state-dir DIR] [--timeout SECONDS] DELIVERY_ID\n";

/*
 * Claim and print: 0; 3 when another waiter has it; 1 when it cannot be
 * printed whole (the record says unknown: the body stays, never again).
 */
static int
print_body(struct delivery *d)
{
	struct aiterm_error err = ERROR_INIT;
	char *body;
	size_t len;
	int claim, rc = delivery_claim(d, "aiterm-wait", &body, &len, &claim,
	    &err);

	if (rc == 1) {
		fprintf(stderr, "aiterm-wait: delivery %s was already taken\n",
		    d->id);
		return 3;
	}
	if (rc != 0) {
		fprintf(stderr, "aiterm-wait: %s\n", error_msg(&err));
		error_clear(&err);
		return 1;
	}
	rc = fwrite(body, 1, len, stdout) != len || (len > 0 &&
	    body[len - 1] != '\n' && putchar('\n') == EOF) ||
	    fflush(stdout) != 0 ? 1 : 0;
	free(body);
	if (delivery_handed(d, claim, rc == 0 ? DELIVERY_SUBMITTED :
	    DELIVERY_UNKNOWN, rc == 0 ? NULL : HANDOVER_WRITE_FAILED,
	    &err) != 0 || rc != 0) {
		fprintf(stderr, "aiterm-wait: delivery %s: %s\n", d->id,
		    rc != 0 ? "the answer could not be printed whole; it is "
		    "unknown now and kept, never printed again" :
		    error_msg(&err));
		rc = 1;
	}
	error_clear(&err);
	return rc;
}

/* An answer nobody claimed in time is kept: where (deliver/expire.h). */
static void
expired_note(const struct delivery *d)
{
	char *path;

	if (strcmp(d->outcome, EXPIRY_OUTCOME) != 0)
		return;
	path = delivery_path(d, "body");
	fprintf(stderr, "aiterm-wait: nobody claimed its answer within %d "
	    "hours; the answer is kept in %s\n", DELIVERY_TTL_S / 3600, path);
	free(path);
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
	int ch;

	stdfd_guard();
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
	switch (delivery_wait(argv[optind], deadline, NULL, NULL, &d, &err)) {
	case WAITED_READY:
		return print_body(&d);
	case WAITED_FAILED:
		fprintf(stderr, "aiterm-wait: delivery %s is %s (%s)\n", d.id,
		    delivery_state_name(d.state), d.outcome);
		expired_note(&d);
		return 1;
	case WAITED_GONE:
		fprintf(stderr, "aiterm-wait: %s\n", error_msg(&err));
		error_clear(&err);
		return 2;
	default:
		fprintf(stderr, "aiterm-wait: delivery %s still %s\n", d.id,
		    delivery_state_name(d.state));
		return 4;
	}
}
