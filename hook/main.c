/*
 * aiterm-hook: the one command the agent clients' hooks and the receiver
 * plugins run (aiterm-setup writes it into the clients' settings), whichever
 * harness packages are installed:
 *
 *   aiterm-hook CLI-WHAT [ARGUMENTS...]
 *
 * execs aiterm-hook-CLI, the hook program of the harness package
 * aiterm-harness-CLI, from beside this program (a build tree, or the
 * bindir it was installed to), else from the bindir, with argv unchanged:
 * the hook program reads the same words, and /proc shows aiterm-hook
 * CLI-WHAT.  It knows no harness: the hooks there are, are the programs
 * installed.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/path.h"
#include "util/xmalloc.h"

#define PREFIX	"aiterm-hook-"
/* The letters of a CLI's name. */
#define CLI_CHARS	"abcdefghijklmnopqrstuvwxyz0123456789"

/* The length of CLI in CLI-WHAT (a-z, 0-9), 0 when verb is not one. */
static size_t
cli_len(const char *verb)
{
	size_t n = strspn(verb, CLI_CHARS);

	return n > 0 && verb[n] == '-' && verb[n + 1] != '\0' ? n : 0;
}

/* The folder of the running program (malloc'd), NULL when unknown. */
static char *
self_dir(void)
{
	char self[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);

	if (n <= 0)
		return NULL;
	self[n] = '\0';
	if ((slash = strrchr(self, '/')) == NULL)
		return NULL;
	*slash = '\0';
	return xstrdup(self);
}

static int
by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The hook programs there are, each the one a verb of its CLI runs. */
static void
list_programs(FILE *to)
{
	const char *dirs[2] = { NULL, AITERM_BINDIR };
	char *self = self_dir(), **names = NULL, *path;
	const struct dirent *e;
	size_t n = 0, i, shown = 0;
	DIR *dp;

	dirs[0] = self;
	for (i = 0; i < 2; i++) {
		if (dirs[i] == NULL || (dp = opendir(dirs[i])) == NULL)
			continue;
		while ((e = readdir(dp)) != NULL) {
			const char *cli = e->d_name + strlen(PREFIX);

			if (strncmp(e->d_name, PREFIX, strlen(PREFIX)) != 0 ||
			    *cli == '\0' || cli[strspn(cli, CLI_CHARS)] != '\0')
				continue;
			names = xrealloc(names, (n + 1) * sizeof *names);
			names[n++] = xstrdup(e->d_name);
		}
		closedir(dp);
	}
	if (n > 1)
		qsort(names, n, sizeof *names, by_name);
	fprintf(to, "Hook programs found:\n");
	for (i = 0; i < n; i++) {
		if (i > 0 && strcmp(names[i], names[i - 1]) == 0)
			continue;
		path = path_sibling(names[i], AITERM_BINDIR);
		if (path_is_executable(path)) {
			fprintf(to, "  %s-*\t%s\n", names[i] + strlen(PREFIX),
			    path);
			shown++;
		}
		free(path);
	}
	if (shown == 0)
		fprintf(to, "  none: install a harness package "
		    "(aiterm-harness-CLI)\n");
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(self);
}

static int
usage(FILE *to)
{
	fprintf(to, "usage: aiterm-hook CLI-HOOK [--state-dir DIR] "
	    "[DELIVERY_ID] [< hook-input.json]\n"
	    "       aiterm-hook --help\n"
	    "Runs the hook program aiterm-hook-CLI (of the package "
	    "aiterm-harness-CLI)\nwith the same arguments.  ");
	list_programs(to);
	return to == stdout ? 0 : 1;
}

int
main(int argc, char **argv)
{
	char *name, *path;
	size_t n;

	if (argc < 2)
		return usage(stderr);
	if (argc == 2 && strcmp(argv[1], "--help") == 0)
		return usage(stdout);
	if ((n = cli_len(argv[1])) == 0) {
		fprintf(stderr, "aiterm-hook: unknown hook '%s'\n", argv[1]);
		return usage(stderr);
	}
	name = xasprintf(PREFIX "%.*s", (int)n, argv[1]);
	path = path_sibling(name, AITERM_BINDIR);
	if (!path_is_executable(path)) {
		fprintf(stderr, "aiterm-hook: no hook program for '%s': %s is "
		    "not installed (package aiterm-harness-%.*s)\n", argv[1],
		    name, (int)n, argv[1]);
		free(path);
		free(name);
		return 1;
	}
	execv(path, argv);
	fprintf(stderr, "aiterm-hook: %s: %s\n", path, strerror(errno));
	free(path);
	free(name);
	return 1;
}
