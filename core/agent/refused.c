#include <stdio.h>
#include <string.h>

#include "agent/refused.h"
#include "util/buf.h"

uint64_t
agent_screen_digest(const struct agent_screen *s)
{
	uint64_t h = 14695981039346656037ULL;	/* FNV-1a */
	size_t i;

	for (i = 0; i < s->text.len; i++) {
		h ^= (unsigned char)s->text.data[i];
		h *= 1099511628211ULL;
	}
	return h;
}

bool
agent_hook_refused(const struct agent_screen *s, char *words, size_t size)
{
	const char *text = buf_str(&s->text), *at = NULL, *p, *nl;
	size_t n = strlen(AITERM_HOOK_BLOCKED_WORDS), len;

	words[0] = '\0';
	if (s->verdict.state != AITERM_SCREEN_INPUT_READY ||
	    s->verdict.reason == NULL ||
	    strcmp(s->verdict.reason, AITERM_USER_HOOK_BLOCKED) != 0)
		return false;
	/* The last one on the screen: the block the harness named. */
	for (p = text; (p = strstr(p, AITERM_HOOK_BLOCKED_WORDS)) != NULL;
	    p += n)
		at = p;
	if (at == NULL)
		return true;
	at += n;
	while (*at == ' ')
		at++;
	nl = strchr(at, '\n');
	len = nl != NULL ? (size_t)(nl - at) : strlen(at);
	while (len > 0 && at[len - 1] == ' ')
		len--;
	snprintf(words, size, "%.*s", (int)len, at);
	return true;
}

void
agent_turn_mark_save(struct agent_turn_mark *m, const struct agent_record *rec)
{
	m->turn = rec->turn;
	m->index = rec->index;
	m->dispatch = rec->dispatch;
	snprintf(m->confirmed_by, sizeof m->confirmed_by, "%s",
	    rec->confirmed_by);
	m->dispatched_ms = rec->dispatched_ms;
	m->running_mark = rec->running_mark;
}

void
agent_turn_unopen(const char *session, unsigned opened,
    const struct agent_turn_mark *m)
{
	struct aiterm_error err = ERROR_INIT;
	struct agent_record rec;

	if (agent_record_read(session, &rec, &err) != 0) {
		error_clear(&err);
		return;
	}
	if (rec.turn == opened) {
		rec.turn = m->turn;
		rec.index = m->index;
		rec.dispatch = m->dispatch;
		snprintf(rec.confirmed_by, sizeof rec.confirmed_by, "%s",
		    m->confirmed_by);
		rec.dispatched_ms = m->dispatched_ms;
		rec.running_mark = m->running_mark;
		agent_record_write(session, &rec, &err);
	}
	agent_record_free(&rec);
	error_clear(&err);
}
