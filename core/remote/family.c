/* A far shell family's command lines: family.h. */
#include <string.h>

#include "remote/family.h"
#include "util/buf.h"

static const char *const names[] = {
	[REMOTE_FAM_UNKNOWN] = "POSIX",
	[REMOTE_FAM_POSIX] = "POSIX",
	[REMOTE_FAM_CMD] = "cmd",
	[REMOTE_FAM_PWSH] = "PowerShell",
};

const char *
remote_family_name(enum remote_family f)
{
	return (size_t)f < sizeof names / sizeof names[0] ? names[f] : "POSIX";
}

/* cmd: bare when nothing in it means anything to cmd, else "...". */
static int
cmd_word(struct aiterm_buf *b, const char *w)
{
	/* cmd expands %VAR% inside quotes too, and has no escape for ". */
	if (strpbrk(w, "\"%") != NULL)
		return -1;
	if (*w != '\0' && strpbrk(w, " \t&|<>^(),;=!") == NULL)
		buf_adds(b, w);
	else
		buf_printf(b, "\"%s\"", w);
	return 0;
}

/* PowerShell: '...', a ' doubled. */
static int
pwsh_word(struct aiterm_buf *b, const char *w)
{
	buf_addc(b, '\'');
	for (; *w != '\0'; w++) {
		if (*w == '\'')
			buf_addc(b, '\'');
		buf_addc(b, *w);
	}
	buf_addc(b, '\'');
	return 0;
}

static int
posix_word(struct aiterm_buf *b, const char *w)
{
	buf_add_word(b, w);
	return 0;
}

char *
remote_family_line(enum remote_family f, const char *const *words,
    size_t n)
{
	int (*word)(struct aiterm_buf *, const char *) =
	    f == REMOTE_FAM_CMD ? cmd_word : f == REMOTE_FAM_PWSH ?
	    pwsh_word : posix_word;
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	if (f == REMOTE_FAM_PWSH)
		buf_adds(&b, "& ");
	for (i = 0; i < n; i++) {
		if (strpbrk(words[i], "\r\n") != NULL ||
		    word(&b, words[i]) != 0) {
			buf_free(&b);
			return NULL;
		}
		if (i + 1 < n)
			buf_addc(&b, ' ');
	}
	return buf_steal(&b, NULL);
}
