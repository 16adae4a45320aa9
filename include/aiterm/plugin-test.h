/*
 * Aiterm plugin test kit (libaiterm-plugin-test, pkg-config
 * aiterm-plugin-test): what a plugin's own unit tests link instead of the
 * core.  Not for plugins themselves: a plugin links nothing of Aiterm.
 *
 * A fake host table whose buffers, errors and log work as the server's
 * do, and a fixture runner that replays recorded screens and transcripts
 * against a harness plugin's classify, count_turns, read_turn and
 * approval ops (the layout and the expect file are in aiterm-plugin(7)
 * and doc/harness.md).  Not thread-safe; one test program at a time.
 */
#ifndef AITERM_PLUGIN_TEST_H
#define AITERM_PLUGIN_TEST_H

#include <stddef.h>

#include <aiterm/plugin.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * The fake host: abi_major and abi_minor of this header; buf_*, error as
 * the server's; log records every line (see aiterm_test_log) and also
 * prints it to stderr when AITERM_PLUGIN_LOG names its level or a lower
 * one; run calls the function set by aiterm_test_set_run, else fails;
 * state_root is a fresh 0700 folder under $TMPDIR, removed at exit, and
 * write_state writes below it; spawn_program starts nothing and records
 * its argv (see aiterm_test_spawned).
 */
const struct aiterm_host *aiterm_test_host(void);

/* A buffer the host's functions take; its bytes NUL-ended. */
struct aiterm_buf *aiterm_test_buf(void);
const char	*aiterm_test_buf_str(const struct aiterm_buf *buf);
size_t		 aiterm_test_buf_len(const struct aiterm_buf *buf);
void		 aiterm_test_buf_reset(struct aiterm_buf *buf);
void		 aiterm_test_buf_free(struct aiterm_buf *buf);

/* An error slot: its message, or NULL when none was set. */
struct aiterm_error *aiterm_test_error(void);
const char	*aiterm_test_error_msg(const struct aiterm_error *err);
void		 aiterm_test_error_clear(struct aiterm_error *err);
void		 aiterm_test_error_free(struct aiterm_error *err);

/*
 * Every line logged so far, "<level>: <plugin>: <text>\n" (level debug,
 * info, notice, warning or error), whatever AITERM_PLUGIN_LOG says.
 */
const char	*aiterm_test_log(void);
void		 aiterm_test_log_clear(void);

/* What host->run does; NULL (the default): it fails with a message. */
typedef int (*aiterm_test_run_fn)(const char *const argv[],
    struct aiterm_buf *out, struct aiterm_buf *errout,
    struct aiterm_error *err);
void		 aiterm_test_set_run(aiterm_test_run_fn fn);

/* The argv of each spawn_program call, one call a line, words by spaces. */
const char	*aiterm_test_spawned(void);

/*
 * The fixture runner: checks a harness plugin against the recorded
 * screens and transcripts of one folder, as dir/expect lists them (one
 * check a line; aiterm-plugin(7)).  Prints "ok N - ..." or "not ok N -
 * ..." a check; returns how many failed, or -1 (with why on stderr) when
 * the plugin is no harness or the expect file cannot be read or parsed.
 */
int	aiterm_test_fixtures(const struct aiterm_plugin *plugin,
	    const char *dir);

#ifdef __cplusplus
}
#endif
#endif
