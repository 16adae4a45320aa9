#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "proc/proc.h"
#include "pty/secret.h"
#include "pty/session.h"
#include "util/buf.h"

/*
 * The words of the prompts of sudo ("[sudo] password for u: "), su and
 * passwd ("Password: ", "New password: "), ssh ("Enter passphrase for
 * key '…': ", "u@h's password: "), gpg's loopback pinentry ("Enter
 * passphrase: ") and card PINs.
 */
static const char *const prompt_words[] = {
	"password", "passphrase", "passcode", "pin", NULL,
};

/* word as a word of line, any case. */
static bool
has_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *p;

	for (p = line; *p != '\0'; p++) {
		if (strncasecmp(p, word, n) != 0)
			continue;
		if ((p == line || !isalpha((unsigned char)p[-1])) &&
		    !isalpha((unsigned char)p[n]))
			return true;
	}
	return false;
}

bool
secret_prompt_known(const char *line)
{
	size_t len = strlen(line), i;

	while (len > 0 && line[len - 1] == ' ')
		len--;
	if (len == 0 || line[len - 1] != ':')
		return false;
	for (i = 0; prompt_words[i] != NULL; i++) {
		if (has_word(line, prompt_words[i]))
			return true;
	}
	return false;
}

/* Row y of a captured screen, cleaned, into prompt. */
static void
screen_row(const char *screen, unsigned y, char prompt[SECRET_PROMPT_MAX])
{
	const char *p = screen, *end;
	size_t n = 0;

	while (y > 0 && (p = strchr(p, '\n')) != NULL) {
		p++;
		y--;
	}
	prompt[0] = '\0';
	if (p == NULL)
		return;
	end = strchr(p, '\n');
	if (end == NULL)
		end = p + strlen(p);
	for (; p < end && n < SECRET_PROMPT_MAX - 1; p++) {
		if ((unsigned char)*p >= 0x20 && *p != 0x7f)
			prompt[n++] = *p;
	}
	while (n > 0 && prompt[n - 1] == ' ')
		n--;
	prompt[n] = '\0';
}

/*
 * Programs that carry the terminal to another machine or container, by
 * executable name: in the foreground with the local terminal raw, what
 * reads the keys is on the far side.
 */
static const char *const carriers[] = {
	"ssh", "mosh-client", "telnet", "docker", "podman", "kubectl", NULL,
};

static bool
far_side(long pid)
{
	char name[PROC_NAME_MAX];
	size_t i;

	if (proc_tty_job_exe(pid, name, sizeof name) != 0 ||
	    proc_tty_canonical(pid) != 0)
		return false;
	for (i = 0; carriers[i] != NULL; i++)
		if (strcmp(name, carriers[i]) == 0)
			return true;
	return false;
}

/* A line's width in columns, a wide character as one (a lower bound). */
static size_t
columns(const char *s)
{
	size_t n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
}

bool
secret_pane_waits(const char *session, const struct aiterm_pane_info *pane,
    char prompt[SECRET_PROMPT_MAX])
{
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_mux_ops *mux;
	struct aiterm_buf screen = BUF_INIT;
	int how;
	bool far = false;

	prompt[0] = '\0';
	if ((how = proc_tty_secret(pane->pid)) == PROC_SECRET_NO)
		far = far_side(pane->pid);
	if (how < PROC_SECRET_NO || (how == PROC_SECRET_NO && !far))
		return false;
	mux = session_mux(&err);
	if (mux != NULL && mux->capture(host_get(), session, &screen,
	    &err) == 0)
		screen_row(buf_str(&screen), pane->cursor_y, prompt);
	error_clear(&err);
	buf_free(&screen);
	if (how == PROC_SECRET_READ)
		return true;
	/* The far side: nothing may follow the prompt on its line. */
	if (far && pane->cursor_x < columns(prompt))
		return false;
	return secret_prompt_known(prompt);
}
