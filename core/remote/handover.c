/* A relayed dispatch's answer taken over for this parent: handover.h. */
#include <string.h>
#include <unistd.h>

#include "deliver/child.h"
#include "deliver/observe.h"
#include "deliver/parent.h"
#include "plugin/host.h"
#include "remote/handover.h"
#include "remote/relay.h"
#include "util/buf.h"

/* The text's line "delivery: <far id> ..." becomes line (no newline). */
static void
replace_line(json_t *result, const char *far_id, const char *line)
{
	json_t *item = json_array_get(json_object_get(result, "content"), 0);
	const char *text = json_string_value(json_object_get(item, "text"));
	struct aiterm_buf key = BUF_INIT, b = BUF_INIT;
	const char *at, *end;

	buf_printf(&key, "delivery: %s ", far_id);
	at = text != NULL ? strstr(text, buf_str(&key)) : NULL;
	if (at != NULL && (at == text || at[-1] == '\n')) {
		end = strchr(at, '\n');
		buf_add(&b, text, (size_t)(at - text));
		buf_adds(&b, line);
		if (end != NULL)
			buf_adds(&b, end);
		json_object_set_new(item, "text", json_string(buf_str(&b)));
	}
	buf_free(&key);
	buf_free(&b);
}

static void *
far_read(const char *host, json_t *args, delivery_far_done done, void *arg)
{
	const struct remote_to to = { done, arg };

	return remote_relay("pty_read", host, NULL, args, NULL, &to);
}

static void
far_cancel(void *handle)
{
	remote_relay_cancel(handle);
}

void
remote_deliveries_init(void)
{
	static const struct delivery_far_reader reader = {
		far_read, far_cancel,
	};

	delivery_far_reader_set(&reader);
}

bool
remote_handover(const struct call_origin *origin, const char *host,
    json_t *result)
{
	json_t *sc = json_object_get(result, "structuredContent");
	const char *far_id = json_string_value(json_object_get(
	    json_object_get(sc, "parent_delivery"), "delivery_id"));
	const char *session = json_string_value(json_object_get(sc,
	    "session_id"));
	const char *cursor = json_string_value(json_object_get(sc,
	    "event_cursor"));
	json_int_t turn = json_integer_value(json_object_get(sc, "turn"));
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf line = BUF_INIT;
	struct parent_delivery p;
	bool taken = false;
	int child_fd, rc;

	if (json_is_true(json_object_get(result, "isError")) ||
	    far_id == NULL || !delivery_id_valid(far_id) || session == NULL ||
	    !session_id_valid(session) || turn <= 0)
		return false;
	/* No receiver, or one that cannot take it: the far waiter stays. */
	if (parent_delivery_prepare(&p, origin, &err) != 0 || p.r == NULL)
		goto out;
	snprintf(p.d.remote, sizeof p.d.remote, "%s", host);
	snprintf(p.d.remote_id, sizeof p.d.remote_id, "%s", far_id);
	/*
	 * Written under the child's claim, keyed by the host (deliver/
	 * child.h).  The send is done: a claim taken meanwhile by another
	 * parent is said, and this parent's answer is still kept.
	 */
	if ((child_fd = child_claim(host, session, &p.d, &err)) == -2)
		host_get()->log(AITERM_LOG_ERROR, "remote", "%s: %s", host,
		    error_msg(&err));
	error_clear(&err);
	rc = delivery_begin(session, &p.d, &p.lock_fd, &err);
	if (child_fd >= 0)
		close(child_fd);
	if (rc != 0)
		goto out;
	if (parent_delivery_confirm(&p, (unsigned)turn, cursor != NULL ?
	    cursor : "", &line, sc, &err) != 0) {
		host_get()->log(AITERM_LOG_ERROR, "remote", "%s: %s: the far "
		    "waiter stays: %s", host, p.d.remote_id, error_msg(&err));
		goto out;
	}
	if (line.len > 0 && line.data[line.len - 1] == '\n')
		line.data[--line.len] = '\0';
	/* The receipt replaced sc's parent_delivery, and far_id with it. */
	replace_line(result, p.d.remote_id, buf_str(&line));
	taken = true;
out:
	error_clear(&p.err);
	error_clear(&err);
	buf_free(&line);
	return taken;
}
