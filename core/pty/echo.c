#include <stdbool.h>
#include <string.h>

#include "pty/echo.h"
#include "shell/repl-prompt.h"

#define PROMPT_MAX	64

static size_t
rtrim(const char *s, size_t n)
{
	while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t' ||
	    s[n - 1] == '\r'))
		n--;
	return n;
}

/* Is line the echo of typed (one line each), after a REPL prompt or none? */
static bool
echoes(const char *line, size_t len, const char *typed, size_t tlen,
    bool bare_ok)
{
	char prompt[PROMPT_MAX];
	size_t plen;

	len = rtrim(line, len);
	tlen = rtrim(typed, tlen);
	if (len < tlen || memcmp(line + len - tlen, typed, tlen) != 0)
		return false;
	plen = len - tlen;
	if (plen == 0)
		return bare_ok && tlen > 0;
	if (plen >= PROMPT_MAX)
		return false;
	memcpy(prompt, line, plen);
	prompt[plen] = '\0';
	return shell_repl_prompt(prompt) != NULL;
}

size_t
echo_typed_len(const char *out, size_t len, const char *typed)
{
	const char *o = out, *end = out + len, *t = typed, *onl, *tnl;
	size_t tlen;
	bool first = true;

	if (typed == NULL || *typed == '\0')
		return 0;
	while (*t != '\0') {
		tnl = strchr(t, '\n');
		tlen = tnl == NULL ? strlen(t) : (size_t)(tnl - t);
		if (o >= end || (onl = memchr(o, '\n', (size_t)(end - o))) ==
		    NULL)
			return 0;
		if (!echoes(o, (size_t)(onl - o), t, tlen, first))
			return 0;
		first = false;
		o = onl + 1;
		if (tnl == NULL)
			break;
		t = tnl + 1;
	}
	return (size_t)(o - out);
}
