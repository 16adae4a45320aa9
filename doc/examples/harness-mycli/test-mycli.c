/*
 * harness-mycli's unit tests, with the installed test kit alone:
 *
 *	cc $(pkg-config --cflags aiterm-plugin-test) -std=c11 \
 *	    -o test-mycli test-mycli.c mycli.c \
 *	    $(pkg-config --libs aiterm-plugin-test)
 *	./test-mycli fixtures/mycli-1.2.3
 *
 * The ops that take the host (launch, transcript_dir, read_turn) get the
 * kit's fake host; the recorded screens and transcripts are replayed by
 * its fixture runner.  Exits 0 when every check passed.
 */
#include <stdio.h>
#include <string.h>

#include <aiterm/harness-util.h>
#include <aiterm/plugin-test.h>

static int failed;

static void
check(int ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok" : "not ok", what);
	failed += !ok;
}

/* launch: mycli --session <launch id>; a model is refused. */
static void
test_launch(const struct aiterm_harness_ops *ops)
{
	const struct aiterm_host *host = aiterm_test_host();
	struct aiterm_buf *argv = aiterm_test_buf(), *env = aiterm_test_buf();
	struct aiterm_error *err = aiterm_test_error();
	struct aiterm_launch_plan plan = { argv, env };
	struct aiterm_launch_request req;
	static const char want[] = "/usr/bin/mycli\0--session\0"
	    "0123456789abcdef0123456789abcdef";

	memset(&req, 0, sizeof req);
	req.launch_id = "0123456789abcdef0123456789abcdef";
	req.binary = "/usr/bin/mycli";
	req.cwd = "/home/u/app";
	req.home = "/home/u";
	check(ops->launch(host, &req, &plan, err) == 0 &&
	    aiterm_test_buf_len(argv) == sizeof want &&
	    memcmp(aiterm_test_buf_str(argv), want, sizeof want) == 0 &&
	    aiterm_test_buf_len(env) == 0, "launch: mycli --session <id>");
	check(strstr(aiterm_test_log(), "debug: harness-mycli: launch "
	    "0123456789abcdef0123456789abcdef") != NULL,
	    "launch: its debug line");
	req.model = "big";
	check(ops->launch(host, &req, &plan, err) == -1 &&
	    strcmp(aiterm_test_error_msg(err), "mycli has no models to choose "
	    "from") == 0, "launch: a model is refused with why");
	aiterm_test_buf_free(argv);
	aiterm_test_buf_free(env);
	aiterm_test_error_free(err);
}

/* transcript_dir and transcript_claim: ~/.mycli/log, by the file's name. */
static void
test_transcript(const struct aiterm_harness_ops *ops)
{
	struct aiterm_buf *dir = aiterm_test_buf();
	struct aiterm_error *err = aiterm_test_error();
	struct aiterm_transcript_query q;
	int depth = -1;

	memset(&q, 0, sizeof q);
	q.launch_id = "0123456789abcdef0123456789abcdef";
	q.home = "/home/u";
	check(ops->transcript_dir(aiterm_test_host(), &q, dir, &depth,
	    err) == 0 && strcmp(aiterm_test_buf_str(dir),
	    "/home/u/.mycli/log") == 0 && depth == 0, "transcript_dir");
	check(ops->transcript_claim(&q, "0123456789abcdef0123456789abcdef."
	    "jsonl", "", 0, 0) == AITERM_CLAIM_YES, "claim: its own file");
	check(ops->transcript_claim(&q, "default.jsonl", "", 0, 0) ==
	    AITERM_CLAIM_NO, "claim: another session's file");
	q.home = "";
	check(ops->transcript_dir(aiterm_test_host(), &q, dir, &depth,
	    err) == -1 && strcmp(aiterm_test_error_msg(err),
	    "HOME is not set") == 0, "transcript_dir: no HOME");
	aiterm_test_buf_free(dir);
	aiterm_test_error_free(err);
}

/* The header-only helper: a launch id as a session UUID. */
static void
test_uuid(void)
{
	char u[37];

	aiterm_session_uuid("0123456789abcdef0123456789abcdef", u);
	check(strcmp(u, "01234567-89ab-4def-8123-456789abcdef") == 0,
	    "aiterm_session_uuid");
	aiterm_session_uuid("ffffffffffffffffffffffffffffffff", u);
	check(strcmp(u, "ffffffff-ffff-4fff-bfff-ffffffffffff") == 0,
	    "aiterm_session_uuid: the variant digit");
	/* Upper case lowered, other bytes skipped, short ones padded. */
	aiterm_session_uuid("AB-cd.EF", u);
	check(strcmp(u, "abcdef00-0000-4000-8000-000000000000") == 0,
	    "aiterm_session_uuid: any input");
}

int
main(int argc, char **argv)
{
	const struct aiterm_plugin *p = aiterm_plugin_describe();
	int i, bad;

	test_launch(p->ops);
	test_transcript(p->ops);
	test_uuid();
	for (i = 1; i < argc; i++) {
		if ((bad = aiterm_test_fixtures(p, argv[i])) != 0)
			failed += bad < 0 ? 1 : bad;
	}
	if (failed > 0)
		fprintf(stderr, "test-mycli: %d failed\n", failed);
	return failed > 0;
}
