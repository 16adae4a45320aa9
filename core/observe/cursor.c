/* The activity cursor: see cursor.h. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "observe/cursor.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define OBS_CURSOR_MAGIC	"obs1"
/* The fields of the text form, in order. */
enum {
	FIELD_MAGIC,
	FIELD_SESSION,
	FIELD_PANE,
	FIELD_CLOCK,
	FIELD_SCREEN,
	FIELD_PROCS,
	FIELD_COUNT,
};

void
obs_cursor_add(struct obs_cursor *c, const struct obs_cpu *p)
{
	if (c->n >= OBS_MAX_PROCS) {
		c->truncated = true;
		return;
	}
	c->procs = xrealloc(c->procs, (c->n + 1) * sizeof *c->procs);
	c->procs[c->n++] = *p;
}

void
obs_cursor_free(struct obs_cursor *c)
{
	free(c->procs);
	c->procs = NULL;
	c->n = 0;
}

char *
obs_cursor_format(const struct obs_cursor *c)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	buf_printf(&b, "%s;%s;", OBS_CURSOR_MAGIC, c->session);
	if (c->pane_pid > 0)
		buf_printf(&b, "%ld:%s;", c->pane_pid, c->pane_start[0] !=
		    '\0' ? c->pane_start : "-");
	else
		buf_adds(&b, "-;");
	buf_printf(&b, "%llu;%s;", c->clock_ms, c->screen[0] != '\0' ?
	    c->screen : "-");
	for (i = 0; i < c->n; i++) {
		buf_printf(&b, "%s%ld:%s:%llu:%llu", i == 0 ? "" : ",",
		    c->procs[i].pid, c->procs[i].start_id, c->procs[i].cpu_ms,
		    c->procs[i].child_cpu_ms);
	}
	return buf_steal(&b, NULL);
}

/* [s, end) is a decimal number that fits; 0 or -1. */
static int
parse_ull(const char *s, const char *end, unsigned long long *out)
{
	unsigned long long v = 0;

	if (s == end || end - s > 20)
		return -1;
	for (; s < end; s++) {
		if (!isdigit((unsigned char)*s) ||
		    v > (ULLONG_MAX - (unsigned long long)(*s - '0')) / 10)
			return -1;
		v = v * 10 + (unsigned long long)(*s - '0');
	}
	*out = v;
	return 0;
}

static int
parse_pid(const char *s, const char *end, long *out)
{
	unsigned long long v;

	if (parse_ull(s, end, &v) != 0 || v == 0 || v > INT_MAX)
		return -1;
	*out = (long)v;
	return 0;
}

/* A start id: digits and dots, as proc_start_id writes them. */
static int
parse_start(const char *s, const char *end, char *out, size_t len)
{
	const char *p;

	if (s == end || (size_t)(end - s) >= len)
		return -1;
	for (p = s; p < end; p++) {
		if (!isdigit((unsigned char)*p) && *p != '.')
			return -1;
	}
	memcpy(out, s, (size_t)(end - s));
	out[end - s] = '\0';
	return 0;
}

static bool
session_char(char ch)
{
	return isalnum((unsigned char)ch) || ch == '_' || ch == '-';
}

static int
parse_session(const char *s, const char *end, struct obs_cursor *c)
{
	const char *p;

	if (s == end || end - s > OBS_SESSION_MAX || *s == '-')
		return -1;
	for (p = s; p < end; p++) {
		if (!session_char(*p))
			return -1;
	}
	memcpy(c->session, s, (size_t)(end - s));
	c->session[end - s] = '\0';
	return 0;
}

static int
parse_pane(const char *s, const char *end, struct obs_cursor *c)
{
	const char *colon = memchr(s, ':', (size_t)(end - s));

	if (end - s == 1 && *s == '-') {
		c->pane_pid = -1;
		c->pane_start[0] = '\0';
		return 0;
	}
	if (colon == NULL || parse_pid(s, colon, &c->pane_pid) != 0)
		return -1;
	if (end - colon == 2 && colon[1] == '-') {
		c->pane_start[0] = '\0';
		return 0;
	}
	return parse_start(colon + 1, end, c->pane_start,
	    sizeof c->pane_start);
}

static int
parse_screen(const char *s, const char *end, struct obs_cursor *c)
{
	const char *p;

	if (end - s == 1 && *s == '-') {
		c->screen[0] = '\0';
		return 0;
	}
	if (end - s != OBS_DIGEST_HEX)
		return -1;
	for (p = s; p < end; p++) {
		if (strchr("0123456789abcdef", *p) == NULL)
			return -1;
	}
	memcpy(c->screen, s, OBS_DIGEST_HEX);
	c->screen[OBS_DIGEST_HEX] = '\0';
	return 0;
}

/* One "<pid>:<start>:<cpu>:<child cpu>". */
static int
parse_proc(const char *s, const char *end, struct obs_cpu *p)
{
	const char *part[4], *stop[4], *q = s;
	int i;

	for (i = 0; i < 4; i++) {
		part[i] = q;
		while (q < end && *q != ':')
			q++;
		stop[i] = q;
		if (i < 3) {
			if (q == end)
				return -1;
			q++;
		}
	}
	if (stop[3] != end)
		return -1;
	memset(p, 0, sizeof *p);
	if (parse_pid(part[0], stop[0], &p->pid) != 0 ||
	    parse_start(part[1], stop[1], p->start_id,
	    sizeof p->start_id) != 0 ||
	    parse_ull(part[2], stop[2], &p->cpu_ms) != 0 ||
	    parse_ull(part[3], stop[3], &p->child_cpu_ms) != 0)
		return -1;
	return 0;
}

