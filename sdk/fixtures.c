/*
 * The test kit's fixture runner (libaiterm-plugin-test): a harness
 * plugin's classify, count_turns, read_turn and approval ops against the
 * recorded screens (screens/<name>.txt) and transcripts
 * (transcripts/<name>.jsonl) of one folder, as its expect file lists
 * them, one check a line:
 *
 *	screen NAME STATE REASON [DIALOG]
 *	turn NAME COUNT INDEX STATE REASON [ANSWER]
 *	approval NAME KIND SUBJECT
 *	no-approval NAME
 *
 * STATE as the enum names it, lowercase, without its prefix
 * (input_ready, done); DIALOG "-" for none; ANSWER and SUBJECT the rest
 * of the line, exact, \n \t \\ escaped; '#' starts a comment line.  A
 * NAME with a '/' is a path below the folder, as it is (rollouts/x.jsonl,
 * for a CLI whose transcripts are kept elsewhere).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <aiterm/plugin-test.h>

/* The core's agent panes (agent_launch): 120 columns, 40 rows. */
#define SCREEN_COLS	120
#define SCREEN_ROWS	40
#define WORDS_MAX	8

static const char *const screen_states[] = {
	[AITERM_SCREEN_UNKNOWN] = "unknown",
	[AITERM_SCREEN_STARTING] = "starting",
	[AITERM_SCREEN_INPUT_READY] = "input_ready",
	[AITERM_SCREEN_RUNNING] = "running",
	[AITERM_SCREEN_APPROVAL] = "approval",
	[AITERM_SCREEN_BLOCKING_DIALOG] = "blocking_dialog",
	[AITERM_SCREEN_ONBOARDING] = "onboarding",
	[AITERM_SCREEN_RATE_LIMITED] = "rate_limited",
	[AITERM_SCREEN_EXITED] = "exited",
};

static const char *const turn_states[] = {
	[AITERM_TURN_NONE] = "none",
	[AITERM_TURN_STARTED] = "started",
	[AITERM_TURN_DONE] = "done",
	[AITERM_TURN_ERROR] = "error",
};

#define NAMEOF(t, i) ((size_t)(i) < sizeof t / sizeof t[0] && \
	t[(i)] != NULL ? t[(i)] : "?")

struct run {
	const struct aiterm_harness_ops	*ops;
	const char			*dir;
	unsigned			 n, failed;
	struct aiterm_buf		*why;	/* a failing check's words */
};

/* One check: words[0] is its kind, rest the line after its words. */
struct check {
	char		*words[WORDS_MAX];
	size_t		 nwords;
	const char	*rest;		/* unescaped, or NULL */
	unsigned	 line;
};

static char *
slurp(const char *path, size_t *len)
{
	char *data = NULL;
	size_t cap = 0, n;
	FILE *f;

	if ((f = fopen(path, "rb")) == NULL)
		return NULL;
	*len = 0;
	do {
		if (*len + 65536 + 1 > cap) {
			cap = *len + 65536 + 1;
			if ((data = realloc(data, cap)) == NULL)
				abort();
		}
		n = fread(data + *len, 1, 65536, f);
		*len += n;
	} while (n > 0);
	fclose(f);
	data[*len] = '\0';
	return data;
}

static void
report(struct run *r, const char *what)
{
	const char *why = aiterm_test_buf_str(r->why);

	r->n++;
	if (*why == '\0')
		printf("ok %u - %s\n", r->n, what);
	else {
		r->failed++;
		printf("not ok %u - %s: %s\n", r->n, what, why);
	}
	aiterm_test_buf_reset(r->why);
}

static void __attribute__((format(printf, 2, 3)))
fail(struct run *r, const char *fmt, ...)
{
	char *s;
	va_list ap;
	int n;

	if (aiterm_test_buf_len(r->why) > 0)
		return;		/* the first reason is the one said */
	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		abort();
	aiterm_test_host()->buf_add(r->why, s, (size_t)n);
	free(s);
}

/*
 * The recorded file dir/sub/name.ext, or dir/name for a name with a '/'
 * (rollouts/x.jsonl); NULL with the failure said.
 */
static char *
fixture(struct run *r, const char *sub, const char *name, const char *ext,
    size_t *len)
{
	char path[8192];
	char *data;

	if (strchr(name, '/') != NULL)
		snprintf(path, sizeof path, "%s/%s", r->dir, name);
	else
		snprintf(path, sizeof path, "%s/%s/%s.%s", r->dir, sub, name,
		    ext);
	if ((data = slurp(path, len)) == NULL)
		fail(r, "%s: %s", path, strerror(errno));
	return data;
}

