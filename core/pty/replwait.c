/*
 * A send into a REPL right after a result whose until matched before the
 * REPL was back at its prompt (until "done 6" on a line printed before
 * ">>> ") was typed while python still ran: the terminal echoed it, then
 * python drew ">>> " and its line editor echoed it again.  The send's
 * until ">>> " then matched that prompt, the previous command's, at
 * once, and the send after it got this one's prompt as its result (found
 * by tests/mcp/pty-repl.test.cjs under distcheck).  The shell's twin is
 * send.c's wait_prompt.  Normally the prompt is there already.
 */
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "proc/proc.h"
#include "pty/replwait.h"
#include "reduce/strip.h"
#include "shell/repl-prompt.h"
#include "util/buf.h"

#define POLL_MS		2
#define TAIL_BYTES	1024

static bool
known_repl(long pane_pid)
{
	char name[PROC_NAME_MAX];

	return proc_tty_job_exe(pane_pid, name, sizeof name) == 0 &&
	    shell_repl_known(name);
}

/* Whether the last line the log shows is a REPL's prompt. */
static bool
at_prompt(int fd)
{
	char tail[TAIL_BYTES];
	struct aiterm_buf shown = BUF_INIT;
	struct stat st;
	off_t from;
	ssize_t n;
	bool yes;

	if (fstat(fd, &st) != 0)
		return false;
	from = st.st_size > TAIL_BYTES ? st.st_size - TAIL_BYTES : 0;
	if ((n = pread(fd, tail, sizeof tail, from)) <= 0)
		return false;
	red_strip(tail, (size_t)n, &shown);
	yes = shell_repl_prompt(buf_str(&shown)) != NULL;
	buf_free(&shown);
	return yes;
}

bool
repl_wait_prompt(long pane_pid, const char *log)
{
	struct timespec ts = { 0, POLL_MS * 1000000L };
	bool yes = false;
	int waited, fd;

	if (pane_pid <= 0 || log == NULL || !known_repl(pane_pid) ||
	    (fd = open(log, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	for (waited = 0; waited < REPLWAIT_MS; waited += POLL_MS) {
		if ((yes = at_prompt(fd)))
			break;
		nanosleep(&ts, NULL);
	}
	close(fd);
	return yes;
}
