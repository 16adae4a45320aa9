/*
 * Running psmux: "<binary> -L <namespace> <command words>" by host->run,
 * one client a command, no shell.  The client splits a command list on a
 * word that ends in ';', so such a word goes as "\;" (ps_word_escape).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux-psmux.h"

/*
 * What psmux and tmux print when there is no server or no such session.
 * psmux's texts follow tmux's; the tmux ones are what the Linux tests see.
 */
static const char *const ps_missing_texts[] = {
	"no server running",
	"error connecting to",
	"can't find session",
	"no such session",
	"session not found",
	"no current target",
	"no sessions",
	NULL,
};

int
ps_run(const struct aiterm_host *host, const struct ps_server *srv,
    const char *const *words, struct aiterm_buf *out,
    struct aiterm_buf *errout, struct aiterm_error *err)
{
	const char **argv;
	size_t n = 0, i;
	int status;

	for (i = 0; words[i] != NULL; i++)
		;
	argv = calloc(i + 4, sizeof *argv);
	if (argv == NULL)
		abort();
	argv[n++] = srv->binary;
	argv[n++] = "-L";
	argv[n++] = srv->ns;
	for (i = 0; words[i] != NULL; i++)
		argv[n++] = words[i];
	argv[n] = NULL;
	status = host->run(argv, out, errout, err);
	free(argv);
	return status;
}

int
ps_missing(const struct aiterm_host *host, struct aiterm_buf *errout)
{
	const char *text;
	size_t i;

	host->buf_add(errout, "", 1);	/* NUL-terminate what was read */
	text = host->buf_data(errout);
	for (i = 0; ps_missing_texts[i] != NULL; i++) {
		if (strstr(text, ps_missing_texts[i]) != NULL)
			return 1;
	}
	return 0;
}

int
ps_fail(const struct aiterm_host *host, struct aiterm_error *err,
    const char *what, const char *session, struct aiterm_buf *errout)
{
	const char *text = host->buf_len(errout) > 0 ? host->buf_data(errout) :
	    "";
	int len = (int)strcspn(text, "\r\n");

	if (len == 0)
		text = "(no message)", len = (int)strlen(text);
	if (session == NULL)
		return host->error(err, "psmux %s failed: %.*s", what, len,
		    text);
	return host->error(err, "psmux %s failed for session '%s': %.*s",
	    what, session, len, text);
}

void
ps_target(char *buf, size_t len, const char *session)
{
	snprintf(buf, len, "=%s:", session);
}

char *
ps_strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p == NULL)
		abort();
	return memcpy(p, s, n);
}

char *
ps_word_escape(const char *s)
{
	size_t n = strlen(s);
	char *p;

	if (n == 0 || s[n - 1] != ';')
		return ps_strdup(s);
	p = malloc(n + 2);
	if (p == NULL)
		abort();
	memcpy(p, s, n - 1);
	memcpy(p + n - 1, "\\;", 3);
	return p;
}

/*
 * psmux runs a pipe-pane command with PowerShell 7 (pwsh) on Windows:
 * the pane's bytes arrive on its standard input and are appended to the
 * file as they are.  Elsewhere (tmux, for the tests) /bin/sh runs it.
 * Either way the path is single-quoted: a quote is doubled for
 * PowerShell, and is '\'' for sh.
 */
char *
ps_pipe_command(const char *path)
{
#ifdef _WIN32
	static const char head[] = "pwsh -NoLogo -NoProfile -NonInteractive "
	    "-Command \"$i=[Console]::OpenStandardInput(); "
	    "$o=[IO.File]::Open('";
	static const char tail[] = "','Append','Write','ReadWrite'); "
	    "$i.CopyTo($o)\"";
	static const char quote[] = "''";
#else
	static const char head[] = "exec cat >>'";
	static const char tail[] = "'";
	static const char quote[] = "'\\''";
#endif
	size_t n = strlen(head) + strlen(tail) + 1, i, k;
	char *p;

	for (i = 0; path[i] != '\0'; i++)
		n += path[i] == '\'' ? sizeof quote - 1 : 1;
	p = malloc(n);
	if (p == NULL)
		abort();
	k = strlen(head);
	memcpy(p, head, k);
	for (i = 0; path[i] != '\0'; i++) {
		if (path[i] == '\'') {
			memcpy(p + k, quote, sizeof quote - 1);
			k += sizeof quote - 1;
		} else
			p[k++] = path[i];
	}
	memcpy(p + k, tail, strlen(tail) + 1);
	return p;
}
