/* REPL prompts on the current line of a screen. */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include "shell/dialect.h"
#include "shell/repl-prompt.h"

/*
 * In a pattern '*' stands for one or more characters that are not blank
 * (a database name); every other character stands for itself.
 */
static const struct repl_prompt {
	const char	*pattern;
	const char	*repl;
	const char	*exe;	/* its program's name when not repl's */
} repl_prompts[] = {
	{ ">>>",		"python", NULL },
	{ "...",		"python", NULL },	/* node's too */
	{ ">",			"node", NULL },
	{ "sqlite>",		"sqlite3", NULL },
	{ "...>",		"sqlite3", NULL },
	{ "*=#",		"psql", NULL },	/* a superuser's */
	{ "*=>",		"psql", NULL },
	{ "*-#",		"psql", NULL },	/* a statement goes on */
	{ "*->",		"psql", NULL },
	{ "*'#",		"psql", NULL },	/* inside a quote */
	{ "*'>",		"psql", NULL },
	{ "*\"#",		"psql", NULL },
	{ "*\">",		"psql", NULL },
	{ "*(#",		"psql", NULL },	/* inside parentheses */
	{ "*(>",		"psql", NULL },
	{ "*$#",		"psql", NULL },	/* inside $$ */
	{ "*$>",		"psql", NULL },
	{ "mysql>",		"mysql", NULL },
	{ "MariaDB [*]>",	"mysql", "mariadb" },
	{ "->",			"mysql", NULL },	/* a statement goes on */
	{ "'>",			"mysql", NULL },
	{ "\">",		"mysql", NULL },
	{ "`>",			"mysql", NULL },
	{ "In [*]:",		"ipython", NULL },
	{ "...:",		"ipython", NULL },
};

static bool
blank(char c)
{
	return c == ' ' || c == '\t' || c == '\r';
}

/* Does pattern p match all of s (len bytes)? */
static bool
match(const char *p, const char *s, size_t len)
{
	size_t i;

	if (*p == '\0')
		return len == 0;
	if (*p != '*')
		return len > 0 && *s == *p && match(p + 1, s + 1, len - 1);
	for (i = 1; i <= len && !blank(s[i - 1]); i++) {
		if (match(p + 1, s + i, len - i))
			return true;
	}
	return false;
}

const char *
shell_repl_prompt(const char *screen)
{
	const char *s;
	size_t len, i;

	if (screen == NULL || !shell_last_line(screen, &s, &len))
		return NULL;
	while (len > 0 && blank(*s)) {
		s++;
		len--;
	}
	for (i = 0; i < sizeof repl_prompts / sizeof repl_prompts[0]; i++) {
		if (match(repl_prompts[i].pattern, s, len))
			return repl_prompts[i].repl;
	}
	return NULL;
}

bool
shell_repl_known(const char *exe)
{
	const char *name;
	size_t i;

	if (exe == NULL)
		return false;
	for (i = 0; i < sizeof repl_prompts / sizeof repl_prompts[0]; i++) {
		name = repl_prompts[i].exe != NULL ? repl_prompts[i].exe :
		    repl_prompts[i].repl;
		if (strncmp(exe, name, strlen(name)) == 0)
			return true;
	}
	return false;
}
