/*
 * What every hook program (aiterm-hook-<cli>, built in its harness's
 * plugin folder, run through aiterm-hook) shares: its command line and
 * the hook's JSON input.  Nothing here knows a harness.
 */
#ifndef AITERM_HOOK_H
#define AITERM_HOOK_H

#include <stddef.h>

#include <jansson.h>

/*
 * One verb of a hook program ("claude-pre"): run takes the hook's JSON
 * object read on stdin, run_id a DELIVERY_ID argument; one is set.
 */
struct hook_verb {
	const char	*name;
	int		(*run)(json_t *in);
	int		(*run_id)(const char *id);
};

/*
 * The main of a hook program: argv is VERB [--state-dir DIR] [DELIVERY_ID]
 * (argv[0] is not read), or --help.  Sets up the state root and runs the
 * verb; its exit code, 0 for --help (usage on stdout), else 1 after saying
 * why on stderr (usage when the words are wrong).  usage is the program's
 * usage text, lines ending in '\n'.  A standard descriptor left closed
 * and SIGPIPE are seen to first (util/stdfd.h): a hand-over's write that
 * fails says so.
 */
int	hook_main(int argc, char **argv, const struct hook_verb *verbs,
	    size_t nverbs, const char *usage);

#endif
