/*
 * pane_info's question to tmux and the reading of its answer.
 */
#include <stdlib.h>
#include <string.h>

#include "mux-tmux.h"

/*
 * What pane_info asks for, tab-separated: the server's PID, then the
 * pane.  The command name goes last so a tab in it cannot shift the
 * numbers.  pane_dead_signal is empty before tmux 3.3.
 */
#define TX_PANE_FIELDS "#{pid}\t#{pane_pid}\t#{pane_dead}\t" \
    "#{pane_dead_status}\t#{pane_dead_signal}\t#{pane_width}\t" \
    "#{pane_height}\t#{cursor_x}\t#{cursor_y}\t#{pane_current_command}"

const char tx_pane_format[] = TX_PANE_FIELDS;

/*
 * What list asks list-panes -a for: the session's name and creation time
 * in front.  tmux refuses ':' in a session name, so the first ':' ends it.
 */
const char tx_list_format[] = "#{session_name}:#{session_created}\t"
    TX_PANE_FIELDS;

/* Split one pane_info line into info; -1 when it is not ours. */
int
tx_pane_parse(const char *line, struct aiterm_pane_info *info,
    long *server_pid)
{
	const char *all[10], **field = all + 1;
	long status, signal;
	size_t len;
	int i, rc = -1;

	all[0] = line;
	for (i = 1; i < 10 && all[i - 1] != NULL; i++) {
		all[i] = strchr(all[i - 1], '\t');
		if (all[i] != NULL)
			all[i]++;
	}
	if (i < 10 || all[9] == NULL)
		goto out;
	*server_pid = strtol(all[0], NULL, 10);
	info->exists = 1;
	info->pid = strtol(field[0], NULL, 10);
	if (info->pid <= 0)
		info->pid = -1;
	info->dead = *field[1] == '1';
	/* An empty field (the next tab at once) means tmux does not know. */
	status = *field[2] == '\t' ? -1 : strtol(field[2], NULL, 10);
	signal = *field[3] == '\t' ? -1 : strtol(field[3], NULL, 10);
	if (info->dead && status >= 0)
		info->dead_status = (int)status;
	else if (info->dead && signal > 0)
		info->dead_status = 128 + (int)signal;
	info->cols = (unsigned)strtoul(field[4], NULL, 10);
	info->rows = (unsigned)strtoul(field[5], NULL, 10);
	info->cursor_x = (unsigned)strtoul(field[6], NULL, 10);
	info->cursor_y = (unsigned)strtoul(field[7], NULL, 10);
	len = strcspn(field[8], "\r\n");
	if (len >= sizeof info->command)
		len = sizeof info->command - 1;
	memcpy(info->command, field[8], len);
	info->command[len] = '\0';
	rc = 0;
out:
	return rc;
}

int
tx_list_parse(char *line, const char **session, long *created,
    struct aiterm_pane_info *info, long *server_pid)
{
	char *colon = strchr(line, ':'), *tab;
	int rc = -1;

	memset(info, 0, sizeof *info);
	info->pid = -1;
	info->dead_status = -1;
	if (colon == NULL)
		goto out;
	*colon = '\0';
	*session = line;
	*created = strtol(colon + 1, &tab, 10);
	if (tab == colon + 1 || *tab != '\t')
		goto out;
	rc = tx_pane_parse(tab + 1, info, server_pid);
out:
	return rc;
}
