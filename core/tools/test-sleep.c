/*
 * test_sleep: listed only with AITERM_TEST_TOOLS=1.  It waits on the event
 * loop, reporting progress every 100 ms, so the tests can exercise
 * progress notifications and cancellation through the real server.
 */
#include <stdlib.h>

#include "tools/tool.h"
#include "util/jsonschema.h"
#include "util/loop.h"
#include "util/xmalloc.h"

struct sleeper {
	uv_timer_t		 timer;
	struct tool_call	*call;
	unsigned		 ticks;
	unsigned		 total;
};

static void
sleeper_closed(uv_handle_t *h)
{
	free(h->data);
}

static void
sleeper_end(struct sleeper *sl, bool cancelled)
{
	struct tool_call *call = sl->call;
	unsigned done = sl->ticks * 100;

	uv_timer_stop(&sl->timer);
	uv_close((uv_handle_t *)&sl->timer, sleeper_closed);
	if (cancelled)
		tool_call_fail(call, "test_sleep: cancelled after %u ms", done);
	else
		tool_call_reply(call, xasprintf("slept %u ms", done),
		    json_pack("{s:i}", "slept_ms", (int)done));
}

static void
on_tick(uv_timer_t *t)
{
	struct sleeper *sl = t->data;

	sl->ticks++;
	if (sl->ticks >= sl->total) {
		sleeper_end(sl, false);
		return;
	}
	tool_call_progress(sl->call, sl->ticks, sl->total, "sleeping");
}

static void
on_cancel(struct tool_call *call)
{
	sleeper_end(tool_call_data(call), true);
}

static void
test_sleep_call(struct tool_call *call)
{
	struct sleeper *sl = xcalloc(1, sizeof *sl);
	json_int_t ms = schema_integer(json_object_get(tool_call_args(call),
	    "ms"), 0);

	sl->call = call;
	sl->total = (unsigned)((ms + 99) / 100);
	if (sl->total == 0)
		sl->total = 1;
	uv_timer_init(core_loop(), &sl->timer);
	sl->timer.data = sl;
	tool_call_set_data(call, sl, on_cancel);
	uv_timer_start(&sl->timer, on_tick, 100, 100);
}

const struct tool_entry tool_test_sleep = {
	.name = "test_sleep",
	.title = "Sleep (test only)",
	.description = "Wait ms milliseconds with progress; for tests.",
	.input_schema = "{\"type\":\"object\",\"properties\":{\"ms\":"
	    "{\"type\":\"integer\",\"minimum\":0,\"maximum\":60000}},"
	    "\"required\":[\"ms\"],\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{\"slept_ms\":"
	    "{\"type\":\"integer\"}},\"required\":[\"slept_ms\"]}",
	.hints = TOOL_READ_ONLY | TOOL_IDEMPOTENT,
	.test_only = true,
	.call = test_sleep_call,
};
