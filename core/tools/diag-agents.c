#include <stdlib.h>
#include <string.h>

#include "agent/harness.h"
#include "agent/probe.h"
#include "tools/diag-agents.h"
#include "util/xmalloc.h"

struct diag_run {
	json_t	*agents;
	int	 pending;	/* probes out, + 1 while they are started */
	void	(*done)(void *arg, json_t *agents);
	void	*arg;
};

/* The slot one probe fills. */
struct diag_slot {
	struct diag_run	*run;
	json_t		*entry;
};

static json_t *
str_or_null(const char *s)
{
	return s != NULL && *s != '\0' ? json_string(s) : json_null();
}

static void
run_step(struct diag_run *run)
{
	if (--run->pending > 0)
		return;
	run->done(run->arg, run->agents);
	free(run);
}

static void
probed(void *arg, const struct probe_result *r)
{
	struct diag_slot *s = arg;

	json_object_set_new(s->entry, "found", json_boolean(r->binary[0] !=
	    '\0'));
	json_object_set_new(s->entry, "binary", str_or_null(r->binary));
	json_object_set_new(s->entry, "version", str_or_null(r->version));
	json_object_set_new(s->entry, "ok", json_boolean(r->status == 0));
	json_object_set_new(s->entry, "error", r->status == 0 ? json_null() :
	    json_string(error_msg(&r->err)));
	run_step(s->run);
	free(s);
}

static int
probe_one(const struct harness *h, void *arg)
{
	struct diag_run *run = arg;
	struct diag_slot *s = xcalloc(1, sizeof *s);

	s->run = run;
	s->entry = json_pack("{s:s, s:s, s:o}", "harness", h->id, "plugin",
	    h->plugin, "min_version", str_or_null(h->ops->min_version));
	json_array_append_new(run->agents, s->entry);
	run->pending++;
	harness_probe(h, probed, s);
	return 0;
}

void
diag_agents(void (*done)(void *arg, json_t *agents), void *arg)
{
	struct diag_run *run = xcalloc(1, sizeof *run);

	run->agents = json_array();
	run->done = done;
	run->arg = arg;
	run->pending = 1;
	harness_each(probe_one, run);
	run_step(run);
}

void
diag_agents_text(struct aiterm_buf *b, json_t *agents)
{
	json_t *a;
	size_t i;

	if (json_array_size(agents) == 0) {
		buf_adds(b, "agents: no harness plugin is installed\n");
		return;
	}
	buf_adds(b, "agents:\n");
	json_array_foreach(agents, i, a) {
		if (json_is_true(json_object_get(a, "ok")))
			buf_printf(b, "  %s: %s %s\n", json_string_value(
			    json_object_get(a, "harness")), json_string_value(
			    json_object_get(a, "binary")), json_string_value(
			    json_object_get(a, "version")));
		else
			buf_printf(b, "  %s: %s\n", json_string_value(
			    json_object_get(a, "harness")), json_string_value(
			    json_object_get(a, "error")));
	}
}
