/*
 * harness-gemini (AGT-GEMINI, issue 39) on the recorded screens and chat
 * files of the real Gemini CLI 0.61.0 (tests/harness/fixtures/
 * gemini-cli-0.61.0), loaded through the registry from the build tree;
 * and the core's check of a turn against its prompt (ABI 2.4) on them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/harness.h"
#include "agent/record.h"
#include "agent/transcript.h"
#include "plugin/host.h"
#include "plugin/registry.h"
#include "state/atomic.h"
#include "util/buf.h"

#ifndef HARNESS_FIXTURES
#error HARNESS_FIXTURES is not set
#endif

#define GM	HARNESS_FIXTURES "/gemini-cli-0.61.0"

static char *
slurp(const char *name, size_t *len)
{
	struct aiterm_error err = ERROR_INIT;
	char path[4096], *data = NULL;

	snprintf(path, sizeof path, "%s/%s", GM, name);
	ck_assert_msg(file_read(path, &data, len, &err) == 0, "%s: %s", path,
	    error_msg(&err));
	return data;
}

static void
gemini(struct harness *h)
{
	struct aiterm_error err = ERROR_INIT;

	registry_load_default();
	ck_assert_msg(harness_find("gemini-cli", h, &err) == 0, "%s",
	    error_msg(&err));
	ck_assert_uint_ge(h->abi_minor, 4);
	ck_assert_uint_eq(h->ops->turn_rules, AITERM_TURN_ENDS_IDLE);
}

static const struct {
	const char			*file;
	enum aiterm_screen_state	 state;
	const char			*reason, *dialog;
} screens[] = {
	{ "startup-composer-not-ready", AITERM_SCREEN_STARTING,
	    "composer_not_ready", NULL },
	{ "auth-chooser", AITERM_SCREEN_ONBOARDING,
	    "vendor_onboarding_required", NULL },
	{ "trust", AITERM_SCREEN_BLOCKING_DIALOG, "trust_folder", NULL },
	{ "running", AITERM_SCREEN_RUNNING, "esc_to_cancel", NULL },
	{ "queued", AITERM_SCREEN_RUNNING, "esc_to_cancel",
	    AITERM_INPUT_QUEUED },
	{ "queued-after-steer", AITERM_SCREEN_RUNNING, "esc_to_cancel",
	    AITERM_INPUT_QUEUED },
	{ "approval-shell", AITERM_SCREEN_APPROVAL, "tool_approval", NULL },
	{ "idle-after-tool", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	{ "cancelled", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "api-error", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	{ "composer-typed", AITERM_SCREEN_INPUT_READY, "composer_has_text",
	    AITERM_INPUT_TYPED },
	/* Vim mode's hints in the empty box are no typed text (ADR 0048). */
	{ "composer-vim-insert", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	{ "composer-vim-normal", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	/* A rule and a quote in an answer: the composer is the last one. */
	{ "answer-rule-and-quote", AITERM_SCREEN_INPUT_READY, "composer_empty",
	    NULL },
	/* YOLO mode (Ctrl+Y): the box's sign is "*". */
	{ "composer-yolo", AITERM_SCREEN_INPUT_READY, "composer_empty", NULL },
	/*
	 * Shell mode (the user's: a prompt typed there would run as a
	 * command): a dialog the core leaves alone, nothing typed.
	 */
	{ "composer-shell-mode", AITERM_SCREEN_BLOCKING_DIALOG, "shell_mode",
	    NULL },
};

START_TEST(test_gemini_screens)
{
	struct aiterm_screen_verdict v;
	struct aiterm_screen s;
	struct harness h;
	char name[256];
	size_t i;

	gemini(&h);
	for (i = 0; i < sizeof screens / sizeof screens[0]; i++) {
		snprintf(name, sizeof name, "screens/%s.txt", screens[i].file);
		memset(&s, 0, sizeof s);
		s.text = slurp(name, &s.len);
		s.cols = 120;
		s.rows = 40;
		memset(&v, 0, sizeof v);
		h.ops->classify(&s, &v);
		ck_assert_msg(v.state == screens[i].state &&
		    strcmp(v.reason, screens[i].reason) == 0 &&
		    (v.dialog == NULL ? screens[i].dialog == NULL :
		    screens[i].dialog != NULL &&
		    strcmp(v.dialog, screens[i].dialog) == 0),
		    "%s: %d/%s/%s", screens[i].file, v.state, v.reason,
		    v.dialog ? v.dialog : "-");
		free((char *)s.text);
	}
	/* The trust question persists its answer: never pressed. */
	ck_assert_ptr_null(h.ops->startup_keys("trust_folder", 1));
}
END_TEST

START_TEST(test_gemini_approval)
{
	struct aiterm_buf subject = BUF_INIT;
	const struct aiterm_input_step *k;
	struct aiterm_approval a;
	struct aiterm_screen s;
	struct harness h;

	gemini(&h);
	memset(&s, 0, sizeof s);
	s.text = slurp("screens/approval-shell.txt", &s.len);
	memset(&a, 0, sizeof a);
	a.subject = &subject;
	ck_assert_int_eq(h.ops->approval(host_get(), &s, &a), 1);
	ck_assert_str_eq(a.kind, "command");
	ck_assert_str_eq(buf_str(&subject), "Shell touch made.txt");
	ck_assert_str_eq(a.choices[0], "approve_once");
	ck_assert_str_eq(a.choices[2], "deny");
	k = h.ops->approval_keys("deny");
	ck_assert_int_eq(k[0].kind, AITERM_INPUT_TEXT);
	ck_assert_str_eq(k[0].arg, "3");
	ck_assert_ptr_null(h.ops->approval_keys("approve_always"));
	free((char *)s.text);
	buf_free(&subject);
	/* No approval on an idle screen. */
	memset(&s, 0, sizeof s);
	s.text = slurp("screens/idle-after-tool.txt", &s.len);
	ck_assert_int_eq(h.ops->approval(host_get(), &s, &a), 0);
	free((char *)s.text);
}
END_TEST

static const struct {
	const char		*file;
	size_t			 cut;	/* lines kept, 0 all */
	unsigned		 count, index;
	enum aiterm_turn_state	 state;
	const char		*reason, *answer, *prompt;
} turns[] = {
	{ "plain", 0, 1, 0, AITERM_TURN_DONE, "reply", "First answer.",
	    "First question" },
	{ "tool", 0, 1, 0, AITERM_TURN_DONE, "reply", "Tool answer.",
	    "List the folder" },
	/* The reply's text alone: a candidate the core holds (idle rule). */
	{ "tool", 5, 1, 0, AITERM_TURN_DONE, "reply", "Let me look.", NULL },
	/* The same message with its tool call: the turn goes on. */
	{ "tool", 7, 1, 0, AITERM_TURN_STARTED, "tool_calls", "", NULL },
	{ "mixed", 0, 7, 0, AITERM_TURN_DONE, "reply", "Shell done.",
	    "Run echo" },
	{ "mixed", 0, 7, 1, AITERM_TURN_DONE, "reply", "Made.",
	    "Make a file" },
	/* Denied: cancelled, and the history replay after it is no turn. */
	{ "mixed", 0, 7, 2, AITERM_TURN_ERROR, "cancelled",
	    "Request cancelled.", "Delete it" },
	{ "mixed", 0, 7, 4, AITERM_TURN_ERROR, "api_error", NULL,
	    "Break please" },
	{ "mixed", 0, 7, 5, AITERM_TURN_DONE, "reply", "Held answer.",
	    "Slow one" },
	/* Text queued during turn 5: a turn of its own. */
	{ "mixed", 0, 7, 6, AITERM_TURN_DONE, "reply", "Queued answer.",
	    "Also this" },
	/*
	 * Another Gemini's clean-up took the header and the first prompt:
	 * the reply that opens the file is turn 0's, its prompt unknown.
	 */
	{ "cut-by-cleanup", 0, 2, 0, AITERM_TURN_DONE, "reply",
	    "First answer.", "" },
	{ "cut-by-cleanup", 0, 2, 1, AITERM_TURN_DONE, "reply",
	    "Second answer.", "Second question" },
	/* Only the reply yet, which may still be rewritten with tool calls. */
	{ "cut-by-cleanup", 1, 1, 0, AITERM_TURN_DONE, "reply",
	    "First answer.", "" },
};

/* The first n lines of text (all when n is 0): their length. */
static size_t
lines(const char *text, size_t len, size_t n)
{
	size_t i;

	for (i = 0; n > 0 && i < len; i++)
		if (text[i] == '\n' && --n == 0)
			return i + 1;
	return len;
}

START_TEST(test_gemini_turns)
{
	struct aiterm_buf answer = BUF_INIT, prompt = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_turn t;
	struct harness h;
	char name[256], *text;
	size_t i, len;

	gemini(&h);
	for (i = 0; i < sizeof turns / sizeof turns[0]; i++) {
		snprintf(name, sizeof name, "chats/%s.jsonl", turns[i].file);
		text = slurp(name, &len);
		len = lines(text, len, turns[i].cut);
		ck_assert_uint_eq(h.ops->count_turns(text, len),
		    turns[i].count);
		memset(&t, 0, sizeof t);
		buf_reset(&answer);
		buf_reset(&prompt);
		t.answer = &answer;
		t.prompt = &prompt;
		ck_assert_int_eq(h.ops->read_turn(host_get(), text, len,
		    turns[i].index, &t, &err), 0);
		ck_assert_msg(t.state == turns[i].state &&
		    strcmp(t.reason, turns[i].reason) == 0, "%s/%zu turn %u: "
		    "%d/%s", turns[i].file, turns[i].cut, turns[i].index,
		    t.state, t.reason);
		if (turns[i].answer != NULL)
			ck_assert_str_eq(buf_str(&answer), turns[i].answer);
		if (turns[i].prompt != NULL)
			ck_assert_str_eq(buf_str(&prompt), turns[i].prompt);
		/* One past the last: nothing recorded for it. */
		ck_assert_int_eq(h.ops->read_turn(host_get(), text, len,
		    turns[i].count, &t, &err), 0);
		ck_assert_int_eq(t.state, AITERM_TURN_NONE);
		free(text);
	}
	buf_free(&answer);
	buf_free(&prompt);
}
END_TEST

/*
 * A reply before any prompt in a file that has its header is no turn:
 * only a file the clean-up cut (no header) lost a prompt.
 */
START_TEST(test_gemini_reply_first_with_header)
{
	const char *text = "{\"sessionId\":\"11111111-2222-4333-8444-"
	    "555555555555\"}\n{\"id\":\"b2\",\"type\":\"gemini\","
	    "\"content\":\"Stray.\"}\n";
	const char *cut = strchr(text, '\n') + 1;
	struct harness h;

	gemini(&h);
	ck_assert_uint_eq(h.ops->count_turns(text, strlen(text)), 0);
	/* The same reply with the header gone: the first turn's. */
	ck_assert_uint_eq(h.ops->count_turns(cut, strlen(cut)), 1);
}
END_TEST

START_TEST(test_gemini_api_error_text)
{
	struct aiterm_buf answer = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_turn t;
	struct harness h;
	size_t len;
	char *text;

	gemini(&h);
	text = slurp("chats/mixed.jsonl", &len);
	memset(&t, 0, sizeof t);
	t.answer = &answer;
	ck_assert_int_eq(h.ops->read_turn(host_get(), text, len, 4, &t,
	    &err), 0);
	ck_assert_str_eq(buf_str(&answer), "[API Error: {\"error\":{\"code\":"
	    "400,\"message\":\"Mock bad request: the model refused.\","
	    "\"status\":\"INVALID_ARGUMENT\"}}]");
	free(text);
	buf_free(&answer);
}
END_TEST

/*
 * The core's check (ABI 2.4): a turn whose index holds another prompt
 * (the queued text ran there) is refused, with no answer; the one that
 * holds the text sent (white space aside) is read.
 */
START_TEST(test_gemini_prompt_checked)
{
	struct aiterm_buf answer = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct agent_record r;
	struct aiterm_turn t;
	struct harness h;

	gemini(&h);
	memset(&r, 0, sizeof r);
	snprintf(r.transcript, sizeof r.transcript, "%s",
	    GM "/chats/mixed.jsonl");
	r.index = 6;
	agent_record_prompt(&r, "Next one", 8);
	ck_assert_int_eq(transcript_turn(&h, &r, &t, &answer, &err),
	    TRANSCRIPT_OTHER_PROMPT);
	ck_assert_int_eq(t.state, AITERM_TURN_NONE);
	ck_assert_str_eq(t.reason, "prompt_mismatch");
	ck_assert_str_eq(buf_str(&answer), "");
	ck_assert_str_eq(error_msg(&err), "the transcript's turn at index 6 "
	    "is the prompt \"Also this\", not the text sent (\"Next one\")");
	error_clear(&err);
	agent_record_prompt(&r, "Also\n  this", 11);
	ck_assert_int_eq(transcript_turn(&h, &r, &t, &answer, &err), 0);
	ck_assert_int_eq(t.state, AITERM_TURN_DONE);
	ck_assert_str_eq(buf_str(&answer), "Queued answer.");
	/* No prompt kept (a record of an older server): not checked. */
	buf_reset(&answer);
	r.prompt[0] = '\0';
	r.index = 5;
	ck_assert_int_eq(transcript_turn(&h, &r, &t, &answer, &err), 0);
	ck_assert_str_eq(buf_str(&answer), "Held answer.");
	buf_free(&answer);
}
END_TEST

START_TEST(test_gemini_claim)
{
	struct aiterm_transcript_query q;
	struct harness h;
	const char *head = "{\"sessionId\":\"11111111-2222-4333-8444-"
	    "555555555555\",\"projectHash\":\"x\"}\n";
	const char *other = "{\"sessionId\":\"11111111-9999-4333-8444-"
	    "555555555555\",\"projectHash\":\"x\"}\n";
	const char *headless = "{\"id\":\"9de1\",\"type\":\"user\","
	    "\"content\":[{\"text\":\"Hello\"}]}\n";

	gemini(&h);
	memset(&q, 0, sizeof q);
	q.launch_id = "11111111222233338444555555555555";
	ck_assert_int_eq(h.ops->transcript_claim(&q, "session-2026-12-06T17-"
	    "18-11111111.jsonl", head, strlen(head), 0), AITERM_CLAIM_YES);
	/* Another session's file, and a first line not yet whole. */
	ck_assert_int_eq(h.ops->transcript_claim(&q, "session-2026-12-06T17-"
	    "18-22222222.jsonl", head, strlen(head), 0), AITERM_CLAIM_NO);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "session-2026-12-06T17-"
	    "18-11111111.jsonl", head, 20, 0), AITERM_CLAIM_UNKNOWN);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "logs.json", head,
	    strlen(head), 0), AITERM_CLAIM_NO);
	/* A file of this name whose header names another session. */
	ck_assert_int_eq(h.ops->transcript_claim(&q, "session-2026-12-06T17-"
	    "18-11111111.jsonl", other, strlen(other), 0), AITERM_CLAIM_NO);
	/*
	 * Its header deleted by another Gemini's start-up clean-up, the
	 * file made anew by the next record: its name is the evidence.
	 */
	ck_assert_int_eq(h.ops->transcript_claim(&q, "session-2026-12-06T17-"
	    "18-11111111.jsonl", headless, strlen(headless), 0),
	    AITERM_CLAIM_YES);
	ck_assert_int_eq(h.ops->transcript_claim(&q, "session-2026-12-06T17-"
	    "18-22222222.jsonl", headless, strlen(headless), 0),
	    AITERM_CLAIM_NO);
}
END_TEST

static Suite *
gemini_suite(void)
{
	Suite *s = suite_create("harness-gemini");
	TCase *tc = tcase_create("gemini-cli");

	tcase_add_test(tc, test_gemini_screens);
	tcase_add_test(tc, test_gemini_approval);
	tcase_add_test(tc, test_gemini_turns);
	tcase_add_test(tc, test_gemini_reply_first_with_header);
	tcase_add_test(tc, test_gemini_api_error_text);
	tcase_add_test(tc, test_gemini_prompt_checked);
	tcase_add_test(tc, test_gemini_claim);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(gemini_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
