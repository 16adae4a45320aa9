/*
 * aiterm-askpass: the SSH_ASKPASS program of remote hosts (REM-AUTH, ADR
 * 0019).  ssh runs it with its prompt as the only argument; it sends the
 * prompt to the aiterm-mcp that started that ssh, over the socket named by
 * AITERM_ASKPASS_SOCKET (0600, in a 0700 folder), and prints the answer.
 * The secret is never in its argv, its environment or a file.
 *
 * Exit status: 0 the answer was printed, 1 none (a prompt aiterm-mcp does
 * not answer, or no secret), 2 no socket to ask.
 */
#include "config.h"

#include <sys/socket.h>
#include <sys/un.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SECRET_MAX	4096

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		if ((k = write(fd, p, n)) <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

int
main(int argc, char **argv)
{
	const char *path = getenv("AITERM_ASKPASS_SOCKET");
	const char *prompt = argc > 1 ? argv[1] : "";
	struct sockaddr_un sa;
	char answer[SECRET_MAX + 1];
	size_t have = 0;
	ssize_t k;
	int fd, rc = 1;

	alarm(30);	/* never hang ssh */
	if (path == NULL || strlen(path) >= sizeof sa.sun_path) {
		fprintf(stderr, "aiterm-askpass: AITERM_ASKPASS_SOCKET is not "
		    "set (run by aiterm-mcp for a remote host only)\n");
		return 2;
	}
	memset(&sa, 0, sizeof sa);
	sa.sun_family = AF_UNIX;
	memcpy(sa.sun_path, path, strlen(path));
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof sa) != 0) {
		fprintf(stderr, "aiterm-askpass: cannot reach %s\n", path);
		return 2;
	}
	if (write_all(fd, prompt, strlen(prompt)) != 0 ||
	    write_all(fd, "\n", 1) != 0)
		return 2;
	while (have < SECRET_MAX &&
	    (k = read(fd, answer + have, SECRET_MAX - have)) > 0)
		have += (size_t)k;
	close(fd);
	if (have > 0) {
		answer[have++] = '\n';
		rc = write_all(STDOUT_FILENO, answer, have) == 0 ? 0 : 1;
	}
	{
		volatile char *p = answer;

		while (have > 0)
			p[--have] = '\0';
	}
	return rc;
}
