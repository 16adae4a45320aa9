#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util/xmalloc.h"

/* The JSON names of the statuses, in enum order. */
static const char *const status_names[] = {
	[SETUP_REGISTERED] = "registered",
	[SETUP_ALREADY] = "already_registered",
	[SETUP_SKIPPED] = "skipped",
	[SETUP_FAILED] = "failed",
	[SETUP_REMOVED] = "removed",
	[SETUP_NOT_OURS] = "not_registered_by_setup",
	[SETUP_PLANNED] = "planned",
};

const char *
setup_status_name(enum setup_status s)
{
	return status_names[s];
}

int
setup_fail(struct setup_outcome *o, const char *code, const char *fmt, ...)
{
	va_list ap;

	o->status = SETUP_FAILED;
	o->code = code;
	free(o->message);
	va_start(ap, fmt);
	o->message = xvasprintf(fmt, ap);
	va_end(ap);
	return -1;
}

void
setup_note(struct setup_outcome *o, const char *fmt, ...)
{
	va_list ap;
	char *old = o->message;

	/* fmt may use the message it replaces. */
	va_start(ap, fmt);
	o->message = xvasprintf(fmt, ap);
	va_end(ap);
	free(old);
}

void
setup_outcome_free(struct setup_outcome *o)
{
	free(o->binary);
	free(o->version);
	free(o->message);
	free(o->config);
	free(o->backup);
	free(o->diff);
}

void
report_init(struct report *r, const struct setup_opts *o)
{
	memset(r, 0, sizeof *r);
	r->opts = o;
	r->facts = json_object();
}

void
report_free(struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		setup_outcome_free(&r->v[i]);
	free(r->v);
	free(r->message);
	json_decref(r->facts);
}

struct setup_outcome *
report_add(struct report *r, const char *client)
{
	struct setup_outcome *o;

	r->v = xrealloc(r->v, (r->n + 1) * sizeof *r->v);
	o = &r->v[r->n++];
	memset(o, 0, sizeof *o);
	o->client = client;
	return o;
}

int
report_fatal(struct report *r, const char *code, const char *fmt, ...)
{
	va_list ap;

	if (r->code != NULL)
		return -1;	/* the first one stopped setup */
	r->code = code;
	va_start(ap, fmt);
	r->message = xvasprintf(fmt, ap);
	va_end(ap);
	return -1;
}

void
report_fact(struct report *r, const char *key, json_t *value)
{
	json_object_set_new(r->facts, key, value);
}

/* Whether some client was found (registered, already, failed ...). */
static bool
found_any(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->v[i].status != SETUP_SKIPPED)
			return true;
	}
	return false;
}

static bool
failed_any(const struct report *r)
{
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->v[i].status == SETUP_FAILED)
			return true;
	}
	return r->code != NULL;
}

static json_t *
outcome_json(const struct setup_outcome *o)
{
	return json_pack("{s:s, s:s, s:s*, s:s*, s:s*, s:s*, s:s*, s:s*, "
	    "s:s*}", "client", o->client, "status",
	    setup_status_name(o->status), "code", o->code, "message",
	    o->message, "binary", o->binary, "version", o->version, "config",
	    o->config, "backup", o->backup, "diff", o->diff);
}

static void
print_json(const struct report *r, bool ok)
{
	json_t *j = json_object(), *clients = json_array();
	size_t i;

	json_object_set_new(j, "ok", json_boolean(ok));
	json_object_set_new(j, "action", json_string(r->opts->uninstall ?
	    "uninstall" : "install"));
	json_object_set_new(j, "dry_run", json_boolean(r->opts->dry_run));
	if (r->code != NULL)
		json_object_set_new(j, "error", json_pack("{s:s, s:s}", "code",
		    r->code, "message", r->message));
	json_object_set_new(j, "aiterm", json_incref(r->facts));
	for (i = 0; i < r->n; i++)
		json_array_append_new(clients, outcome_json(&r->v[i]));
	json_object_set_new(j, "clients", clients);
	json_dumpf(j, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
	fputc('\n', stdout);
	json_decref(j);
}

static void
print_human(const struct report *r, bool ok)
{
	const struct setup_outcome *o;
	size_t i;

	for (i = 0; i < r->n; i++) {
		o = &r->v[i];
		printf("%-12s %s", o->client, setup_status_name(o->status));
		if (o->code != NULL)
			printf(" (%s)", o->code);
		if (o->version != NULL)
			printf(" [%s]", o->version);
		if (o->message != NULL)
			printf(": %s", o->message);
		putchar('\n');
		if (o->backup != NULL)
			printf("%12s previous file kept as %s\n", "",
			    o->backup);
		if (o->diff != NULL)
			printf("%s%s", o->diff, *o->diff != '\0' &&
			    o->diff[strlen(o->diff) - 1] != '\n' ? "\n" : "");
	}
	if (json_object_get(r->facts, "codex_steer") != NULL)
		printf("codex steer: %s\n", json_string_value(json_object_get(
		    r->facts, "codex_steer")));
	if (r->code != NULL)
		printf("aiterm-setup: %s: %s\n", r->code, r->message);
	printf("%s\n", ok ? "done" : "not done: see above");
}

int
report_print(struct report *r)
{
	bool ok;

	if (r->code == NULL && !found_any(r) && r->opts->codex_steer == NULL)
		report_fatal(r, "NO_CLIENT_FOUND", "no AI client is installed "
		    "here (claude, codex, grok, cursor-agent)");
	ok = !failed_any(r);
	if (r->opts->json)
		print_json(r, ok);
	else
		print_human(r, ok);
	return ok ? 0 : 1;
}
