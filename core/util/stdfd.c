/* Standard descriptors of a program that hands text over: stdfd.h. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include "util/stdfd.h"

void
stdfd_guard(void)
{
	int fd;

	/* In order: open() takes the lowest free number, the one closed. */
	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY) != fd)
			_exit(1);
	}
	signal(SIGPIPE, SIG_IGN);
}
