#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "deliver/claim.h"
#include "deliver/expire.h"
#include "plugin/host.h"
#include "state/atomic.h"
#include "state/stateroot.h"

#define CLAIM_PREFIX	"expired "

static uv_timer_t check_timer;

/*
 * Whether <id>.claim is an expiry's: one that claimed and died before the
 * record said failed is finished by the next check.
 */
static bool
claimed_by_expiry(const struct delivery *d)
{
	char *path = delivery_path(d, "claim"), *text = NULL;
	size_t len = 0;
	bool ours;

	ours = file_read(path, &text, &len, NULL) == 0 &&
	    len >= strlen(CLAIM_PREFIX) &&
	    memcmp(text, CLAIM_PREFIX, strlen(CLAIM_PREFIX)) == 0;
	free(text);
	free(path);
	return ours;
}

bool
delivery_expire(struct delivery *d)
{
	struct aiterm_error err = ERROR_INIT;
	long long now = session_now_ms();
	char line[48];
	int rc;

	/* A hand-over that ended mid-way is unknown, not expired. */
	if (delivery_settle(d))
		return false;
	/* A ready record is not written again until it is claimed. */
	if (d->state != DELIVERY_READY || d->updated_ms <= 0 ||
	    now - d->updated_ms < (long long)DELIVERY_TTL_S * 1000)
		return false;
	snprintf(line, sizeof line, CLAIM_PREFIX "%ld\n", (long)getpid());
	rc = delivery_claim_create(d, line, &err);
	if (rc < 0 || (rc == 1 && !claimed_by_expiry(d))) {
		error_clear(&err);
		return false;
	}
	d->state = DELIVERY_FAILED;
	snprintf(d->outcome, sizeof d->outcome, EXPIRY_OUTCOME);
	d->updated_ms = now;
	if (delivery_write(d, &err) != 0) {
		host_get()->log(AITERM_LOG_ERROR, "deliver", "%s: %s", d->id,
		    error_msg(&err));
		error_clear(&err);
		return false;
	}
	host_get()->log(AITERM_LOG_NOTICE, "deliver", "%s: nobody claimed "
	    "its answer within %d hours: failed (%s); the body is kept",
	    d->id, DELIVERY_TTL_S / 3600, EXPIRY_OUTCOME);
	return true;
}

static void
expire_one(const char *id, void *arg)
{
	struct aiterm_error err = ERROR_INIT;
	struct delivery d;
	size_t *n = arg;

	if (delivery_read(id, &d, &err) == 0 && delivery_expire(&d))
		(*n)++;
	error_clear(&err);
}

size_t
delivery_expire_all(void)
{
	size_t n = 0;

	delivery_each(expire_one, &n);
	return n;
}

static void
on_check(uv_timer_t *t)
{
	(void)t;
	if (state_root() != NULL)
		delivery_expire_all();
}

void
delivery_expiry_start(uv_loop_t *loop)
{
	uv_timer_init(loop, &check_timer);
	uv_timer_start(&check_timer, on_check, EXPIRY_CHECK_MS,
	    EXPIRY_CHECK_MS);
	uv_unref((uv_handle_t *)&check_timer);
}