static void
screen_of(struct aiterm_screen *s, const char *text, size_t len)
{
	memset(s, 0, sizeof *s);
	s->text = text;
	s->len = len;
	s->cols = SCREEN_COLS;
	s->rows = SCREEN_ROWS;
}

static void
check_screen(struct run *r, const struct check *c)
{
	struct aiterm_screen_verdict v;
	struct aiterm_screen s;
	const char *dialog = c->nwords > 4 ? c->words[4] : "-";
	size_t len;
	char *text;

	if ((text = fixture(r, "screens", c->words[1], "txt", &len)) == NULL)
		return;
	screen_of(&s, text, len);
	memset(&v, 0, sizeof v);
	r->ops->classify(&s, &v);
	if (v.reason == NULL)
		fail(r, "classify left reason NULL");
	else if (strcmp(NAMEOF(screen_states, v.state), c->words[2]) != 0 ||
	    strcmp(v.reason, c->words[3]) != 0)
		fail(r, "%s/%s, want %s/%s", NAMEOF(screen_states, v.state),
		    v.reason, c->words[2], c->words[3]);
	else if (strcmp(v.dialog == NULL ? "-" : v.dialog, dialog) != 0)
		fail(r, "dialog %s, want %s", v.dialog == NULL ? "-" :
		    v.dialog, dialog);
	free(text);
}

static void
check_turn(struct run *r, const struct check *c)
{
	const struct aiterm_host *host = aiterm_test_host();
	struct aiterm_error *err = aiterm_test_error();
	struct aiterm_buf *answer = aiterm_test_buf();
	struct aiterm_turn t;
	unsigned count, index, got;
	size_t len;
	char *text;

	count = (unsigned)strtoul(c->words[2], NULL, 10);
	index = (unsigned)strtoul(c->words[3], NULL, 10);
	if ((text = fixture(r, "transcripts", c->words[1], "jsonl", &len)) ==
	    NULL)
		goto out;
	if ((got = r->ops->count_turns(text, len)) != count)
		fail(r, "count_turns %u, want %u", got, count);
	memset(&t, 0, sizeof t);
	t.answer = answer;
	if (r->ops->read_turn(host, text, len, index, &t, err) != 0)
		fail(r, "read_turn %u failed: %s", index,
		    aiterm_test_error_msg(err));
	else if (t.reason == NULL)
		fail(r, "read_turn %u left reason NULL", index);
	else if (strcmp(NAMEOF(turn_states, t.state), c->words[4]) != 0 ||
	    strcmp(t.reason, c->words[5]) != 0)
		fail(r, "turn %u %s/%s, want %s/%s", index,
		    NAMEOF(turn_states, t.state), t.reason, c->words[4],
		    c->words[5]);
	else if (c->rest != NULL && strcmp(aiterm_test_buf_str(answer),
	    c->rest) != 0)
		fail(r, "answer \"%s\", want \"%s\"",
		    aiterm_test_buf_str(answer), c->rest);
	/* One past the last turn: nothing is recorded for it yet. */
	aiterm_test_buf_reset(answer);
	memset(&t, 0, sizeof t);
	t.answer = answer;
	if (r->ops->read_turn(host, text, len, count, &t, err) != 0 ||
	    t.state != AITERM_TURN_NONE)
		fail(r, "turn %u (one past the last) is %s, want none", count,
		    NAMEOF(turn_states, t.state));
	free(text);
out:
	aiterm_test_buf_free(answer);
	aiterm_test_error_free(err);
}

static void
check_approval(struct run *r, const struct check *c, int want)
{
	struct aiterm_buf *subject = aiterm_test_buf();
	struct aiterm_approval a;
	struct aiterm_screen s;
	size_t i, len;
	char *text;
	int got;

	if (r->ops->approval == NULL) {
		fail(r, "the plugin has no approval op");
		goto out;
	}
	if ((text = fixture(r, "screens", c->words[1], "txt", &len)) == NULL)
		goto out;
	screen_of(&s, text, len);
	memset(&a, 0, sizeof a);
	a.subject = subject;
	if ((got = r->ops->approval(aiterm_test_host(), &s, &a)) != want)
		fail(r, "approval %d, want %d", got, want);
	else if (want == 1 && (a.kind == NULL || strcmp(a.kind,
	    c->words[2]) != 0))
		fail(r, "kind %s, want %s", a.kind, c->words[2]);
	else if (want == 1 && strcmp(aiterm_test_buf_str(subject),
	    c->rest == NULL ? "" : c->rest) != 0)
		fail(r, "subject \"%s\", want \"%s\"",
		    aiterm_test_buf_str(subject), c->rest);
	for (i = 0; want == 1 && got == 1 && a.choices != NULL &&
	    a.choices[i] != NULL; i++) {
		if (r->ops->approval_keys == NULL ||
		    r->ops->approval_keys(a.choices[i]) == NULL)
			fail(r, "choice %s has no keys", a.choices[i]);
	}
	if (want == 1 && got == 1 && (a.choices == NULL || a.choices[0] ==
	    NULL))
		fail(r, "no choices");
	free(text);
out:
	aiterm_test_buf_free(subject);
}

