/* Sentinel suffixes and their detection (see sentinel.h). */
#include <string.h>

#include "shell/osc133.h"
#include "shell/sentinel.h"

/*
 * Text around the nonce, per dialect: the start mark typed before the
 * command, the end mark after it; NULL: no sentinel.
 */
static const struct sentinel_form {
	const char	*start_before;
	const char	*start_after;
	const char	*before;
	const char	*after;
} sentinel_forms[] = {
	[SHELL_POSIX] = {
		"printf '\\033]133;C;aiterm=",
		"\\007'; ",
		"; printf '\\033]133;D;%s;aiterm=",
		"\\007' \"$?\"",
	},
	[SHELL_FISH] = {
		"printf '\\033]133;C;aiterm=",
		"\\007'; ",
		"; printf '\\033]133;D;%s;aiterm=",
		"\\007' $status",
	},
	[SHELL_POWERSHELL] = {
		"Write-Host -NoNewline \"$([char]27)]133;C;aiterm=",
		"$([char]7)\"; ",
		"; $__aitermS = if ($?) { 0 } elseif ($LASTEXITCODE) "
		"{ $LASTEXITCODE } else { 1 }; Write-Host -NoNewline "
		"\"$([char]27)]133;D;$__aitermS;aiterm=",
		"$([char]7)\"",
	},
	[SHELL_UNKNOWN] = { NULL, NULL, NULL, NULL },
};

static bool
nonce_valid(const char *nonce)
{
	size_t len = nonce == NULL ? 0 : strlen(nonce);

	if (len == 0 || len > OSC133_TOKEN_MAX)
		return false;
	return strspn(nonce, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == len;
}

/* The dialect's form and a valid nonce, or -1 with an error. */
static const struct sentinel_form *
form_for(enum shell_dialect dialect, const char *nonce,
    struct aiterm_error *err)
{
	if ((unsigned)dialect >= sizeof sentinel_forms / sizeof sentinel_forms[0] ||
	    sentinel_forms[dialect].before == NULL) {
		error_set(err, "no sentinel for the %s dialect",
		    shell_dialect_name(dialect));
		return NULL;
	}
	if (!nonce_valid(nonce)) {
		error_set(err, "invalid sentinel nonce: 1 to %d "
		    "characters from [A-Za-z0-9_.-] expected", OSC133_TOKEN_MAX);
		return NULL;
	}
	return &sentinel_forms[dialect];
}

int
sentinel_build(enum shell_dialect dialect, const char *nonce,
    struct aiterm_buf *out, struct aiterm_error *err)
{
	const struct sentinel_form *f = form_for(dialect, nonce, err);

	if (f == NULL)
		return -1;
	buf_adds(out, f->before);
	buf_adds(out, nonce);
	buf_adds(out, f->after);
	return 0;
}

int
sentinel_wrap(enum shell_dialect dialect, const char *nonce,
    struct aiterm_buf *line, size_t *suffix_at, struct aiterm_error *err)
{
	const struct sentinel_form *f = form_for(dialect, nonce, err);
	struct aiterm_buf wrapped = BUF_INIT;

	if (f == NULL)
		return -1;
	buf_adds(&wrapped, f->start_before);
	buf_adds(&wrapped, nonce);
	buf_adds(&wrapped, f->start_after);
	buf_add(&wrapped, line->data == NULL ? "" : line->data, line->len);
	if (suffix_at != NULL)
		*suffix_at = wrapped.len;
	buf_adds(&wrapped, f->before);
	buf_adds(&wrapped, nonce);
	buf_adds(&wrapped, f->after);
	buf_free(line);
	*line = wrapped;
	return 0;
}

bool
sentinel_find(const char *data, size_t len, const char *nonce,
    int *exit_code, size_t *start, size_t *end)
{
	struct osc133_parser p;
	struct osc133_mark mark;
	size_t off = 0, used;

	if (nonce == NULL)
		return false;
	osc133_init(&p);
	while (off < len &&
	    osc133_feed(&p, data + off, len - off, &used, &mark)) {
		off += used;
		if (mark.kind != 'D' || !mark.has_exit ||
		    strcmp(mark.token, nonce) != 0)
			continue;
		if (exit_code != NULL)
			*exit_code = mark.exit_code;
		if (start != NULL)
			*start = (size_t)mark.start;
		if (end != NULL)
			*end = (size_t)mark.end;
		return true;
	}
	return false;
}
