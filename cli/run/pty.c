/* A run on its own pseudo-terminal (POSIX ptys; fork and exec). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#include "cli/run/pty.h"

/* In the child: only async-signal-safe calls until exec. */
static void
child(const char *const *argv, const char *cwd, int slave, int report)
{
	sigset_t none;
	int e, sig;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (sig = 1; sig < NSIG; sig++)
		signal(sig, SIG_DFL);
	if (setsid() < 0 || ioctl(slave, TIOCSCTTY, 0) < 0 ||
	    dup2(slave, 0) < 0 || dup2(slave, 1) < 0 || dup2(slave, 2) < 0 ||
	    (cwd != NULL && chdir(cwd) < 0))
		goto fail;
	if (slave > 2)
		close(slave);
	execvp(argv[0], (char *const *)argv);
fail:
	e = errno;
	(void)!write(report, &e, sizeof e);
	_exit(127);
}

int
run_pty_spawn(const char *const *argv, const char *cwd, unsigned cols,
    unsigned rows, int *master, long *pid, int *exec_errno,
    struct aiterm_error *err)
{
	struct winsize ws = { (unsigned short)rows, (unsigned short)cols, 0,
	    0 };
	int m, s = -1, report[2] = { -1, -1 }, e = 0, rc = -1;
	char name[128];
	ssize_t n;
	pid_t p;

	*exec_errno = 0;
	if ((m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0 ||
	    grantpt(m) != 0 || unlockpt(m) != 0 ||
	    ptsname_r(m, name, sizeof name) != 0 ||
	    (s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0 ||
	    ioctl(s, TIOCSWINSZ, &ws) != 0 || pipe2(report, O_CLOEXEC) != 0) {
		error_set(err, "cannot make a terminal: %s", strerror(errno));
		goto out;
	}
	if ((p = fork()) < 0) {
		error_set(err, "fork: %s", strerror(errno));
		goto out;
	}
	if (p == 0)
		child(argv, cwd, s, report[1]);
	close(report[1]);
	report[1] = -1;
	/* The report pipe closes at exec; an errno on it means no exec. */
	while ((n = read(report[0], &e, sizeof e)) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof e) {
		while (waitpid(p, NULL, 0) < 0 && errno == EINTR)
			;
		*exec_errno = e;
		error_set(err, "%s: %s", argv[0], strerror(e));
		goto out;
	}
	*master = m;
	m = -1;
	*pid = (long)p;
	rc = 0;
out:
	if (m >= 0)
		close(m);
	if (s >= 0)
		close(s);
	if (report[0] >= 0)
		close(report[0]);
	if (report[1] >= 0)
		close(report[1]);
	return rc;
}