/* \n \t \\ of s in place. */
static void
unescape(char *s)
{
	char *o = s;

	for (; *s != '\0'; s++) {
		if (*s == '\\' && s[1] != '\0') {
			s++;
			*o++ = *s == 'n' ? '\n' : *s == 't' ? '\t' : *s;
		} else
			*o++ = *s;
	}
	*o = '\0';
}

struct kind {
	const char	*name;
	size_t		 words;		/* the least, the kind's own counted */
	size_t		 fixed;		/* words before the rest */
	int		 rest;		/* whether a rest may follow them */
};

static const struct kind kinds[] = {
	{ "screen", 4, 5, 0 },
	{ "turn", 6, 6, 1 },
	{ "approval", 3, 3, 1 },
	{ "no-approval", 2, 2, 0 },
};

/* The line split into c; the kind's index, or -1. */
static int
parse(char *line, struct check *c)
{
	size_t k, fixed = WORDS_MAX;
	char *p = line;
	int kind = -1;

	c->nwords = 0;
	c->rest = NULL;
	while (*p != '\0' && c->nwords < fixed) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			break;
		c->words[c->nwords++] = p;
		p += strcspn(p, " \t");
		if (*p != '\0')
			*p++ = '\0';
		if (c->nwords == 1) {
			for (k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
				if (strcmp(c->words[0], kinds[k].name) == 0)
					kind = (int)k;
			}
			if (kind < 0)
				return -1;
			fixed = kinds[kind].fixed;
		}
	}
	if (kind < 0 || c->nwords < kinds[kind].words)
		return -1;
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != '\0' && !kinds[kind].rest)
		return -1;	/* a word too many: no comment after a check */
	if (c->nwords == fixed && *p != '\0') {
		unescape(p);
		c->rest = p;
	}
	return kind;
}

static void
run_check(struct run *r, int kind, const struct check *c)
{
	char what[512];

	snprintf(what, sizeof what, "%s %s%s%s", c->words[0], c->words[1],
	    kind == 1 ? " turn " : "", kind == 1 ? c->words[3] : "");
	switch (kind) {
	case 0:
		check_screen(r, c);
		break;
	case 1:
		check_turn(r, c);
		break;
	default:
		check_approval(r, c, kind == 2 ? 1 : 0);
		break;
	}
	report(r, what);
}

int
aiterm_test_fixtures(const struct aiterm_plugin *p, const char *dir)
{
	struct run r;
	struct check c;
	char path[8192], *text, *line, *next;
	size_t len;
	int kind, rc = -1;

	if (p == NULL || p->kind != AITERM_KIND_HARNESS || p->ops == NULL) {
		fprintf(stderr, "aiterm_test_fixtures: not a harness plugin\n");
		return -1;
	}
	snprintf(path, sizeof path, "%s/expect", dir);
	if ((text = slurp(path, &len)) == NULL) {
		fprintf(stderr, "aiterm_test_fixtures: %s: %s\n", path,
		    strerror(errno));
		return -1;
	}
	memset(&r, 0, sizeof r);
	r.ops = p->ops;
	r.dir = dir;
	r.why = aiterm_test_buf();
	for (line = text, c.line = 1; line != NULL; line = next, c.line++) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		line[strcspn(line, "\r")] = '\0';
		if (line[strspn(line, " \t")] == '\0' || line[strspn(line,
		    " \t")] == '#')
			continue;
		if ((kind = parse(line, &c)) < 0) {
			fprintf(stderr, "aiterm_test_fixtures: %s:%u: not a "
			    "check (screen, turn, approval, no-approval with "
			    "their words)\n", path, c.line);
			goto out;
		}
		run_check(&r, kind, &c);
	}
	printf("1..%u\n", r.n);
	rc = (int)r.failed;
out:
	aiterm_test_buf_free(r.why);
	free(text);
	return rc;
}
