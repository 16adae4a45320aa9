/*
 * harness-mycli: the worked example of doc/harness.md, a harness plugin
 * built out of tree against the installed <aiterm/plugin.h> alone:
 *
 *	cc $(pkg-config --cflags aiterm-plugin) -std=c11 -fPIC -shared \
 *	    -o harness_mycli.so mycli.c
 *
 * and unit-tested with the installed test kit (test-mycli.c, on the
 * recordings in fixtures/mycli-1.2.3).
 *
 * It drives ./mycli: "> " is its composer (below "ready - ..."),
 * "esc to stop" means a turn runs, and its transcript is
 * ~/.mycli/log/<session>.jsonl with "prompt", "reply" and "done" records.
 * The session is named after the launch id, so the transcript of a launch
 * is known by its name.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>

#include <aiterm/plugin.h>

static const char *const binaries[] = { "mycli", NULL };
static const char *const version_args[] = { "--version", NULL };
static const char *const body_names[] = { "mycli", NULL };

static int
parse_version(const char *out, size_t len, char *buf, size_t size)
{
	/* "mycli 1.2.3" */
	if (len < 7 || strncmp(out, "mycli ", 6) != 0)
		return -1;
	snprintf(buf, size, "%.*s", (int)strcspn(out + 6, "\n"), out + 6);
	return 0;
}

static void
arg(const struct aiterm_host *host, struct aiterm_buf *b, const char *s)
{
	host->buf_add(b, s, strlen(s) + 1);
}

static int
launch(const struct aiterm_host *host, const struct aiterm_launch_request *req,
    struct aiterm_launch_plan *plan, struct aiterm_error *err)
{
	/* Shown on the server's stderr with AITERM_PLUGIN_LOG=debug. */
	host->log(AITERM_LOG_DEBUG, "harness-mycli", "launch %s in %s",
	    req->launch_id, req->cwd);
	if (req->model != NULL)
		return host->error(err, "mycli has no models to choose from");
	arg(host, plan->argv, req->binary);
	arg(host, plan->argv, "--session");
	arg(host, plan->argv, req->launch_id);
	return 0;
}

/* The last line that is not blank, and the one before it. */
static void
last_lines(const struct aiterm_screen *s, const char **last, size_t *llen,
    const char **prev, size_t *plen)
{
	const char *p = s->text + s->len, *start;
	int found = 0;

	*last = *prev = "";
	*llen = *plen = 0;
	while (p > s->text && found < 2) {
		const char *end = p;

		start = p;
		while (start > s->text && start[-1] != '\n')
			start--;
		p = start > s->text ? start - 1 : s->text;
		if (strspn(start, " ") >= (size_t)(end - start))
			continue;
		if (found++ == 0) {
			*last = start;
			*llen = (size_t)(end - start);
		} else {
			*prev = start;
			*plen = (size_t)(end - start);
		}
	}
}

static void
classify(const struct aiterm_screen *s, struct aiterm_screen_verdict *v)
{
	const char *last, *prev;
	size_t ll, pl;

	last_lines(s, &last, &ll, &prev, &pl);
	if (ll > 0 && memmem(last, ll, "esc to stop", 11) != NULL) {
		v->state = AITERM_SCREEN_RUNNING;
		v->reason = "esc_to_stop";
	} else if (ll > 0 && last[0] == '>' && pl > 0 &&
	    strncmp(prev, "ready", 5) == 0) {
		v->state = AITERM_SCREEN_INPUT_READY;
		v->reason = strspn(last + 1, " ") >= ll - 1 ? "composer_empty" :
		    "composer_has_text";
	} else {
		v->state = ll == 0 ? AITERM_SCREEN_STARTING :
		    AITERM_SCREEN_UNKNOWN;
		v->reason = ll == 0 ? "blank" : "no_known_screen";
	}
}

static const struct aiterm_input_step *
startup_keys(const char *dialog, int trust_project)
{
	(void)dialog;
	(void)trust_project;
	return NULL;	/* mycli has no start-up screens */
}

