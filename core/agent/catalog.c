#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/catalog.h"
#include "plugin/host.h"
#include "util/child.h"
#include "util/xmalloc.h"

#define OUT_MAX	(1024 * 1024)

struct check {
	const struct harness	*h;
	char			*model;
	char			*command;	/* "grok models", for messages */
	catalog_cb		 cb;
	void			*arg;
};

static void
listed(void *arg, const struct child_result *r)
{
	struct check *c = arg;
	struct aiterm_error err = ERROR_INIT, why = ERROR_INIT;
	char code[32], why_s[64];
	int in;

	harness_code_prefix(c->h, code, sizeof code);
	if (r->start_error != NULL || r->timed_out || r->status != 0) {
		if (r->start_error != NULL)
			snprintf(why_s, sizeof why_s, "%s", r->start_error);
		else if (r->timed_out)
			snprintf(why_s, sizeof why_s, "no answer in %d ms",
			    CATALOG_DEADLINE_MS);
		else
			snprintf(why_s, sizeof why_s, "%s %d", r->term_signal !=
			    0 ? "signal" : "status", r->term_signal != 0 ?
			    r->term_signal : r->status);
		error_set(&err, "%s_MODEL_CATALOG_UNAVAILABLE: `%s` could not "
		    "list the %s catalog to check model '%s' (%s): %.300s; "
		    "nothing was launched", code, c->command, c->h->id,
		    c->model, why_s, r->errout_len > 0 ? r->errout : r->out);
		c->cb(c->arg, -1, &err);
	} else if ((in = c->h->ops->model_check(host_get(), r->out, r->out_len,
	    c->model, &why)) == 1) {
		c->cb(c->arg, 0, NULL);
	} else {
		error_set(&err, "%s_%s: %s; nothing was launched and no other "
		    "model is used", code, in == 0 ? "MODEL_NOT_IN_CATALOG" :
		    "MODEL_CATALOG_UNAVAILABLE", error_msg(&why));
		c->cb(c->arg, -1, &err);
	}
	error_clear(&err);
	error_clear(&why);
	free(c->model);
	free(c->command);
	free(c);
}

void
harness_model_check(const struct harness *h, const char *binary,
    const char *cwd, const char *model, catalog_cb cb, void *arg)
{
	const struct aiterm_harness_ops *ops = h->ops;
	struct check *c;
	const char **argv;
	size_t i, n = 0;

	if (model == NULL || h->abi_minor < 2 || ops->catalog_args == NULL ||
	    ops->model_check == NULL) {
		cb(arg, 0, NULL);
		return;
	}
	while (ops->catalog_args[n] != NULL)
		n++;
	c = xcalloc(1, sizeof *c);
	c->h = h;
	c->model = xstrdup(model);
	c->cb = cb;
	c->arg = arg;
	argv = xcalloc(n + 2, sizeof *argv);
	argv[0] = binary;
	for (i = 0; i < n; i++)
		argv[i + 1] = ops->catalog_args[i];
	c->command = xasprintf("%s%s%s", ops->binaries[0], n > 0 ? " " : "",
	    n > 0 ? ops->catalog_args[0] : "");
	child_run(argv, cwd, CATALOG_DEADLINE_MS, OUT_MAX, listed, c);
	free(argv);
}
