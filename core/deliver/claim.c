/* Handing a ready answer over once: claim.h. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "deliver/claim.h"
#include "plugin/host.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/xmalloc.h"

#define EXPIRY_PREFIX	"expired "

enum claim_kind {
	CLAIM_NONE,	/* nobody claimed it */
	CLAIM_TAKEN,	/* the expiry's, or a claim of the releases before */
	CLAIM_HANDING,	/* a hand-over; its claimer still holds it */
	CLAIM_CUT,	/* a hand-over whose claimer is gone */
};

/* A line of the releases before: the claimer's pid alone. */
static bool
pid_alone(const char *text, size_t len)
{
	size_t i;

	for (i = 0; i < len && isdigit((unsigned char)text[i]); i++)
		;
	return i > 0 && (i == len || text[i] == '\n');
}

static enum claim_kind
claim_kind(const struct delivery *d)
{
	char *path = delivery_path(d, "claim"), *text = NULL;
	enum claim_kind k;
	size_t len = 0;
	int fd;

	if (file_read(path, &text, &len, NULL) != 0)
		k = CLAIM_NONE;
	else if (pid_alone(text, len) || (len >= strlen(EXPIRY_PREFIX) &&
	    memcmp(text, EXPIRY_PREFIX, strlen(EXPIRY_PREFIX)) == 0))
		k = CLAIM_TAKEN;
	else if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		k = CLAIM_NONE;	/* gone since: the record was removed */
	else {
		k = flock(fd, LOCK_SH | LOCK_NB) == 0 ? CLAIM_CUT :
		    CLAIM_HANDING;
		close(fd);
	}
	free(text);
	free(path);
	return k;
}

int
delivery_claim(const struct delivery *d, const char *who, char **body,
    size_t *len, int *claim, struct aiterm_error *err)
{
	char *path = delivery_path(d, "body"), *ext, *tmp, *line;
	int fd, rc = 0;

	*claim = -1;
	rc = file_read(path, body, len, err);
	free(path);
	if (rc != 0) {
		*body = NULL;
		return -1;
	}
	/* Locked before it is the claim: nobody sees it unheld. */
	ext = xasprintf("claim.%ld", (long)getpid());
	tmp = delivery_path(d, ext);
	path = delivery_path(d, "claim");
	line = xasprintf("%s %ld\n", who, (long)getpid());
	fd = open(tmp, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0 ||
	    write(fd, line, strlen(line)) != (ssize_t)strlen(line) ||
	    fsync(fd) != 0)
		rc = error_set(err, "cannot claim %s: %s", d->id,
		    strerror(errno));
	else if (link(tmp, path) != 0)
		rc = errno == EEXIST ? 1 : error_set(err, "cannot claim %s: "
		    "%s", d->id, strerror(errno));
	unlink(tmp);
	if (rc == 0)
		*claim = fd;
	else {
		if (fd >= 0)
			close(fd);
		free(*body);
		*body = NULL;
	}
	free(line);
	free(path);
	free(tmp);
	free(ext);
	return rc;
}

int
delivery_handed(struct delivery *d, int claim, enum delivery_state state,
    const char *why, struct aiterm_error *err)
{
	int rc;

	d->state = state;
	if (why != NULL)
		snprintf(d->outcome, sizeof d->outcome, "%.31s", why);
	d->updated_ms = session_now_ms();
	rc = delivery_write(d, err);
	/* Written down first: then the claim's lock goes. */
	if (claim >= 0)
		close(claim);
	return rc;
}

void
delivery_seen(struct delivery *d)
{
	struct aiterm_error err = ERROR_INIT;
	struct delivery again;

	if (d->state != DELIVERY_READY)
		return;
	switch (claim_kind(d)) {
	case CLAIM_TAKEN:
		d->state = DELIVERY_SUBMITTED;
		break;
	case CLAIM_CUT:
		/* Its claimer may have written the record and let go since. */
		if (delivery_read(d->id, &again, &err) == 0 &&
		    again.state != DELIVERY_READY) {
			*d = again;
			break;
		}
		d->state = DELIVERY_UNKNOWN;
		snprintf(d->outcome, sizeof d->outcome, "%s", HANDOVER_CUT);
		break;
	default:
		break;
	}
	error_clear(&err);
}

enum delivery_state
delivery_state(const struct delivery *d)
{
	struct delivery seen = *d;

	delivery_seen(&seen);
	return seen.state;
}

bool
delivery_settle(struct delivery *d)
{
	struct aiterm_error err = ERROR_INIT;
	struct delivery again;
	char *path;
	int fd;
	bool done = false;

	if (d->state != DELIVERY_READY || claim_kind(d) != CLAIM_CUT)
		return false;
	path = delivery_path(d, "claim");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	/* Held while it is written: no claimer comes back to a claim. */
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) != 0)
		goto out;
	if (delivery_read(d->id, &again, &err) != 0 ||
	    again.state != DELIVERY_READY) {
		if (err.msg == NULL)
			*d = again;
		goto out;
	}
	d->state = DELIVERY_UNKNOWN;
	snprintf(d->outcome, sizeof d->outcome, "%s", HANDOVER_CUT);
	d->updated_ms = session_now_ms();
	if (delivery_write(d, &err) != 0) {
		host_get()->log(AITERM_LOG_ERROR, "deliver", "%s: %s", d->id,
		    error_msg(&err));
		goto out;
	}
	host_get()->log(AITERM_LOG_NOTICE, "deliver", "%s: its hand-over "
	    "ended before it said how: unknown (%s); the body is kept, never "
	    "resent", d->id, HANDOVER_CUT);
	done = true;
out:
	if (fd >= 0)
		close(fd);
	error_clear(&err);
	return done;
}