/* A line of text and Enter: mycli reads lines. */
static const struct aiterm_input_step submit[] = {
	{ AITERM_INPUT_TEXT, NULL },
	{ AITERM_INPUT_KEY, "Enter" },
	{ AITERM_INPUT_END, NULL },
};

static int
transcript_dir(const struct aiterm_host *host,
    const struct aiterm_transcript_query *q, struct aiterm_buf *dir,
    int *depth, struct aiterm_error *err)
{
	if (q->home == NULL || *q->home == '\0')
		return host->error(err, "HOME is not set");
	host->buf_printf(dir, "%s/.mycli/log", q->home);
	*depth = 0;
	return 0;
}

static int
transcript_claim(const struct aiterm_transcript_query *q, const char *name,
    const char *head, size_t len, int64_t modified_ms)
{
	size_t n = strlen(q->launch_id);

	(void)head;
	(void)len;
	(void)modified_ms;
	/* Named for the launch id this launch gave the CLI: its own. */
	return strncmp(name, q->launch_id, n) == 0 &&
	    strcmp(name + n, ".jsonl") == 0 ? AITERM_CLAIM_YES :
	    AITERM_CLAIM_NO;
}

/* The value of "text" in one JSONL record (no JSON library needed here). */
static void
text_of(const struct aiterm_host *host, const char *line, const char *end,
    struct aiterm_buf *out)
{
	const char *p = memmem(line, (size_t)(end - line), "\"text\":\"", 8);

	if (p == NULL)
		return;
	for (p += 8; p < end && *p != '"'; p++) {
		if (*p == '\\' && p + 1 < end)
			p++;
		host->buf_add(out, p, 1);
	}
}

/* Walks the records: calls back for each of turn index's. */
static unsigned
walk(const struct aiterm_host *host, const char *bytes, size_t len,
    unsigned index, struct aiterm_turn *turn)
{
	const char *p = bytes, *end = bytes + len, *nl;
	unsigned n = 0;

	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (memmem(p, (size_t)(nl - p), "\"t\":\"prompt\"", 12) != NULL) {
			if (turn != NULL && n == index) {
				turn->state = AITERM_TURN_STARTED;
				turn->reason = "in_progress";
			}
			n++;
		} else if (turn != NULL && n == index + 1 &&
		    turn->state == AITERM_TURN_STARTED) {
			if (memmem(p, (size_t)(nl - p), "\"t\":\"reply\"", 11))
				text_of(host, p, nl, turn->answer);
			else if (memmem(p, (size_t)(nl - p), "\"t\":\"done\"", 10)) {
				turn->state = AITERM_TURN_DONE;
				turn->reason = "done";
			}
		}
	}
	return n;
}

static unsigned
count_turns(const char *bytes, size_t len)
{
	return walk(NULL, bytes, len, 0, NULL);
}

static int
read_turn(const struct aiterm_host *host, const char *bytes, size_t len,
    unsigned index, struct aiterm_turn *turn, struct aiterm_error *err)
{
	(void)err;
	turn->state = AITERM_TURN_NONE;
	turn->reason = "prompt_not_recorded";
	walk(host, bytes, len, index, turn);
	return 0;
}

static const struct aiterm_harness_ops ops = {
	.binaries = binaries,
	.version_args = version_args,
	.min_version = "1.0",
	.body_names = body_names,
	.parse_version = parse_version,
	.launch = launch,
	.classify = classify,
	.startup_keys = startup_keys,
	.submit = submit,
	.steer = submit,
	.transcript_dir = transcript_dir,
	.transcript_claim = transcript_claim,
	.count_turns = count_turns,
	.read_turn = read_turn,
};

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	/* The ABI it was written for: its manifest's abi says the same. */
	.abi_minor = 5,
	.kind = AITERM_KIND_HARNESS,
	.name = "harness-mycli",
	.version = "0.1.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
