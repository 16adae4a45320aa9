/* Shell names to dialects, and PowerShell prompt recognition. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>

#include "shell/dialect.h"

static const struct shell_name {
	const char		*name;
	enum shell_dialect	 dialect;
} shell_names[] = {
	{ "sh",			SHELL_POSIX },
	{ "bash",		SHELL_POSIX },
	{ "dash",		SHELL_POSIX },
	{ "zsh",		SHELL_POSIX },
	{ "ksh",		SHELL_POSIX },
	{ "ksh93",		SHELL_POSIX },
	{ "mksh",		SHELL_POSIX },
	{ "lksh",		SHELL_POSIX },
	{ "pdksh",		SHELL_POSIX },
	{ "oksh",		SHELL_POSIX },
	{ "ash",		SHELL_POSIX },
	{ "busybox",		SHELL_POSIX },
	{ "yash",		SHELL_POSIX },
	{ "posh",		SHELL_POSIX },
	{ "fish",		SHELL_FISH },
	{ "pwsh",		SHELL_POWERSHELL },
	{ "pwsh-preview",	SHELL_POWERSHELL },
	{ "powershell",		SHELL_POWERSHELL },
	{ "powershell_ise",	SHELL_POWERSHELL },
};

static const char *dialect_names[] = {
	[SHELL_POSIX] = "posix",
	[SHELL_POWERSHELL] = "powershell",
	[SHELL_FISH] = "fish",
	[SHELL_UNKNOWN] = "unknown",
};

enum shell_dialect
shell_dialect_for(const char *command_name)
{
	const char *base, *p;
	size_t len, i;

	if (command_name == NULL)
		return SHELL_UNKNOWN;
	base = command_name;
	for (p = command_name; *p != '\0'; p++) {
		if (*p == '/' || *p == '\\')
			base = p + 1;
	}
	if (*base == '-')
		base++;
	len = strlen(base);
	if (len > 4 && strcasecmp(base + len - 4, ".exe") == 0)
		len -= 4;
	for (i = 0; i < sizeof shell_names / sizeof shell_names[0]; i++) {
		if (strlen(shell_names[i].name) == len &&
		    strncasecmp(shell_names[i].name, base, len) == 0)
			return shell_names[i].dialect;
	}
	return SHELL_UNKNOWN;
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

bool
shell_last_line(const char *screen, const char **start, size_t *len)
{
	const char *end = screen + strlen(screen), *line;

	while (end > screen && (is_blank(end[-1]) || end[-1] == '\n'))
		end--;
	if (end == screen)
		return false;
	line = end;
	while (line > screen && line[-1] != '\n')
		line--;
	*start = line;
	*len = (size_t)(end - line);
	return true;
}

/* A remoting session prefixes the prompt with "[computer]: ". */
static size_t
remoting_prefix_len(const char *s, size_t len)
{
	size_t i;

	if (len == 0 || s[0] != '[')
		return 0;
	for (i = 1; i + 2 < len; i++) {
		if (s[i] == ']')
			return i > 1 && s[i + 1] == ':' && s[i + 2] == ' ' ?
			    i + 3 : 0;
	}
	return 0;
}

enum shell_dialect
shell_dialect_from_prompt(const char *screen)
{
	const char *s;
	size_t len, path_end, skip;

	if (screen == NULL || !shell_last_line(screen, &s, &len))
		return SHELL_UNKNOWN;
	skip = remoting_prefix_len(s, len);
	s += skip;
	len -= skip;
	if (len < 5 || strncmp(s, "PS ", 3) != 0 || s[len - 1] != '>')
		return SHELL_UNKNOWN;
	path_end = len;
	while (path_end > 3 && s[path_end - 1] == '>')
		path_end--;
	/* The path: not empty, and starting with no blank. */
	if (path_end == 3 || is_blank(s[3]))
		return SHELL_UNKNOWN;
	return SHELL_POWERSHELL;
}

const char *
shell_dialect_name(enum shell_dialect dialect)
{
	if ((unsigned)dialect >= sizeof dialect_names / sizeof dialect_names[0])
		return "unknown";
	return dialect_names[dialect];
}
