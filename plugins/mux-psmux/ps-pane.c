/*
 * pane_info's and list's questions to psmux and the reading of the
 * answers, and the key names send_key takes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mux-psmux.h"

/*
 * Tab-separated, the command name last so that a tab in it cannot shift
 * the numbers.  psmux documents pane_pid, pane_dead and
 * pane_current_command (the executable of the pane's child on Windows).
 */
#define PS_PANE_FIELDS "#{pane_pid}\t#{pane_dead}\t#{pane_dead_status}\t" \
    "#{pane_width}\t#{pane_height}\t#{cursor_x}\t#{cursor_y}\t" \
    "#{pane_current_command}"
#define PS_PANE_NFIELDS 8

const char ps_pane_format[] = PS_PANE_FIELDS;
const char ps_list_format[] = "#{session_name}\t#{session_created}\t"
    PS_PANE_FIELDS;

static int
ps_number(const char *s, long *v)
{
	char *end;

	if (*s == '\0') {
		*v = -1;
		return 0;
	}
	*v = strtol(s, &end, 10);
	return *end == '\0' ? 0 : -1;
}

int
ps_pane_parse(char *line, const char **session, long *created,
    struct aiterm_pane_info *info)
{
	char *field[PS_PANE_NFIELDS + 2], *p = line;
	long v[PS_PANE_NFIELDS - 1];
	size_t want = PS_PANE_NFIELDS + (session != NULL ? 2 : 0), n, i;

	line[strcspn(line, "\r\n")] = '\0';
	for (n = 0; n < want; n++) {
		field[n] = p;
		if (n + 1 == want)
			break;
		p = strchr(p, '\t');
		if (p == NULL)
			return -1;
		*p++ = '\0';
	}
	n = 0;
	if (session != NULL) {
		*session = field[0];
		if (**session == '\0' || ps_number(field[1], created) != 0)
			return -1;
		n = 2;
	}
	for (i = 0; i + 1 < PS_PANE_NFIELDS; i++) {
		if (ps_number(field[n + i], &v[i]) != 0)
			return -1;
	}
	memset(info, 0, sizeof *info);
	info->exists = 1;
	info->pid = v[0] > 0 ? v[0] : -1;
	info->dead = v[1] == 1;
	info->dead_status = info->dead ? (int)v[2] : -1;
	info->cols = v[3] > 0 ? (unsigned)v[3] : 0;
	info->rows = v[4] > 0 ? (unsigned)v[4] : 0;
	info->cursor_x = v[5] > 0 ? (unsigned)v[5] : 0;
	info->cursor_y = v[6] > 0 ? (unsigned)v[6] : 0;
	snprintf(info->command, sizeof info->command, "%s",
	    field[n + PS_PANE_NFIELDS - 1]);
	return 0;
}

/* The names psmux documents for send-keys (docs/scripting.md). */
static const char *const ps_keys[] = {
	"Enter", "Escape", "Tab", "BSpace", "Space", "Up", "Down", "Left",
	"Right", "Home", "End", "PageUp", "PageDown", "Delete", "Insert",
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11",
	"F12",
	"C-a", "C-b", "C-c", "C-d", "C-e", "C-f", "C-g", "C-h", "C-i", "C-j",
	"C-k", "C-l", "C-m", "C-n", "C-o", "C-p", "C-q", "C-r", "C-s", "C-t",
	"C-u", "C-v", "C-w", "C-x", "C-y", "C-z",
	NULL,
};

const char *const *
ps_key_names(void)
{
	return ps_keys;
}

int
ps_key_valid(const char *key)
{
	size_t i;

	for (i = 0; key != NULL && ps_keys[i] != NULL; i++) {
		if (strcmp(ps_keys[i], key) == 0)
			return 1;
	}
	return 0;
}
