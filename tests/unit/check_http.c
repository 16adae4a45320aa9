/*
 * The secret page's HTTP reader (core/util/http.c) and the known password
 * prompts (core/pty/secret.c), issue 36, ADR 0037: whole requests parse,
 * partial ones ask for more, and everything outside the strict subset is
 * refused with its status, never guessed at.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "pty/secret.h"
#include "util/http.h"

static char buf[HTTP_HEAD_MAX + HTTP_BODY_MAX + 64];

/* http_parse on a copy of s (the reader writes into its buffer). */
static int
parse(const char *s, struct http_request *req, int *status)
{
	size_t len = strlen(s);

	ck_assert_uint_lt(len, sizeof buf);
	memcpy(buf, s, len);
	*status = 0;
	return http_parse(buf, len, req, status);
}

START_TEST(whole_requests)
{
	struct http_request req;
	int status;

	ck_assert_int_eq(parse("GET /s/ab HTTP/1.1\r\nHost: 127.0.0.1:80\r\n"
	    "X-A:  v  \r\n\r\n", &req, &status), 1);
	ck_assert_str_eq(req.method, "GET");
	ck_assert_str_eq(req.target, "/s/ab");
	ck_assert_str_eq(http_header(&req, "host"), "127.0.0.1:80");
	ck_assert_str_eq(http_header(&req, "x-a"), "v");
	ck_assert_ptr_null(http_header(&req, "origin"));
	ck_assert_int_eq(parse("POST /s HTTP/1.1\r\nContent-Length: 5\r\n\r\n"
	    "a=b&c", &req, &status), 1);
	ck_assert_uint_eq(req.body_len, 5);
	ck_assert_str_eq(req.body, "a=b&c");
}
END_TEST

START_TEST(partial_requests)
{
	struct http_request req;
	int status;

	ck_assert_int_eq(parse("GET / HTTP/1.1\r\nHost: x", &req, &status), 0);
	ck_assert_int_eq(parse("POST / HTTP/1.1\r\nContent-Length: 9\r\n\r\n"
	    "abc", &req, &status), 0);
}
END_TEST

static const struct {
	const char	*text;
	int		 status;
} bad[] = {
	{ "GET / HTTP/2.0\r\n\r\n", 505 },
	{ "GET  / HTTP/1.1\r\n\r\n", 400 },
	{ "GET x HTTP/1.1\r\n\r\n", 400 },
	{ "G(T / HTTP/1.1\r\n\r\n", 400 },
	{ "GET / HTTP/1.1\r\nNoColon\r\n\r\n", 400 },
	{ "GET / HTTP/1.1\r\nBad Name: x\r\n\r\n", 400 },
	{ "GET / HTTP/1.1\r\nA: b\nc\r\n\r\n", 400 },
	{ "POST / HTTP/1.1\r\n\r\n", 411 },
	{ "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n", 400 },
	{ "POST / HTTP/1.1\r\nContent-Length: 4097\r\n\r\n", 413 },
	{ "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", 501 },
	{ "POST / HTTP/1.1\r\nContent-Length: 1\r\n\r\nab", 400 },
	{ "\r\n\r\n", 400 },
};

START_TEST(refused)
{
	struct http_request req;
	int status;

	ck_assert_int_eq(parse(bad[_i].text, &req, &status), -1);
	ck_assert_int_eq(status, bad[_i].status);
}
END_TEST

START_TEST(too_large_head)
{
	struct http_request req;
	int status;
	size_t n = HTTP_HEAD_MAX + 10;

	memset(buf, 'a', n);
	memcpy(buf, "GET / HTTP/1.1\r\nX: ", 19);
	ck_assert_int_eq(http_parse(buf, n, &req, &status), -1);
	ck_assert_int_eq(status, 431);
}
END_TEST

START_TEST(form_fields)
{
	const char *body = "token=ab12&secret=p%40ss+w%2Bd&x=1";
	char out[16];

	ck_assert_int_eq(http_form_field(body, strlen(body), "secret", out,
	    sizeof out), 8);
	ck_assert_str_eq(out, "p@ss w+d");
	ck_assert_int_eq(http_form_field(body, strlen(body), "token", out,
	    sizeof out), 4);
	ck_assert_int_eq(http_form_field(body, strlen(body), "nope", out,
	    sizeof out), -1);
	ck_assert_int_eq(http_form_field("a=1&a=2", 7, "a", out, sizeof out),
	    -1);
	ck_assert_int_eq(http_form_field("a=%4", 4, "a", out, sizeof out), -1);
	ck_assert_int_eq(http_form_field("a=%zz", 5, "a", out, sizeof out),
	    -1);
	ck_assert_int_eq(http_form_field("a=0123456789abcdefg", 19, "a", out,
	    sizeof out), -1);
}
END_TEST

START_TEST(known_prompts)
{
	static const char *const yes[] = {
		"[sudo] password for alice:", "Password: ", "alice@host's password:",
		"Enter passphrase for key '/h/.ssh/id_ed25519':",
		"Enter passphrase:", "Retype new password:", "Enter PIN:", NULL,
	};
	static const char *const no[] = {
		"Password", "passwords: 3", "$ ", "Username:", "Spinning:",
		"", NULL,
	};
	size_t i;

	for (i = 0; yes[i] != NULL; i++)
		ck_assert_msg(secret_prompt_known(yes[i]), "%s", yes[i]);
	for (i = 0; no[i] != NULL; i++)
		ck_assert_msg(!secret_prompt_known(no[i]), "%s", no[i]);
}
END_TEST

static Suite *
http_suite(void)
{
	Suite *s = suite_create("http");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, whole_requests);
	tcase_add_test(tc, partial_requests);
	tcase_add_loop_test(tc, refused, 0, (int)(sizeof bad / sizeof bad[0]));
	tcase_add_test(tc, too_large_head);
	tcase_add_test(tc, form_fields);
	tcase_add_test(tc, known_prompts);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(http_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