static int
parse_procs(const char *s, const char *end, struct obs_cursor *c,
    struct aiterm_error *err)
{
	struct obs_cpu p;
	const char *q;

	while (s < end) {
		if ((q = memchr(s, ',', (size_t)(end - s))) == NULL)
			q = end;
		if (parse_proc(s, q, &p) != 0)
			return error_set(err, "process entry %zu is malformed",
			    c->n + 1);
		if (c->n >= OBS_MAX_PROCS)
			return error_set(err, "more than %d processes",
			    OBS_MAX_PROCS);
		obs_cursor_add(c, &p);
		s = q == end ? end : q + 1;
		if (q != end && s == end)
			return error_set(err, "it ends with ','");
	}
	return 0;
}

int
obs_cursor_parse(const char *text, struct obs_cursor *c,
    struct aiterm_error *err)
{
	static const char *const names[FIELD_COUNT] = { "version", "session",
	    "pane", "clock", "screen digest", "processes" };
	const char *start[FIELD_COUNT], *stop[FIELD_COUNT], *p = text;
	unsigned long long clock;
	int i, rc = -1;

	memset(c, 0, sizeof *c);
	for (i = 0; i < FIELD_COUNT; i++) {
		start[i] = p;
		while (*p != '\0' && (*p != ';' || i == FIELD_PROCS))
			p++;
		stop[i] = p;
		if (i < FIELD_COUNT - 1) {
			if (*p != ';') {
				error_set(err, "it has %d of %d fields "
				    "(not a pty_observe cursor)", i + 1,
				    FIELD_COUNT);
				goto out;
			}
			p++;
		}
	}
	if ((size_t)(stop[FIELD_MAGIC] - start[FIELD_MAGIC]) !=
	    strlen(OBS_CURSOR_MAGIC) || memcmp(start[FIELD_MAGIC],
	    OBS_CURSOR_MAGIC, strlen(OBS_CURSOR_MAGIC)) != 0) {
		error_set(err, "unknown version (want %s)", OBS_CURSOR_MAGIC);
		goto out;
	}
	if (parse_session(start[FIELD_SESSION], stop[FIELD_SESSION], c) != 0)
		i = FIELD_SESSION;
	else if (parse_pane(start[FIELD_PANE], stop[FIELD_PANE], c) != 0)
		i = FIELD_PANE;
	else if (parse_ull(start[FIELD_CLOCK], stop[FIELD_CLOCK], &clock) != 0)
		i = FIELD_CLOCK;
	else if (parse_screen(start[FIELD_SCREEN], stop[FIELD_SCREEN], c) != 0)
		i = FIELD_SCREEN;
	else
		i = FIELD_COUNT;
	if (i != FIELD_COUNT) {
		error_set(err, "its %s field is malformed", names[i]);
		goto out;
	}
	c->clock_ms = clock;
	if (parse_procs(start[FIELD_PROCS], stop[FIELD_PROCS], c, err) != 0)
		goto out;
	rc = 0;
out:
	if (rc != 0)
		obs_cursor_free(c);
	return rc;
}

bool
obs_cursor_same_pane(const struct obs_cursor *prev,
    const struct obs_cursor *now)
{
	return prev->pane_pid > 0 && prev->pane_pid == now->pane_pid &&
	    prev->pane_start[0] != '\0' &&
	    strcmp(prev->pane_start, now->pane_start) == 0;
}

static const struct obs_cpu *
find(const struct obs_cursor *c, const struct obs_cpu *p)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		if (c->procs[i].pid == p->pid &&
		    strcmp(c->procs[i].start_id, p->start_id) == 0)
			return &c->procs[i];
	}
	return NULL;
}

void
obs_delta_compute(const struct obs_cursor *prev, const struct obs_cursor *now,
    struct obs_delta *d)
{
	const struct obs_cpu *p, *was;
	unsigned long long cpu;
	size_t i;

	memset(d, 0, sizeof *d);
	d->interval_ms = now->clock_ms > prev->clock_ms ?
	    now->clock_ms - prev->clock_ms : 0;
	d->screen_changed = strcmp(prev->screen, now->screen) != 0;
	d->complete = !prev->truncated && prev->n < OBS_MAX_PROCS &&
	    !now->truncated;
	d->procs = xcalloc(now->n + 1, sizeof *d->procs);
	d->ended = xcalloc(prev->n + 1, sizeof *d->ended);
	for (i = 0; i < now->n; i++) {
		p = &now->procs[i];
		if ((was = find(prev, p)) != NULL) {
			cpu = p->cpu_ms > was->cpu_ms ? p->cpu_ms - was->cpu_ms :
			    0;
			if (p->child_cpu_ms > was->child_cpu_ms)
				d->complete = false;
		} else {
			cpu = p->cpu_ms;
			if (p->child_cpu_ms > 0 || p->start_ms < prev->clock_ms)
				d->complete = false;
		}
		d->cpu_ms += cpu;
		if (p->background) {
			d->background_procs++;
			d->background_cpu_ms += cpu;
		}
		if (cpu > 0 || was == NULL) {
			d->procs[d->nprocs].now = p;
			d->procs[d->nprocs].cpu_ms = cpu;
			d->procs[d->nprocs].started = was == NULL;
			d->nprocs++;
		}
	}
	for (i = 0; i < prev->n; i++) {
		if (find(now, &prev->procs[i]) == NULL) {
			d->ended[d->nended++] = &prev->procs[i];
			d->complete = false;
		}
	}
}

void
obs_delta_free(struct obs_delta *d)
{
	free(d->procs);
	free(d->ended);
	memset(d, 0, sizeof *d);
}
