/*
 * A notice as the conversation's last block: Claude Code and Codex write
 * a usage limit's words there (AGT-LIMIT; ADR 0011), Cursor a user hook's
 * refusal of a prompt (ADR 0017), and leave them in the scrollback after
 * later turns.  Only the last block counts: an old notice with a prompt
 * or an answer under it is history.
 */
#include <string.h>

#include "hlib.h"

/* The line at p (to nl) after its leading spaces starts with one of v. */
static const char *
starts_any(const char *p, const char *nl, const char *const *v)
{
	size_t n;

	while (p < nl && *p == ' ')
		p++;
	for (; *v != NULL; v++) {
		n = strlen(*v);
		if ((size_t)(nl - p) >= n && memcmp(p, *v, n) == 0)
			return p + n;
	}
	return NULL;
}

bool
hl_last_block(const struct aiterm_screen *s, const char *composer,
    const char *const *marks, const char *const *notices,
    const char **line, size_t *len)
{
	const char *p = s->text, *end = s->text + s->len, *nl, *rest;
	const char *const comp[] = { composer, NULL };
	const char *block = NULL, *block_end = NULL, *seen = NULL;
	const char *seen_end = NULL;

	/* The last block start above the last composer line. */
	for (; p < end; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			nl = end;
		if (starts_any(p, nl, comp) != NULL) {
			block = seen;
			block_end = seen_end;
		}
		if ((rest = starts_any(p, nl, marks)) != NULL) {
			seen = rest;
			seen_end = nl;
		}
	}
	if (block == NULL || starts_any(block, block_end, notices) == NULL)
		return false;
	while (block < block_end && *block == ' ')
		block++;
	*line = block;
	*len = (size_t)(block_end - block);
	return true;
}
