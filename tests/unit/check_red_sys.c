/*
 * The system reducers (plugin reducers-sys: journalctl, dmesg, log files,
 * docker ps, kubectl get, df, free, ps, systemctl status, dd) through the
 * real dispatch: red_cmd_reduce on stripped text, with the plugin loaded
 * from the build tree ($AITERM_PLUGIN_PATH).
 *
 * - Fixtures: the corpus cases of this family reduce, are shorter, keep
 *   every must_keep string, and say whether they left something out.
 * - Exact: the layout of small inputs of each reducer.
 * - Edges: empty output, nothing to fold, shapes the reducers do not
 *   know, log-less tail/cat.
 */
#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "reduce/lines.h"
#include "redtest.h"
#include "reduce/strip.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#ifndef FIXTURES_DIR
#define FIXTURES_DIR "tests/fixtures"
#endif

/*
 * Helpers
 */

static void
check_exact(const char *line, const char *text, const char *name,
    const char *want)
{
	rt_check_exact("reducers-sys", line, text, name, -1, want);
}

static void
check_declines(const char *line, const char *text)
{
	rt_check_declines(line, text);
}

/*
 * Fixtures
 */

static const struct rt_fixture fixtures[] = {
	{ "syslog-healthcheck-outage", "logfile", 0 },
	{ "journalctl-unit-crashloop", "journalctl", 0 },
	{ "dmesg-usb-disk-errors", "dmesg", 0 },
	{ "docker-ps-a-30", "docker-ps", 0 },
	{ "kubectl-get-pods-all-namespaces", "kubectl-get", 1 },
	{ "df-h-docker-host", "df", 0 },
	{ "free-h", "free", 1 },
	{ "ps-aux-runaway", "ps", 0 },
	{ "systemctl-status-failed-color", "systemctl-status", 1 },
	{ "dd-status-progress-cr", "dd", 0 },
};

START_TEST(test_fixture)
{
	rt_check_fixture(FIXTURES_DIR, "reducers-sys", &fixtures[_i]);
}
END_TEST

/*
 * Exact layouts
 */

START_TEST(test_log_fold)
{
	check_exact("tail -n 50 /var/log/syslog",
	    "Jun 14 02:58:05 web-02 hc[22]: GET /healthz -> 200 OK (7 ms)\n"
	    "Jun 14 02:58:10 web-02 hc[22]: GET /healthz -> 200 OK (3 ms)\n"
	    "Jun 14 02:58:11 web-02 api[18]: ERROR db: connection refused\n"
	    "Jun 14 02:58:15 web-02 hc[22]: GET /healthz -> 503 (1 ms)\n"
	    "Jun 14 02:58:16 web-02 api[18]: ERROR db: connection refused\n"
	    "\n"
	    "Jun 14 02:58:20 web-02 hc[22]: GET /healthz -> 200 OK (4 ms)\n"
	    "Jun 14 02:58:21 web-02 systemd[1]: restart counter is at 1.\n"
	    "Jun 14 02:58:22 web-02 systemd[1]: restart counter is at 2.\n",
	    "logfile",
	    "Jun 14 02:58:05 web-02 hc[22]: GET /healthz -> 200 OK (7 ms)  "
	    "[+2 similar, last Jun 14 02:58:20]\n"
	    "Jun 14 02:58:11 web-02 api[18]: ERROR db: connection refused  "
	    "[+1 same, last Jun 14 02:58:16]\n"
	    "Jun 14 02:58:15 web-02 hc[22]: GET /healthz -> 503 (1 ms)\n"
	    "Jun 14 02:58:21 web-02 systemd[1]: restart counter is at 1.\n"
	    "Jun 14 02:58:22 web-02 systemd[1]: restart counter is at 2.\n");
}
END_TEST

/* An access log: the time after the client; a 5xx is always kept. */
START_TEST(test_access_log)
{
	struct aiterm_buf b = BUF_INIT;
	struct red_cmd_result res;
	char *got;
	size_t i;

	for (i = 0; i < 1000; i++)
		buf_printf(&b, "10.0.%zu.%zu - - [14/Jun/2024:10:%02zu:%02zu "
		    "+0000] \"GET /item/%zu HTTP/1.1\" %s %zu \"-\" \"curl\"\n",
		    i / 200, i % 200, i / 60 % 60, i % 60, i * 7,
		    i == 613 ? "502" : i % 3 ? "200" : "304", 100 + i);
	got = rt_reduce("cat /var/log/nginx/access.log", buf_str(&b), 0, 120,
	    &res);
	ck_assert_ptr_nonnull(got);
	ck_assert_str_eq(res.name, "logfile");
	ck_assert_uint_le(red_line_count(got, strlen(got)), 120);
	ck_assert_msg(strstr(got, "10.0.3.13 - - [14/Jun/2024:10:10:13 "
	    "+0000] \"GET /item/4291 HTTP/1.1\" 502 713") != NULL,
	    "the 502 is gone:\n%s", got);
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_dmesg_fold)
{
	check_exact("dmesg",
	    "[    1.000000] sd 6:0:0:0: [sdb] CDB: Read(16) 88 00 74 d7 4f\n"
	    "[    2.500000] sd 6:0:0:0: [sdb] CDB: Read(16) 88 00 74 ac 13\n"
	    "[    3.000000] I/O error, dev sdb, sector 1953520640 op 0x0\n"
	    "[    4.000000] I/O error, dev sdb, sector 1953520648 op 0x0\n"
	    "[    5.000000] usb 2-2: USB disconnect, device number 3\n",
	    "dmesg",
	    "[    1.000000] sd 6:0:0:0: [sdb] CDB: Read(16) 88 00 74 d7 4f  "
	    "[+1 similar, last [2.500000]]\n"
	    "[    3.000000] I/O error, dev sdb, sector 1953520640 op 0x0  "
	    "[+1 similar, last [4.000000]]\n"
	    "[    5.000000] usb 2-2: USB disconnect, device number 3\n");
}
END_TEST

START_TEST(test_tables)
{
	check_exact("free -h",
	    "               total        used        free      shared  "
	    "buff/cache   available\n"
	    "Mem:            23Gi       465Mi        22Gi       9.1Mi       "
	    "1.2Gi        23Gi\n",
	    "free",
	    "total used free shared buff/cache available\n"
	    "Mem: 23Gi 465Mi 22Gi 9.1Mi 1.2Gi 23Gi\n");
	check_exact("kubectl get pods -A",
	    "NAMESPACE     NAME        READY   STATUS             RESTARTS"
	    "       AGE\n"
	    "kube-system   coredns-a   1/1     Running            0"
	    "              97d\n"
	    "kube-system   coredns-b   1/1     Running            0"
	    "              97d\n"
	    "shop          api-x       0/1     CrashLoopBackOff   12 (3m ago)"
	    "    2d\n",
	    "kubectl-get",
	    "NAMESPACE NAME READY STATUS  RESTARTS  AGE\n"
	    "kube-system:\n"
	    "coredns-a 1/1 Running  0  97d\n"
	    "coredns-b 1/1 Running  0  97d\n"
	    "shop:\n"
	    "api-x 0/1 CrashLoopBackOff  12 (3m ago)  2d\n");
	check_exact("docker ps -a",
	    "CONTAINER ID   IMAGE      COMMAND    CREATED         STATUS"
	    "                         PORTS      NAMES\n"
	    "8b0e7153bf7c   web:1.0    \"nginx\"    2 hours ago     Up 2 hours"
	    "                     80/tcp     web-1\n"
	    "440066559a66   worker:1   \"celery\"   2 hours ago     Restarting "
	    "(1) 8 seconds ago              worker-1\n",
	    "docker-ps",
	    "CONTAINER ID  IMAGE COMMAND  CREATED  STATUS  PORTS NAMES\n"
	    "8b0e7153bf7c  web:1.0 \"nginx\"  2 hours ago  Up 2 hours  80/tcp"
	    " web-1\n"
	    "440066559a66  worker:1 \"celery\"  2 hours ago  Restarting (1) 8 "
	    "seconds ago  - worker-1\n");
}
END_TEST

START_TEST(test_dd_and_systemctl)
{
	check_exact("dd if=/dev/zero of=/dev/null bs=1M count=100 "
	    "status=progress",
	    "94371840 bytes (94 MB, 90 MiB) copied, 1 s, 94 MB/s\n"
	    "100+0 records in\n"
	    "100+0 records out\n"
	    "104857600 bytes (105 MB, 100 MiB) copied, 1.1 s, 95 MB/s\n",
	    "dd",
	    "100+0 records in\n"
	    "100+0 records out\n"
	    "104857600 bytes (105 MB, 100 MiB) copied, 1.1 s, 95 MB/s\n"
	    "(+1 progress)\n");
	check_exact("systemctl status nginx",
	    "× nginx.service - nginx\n"
	    "     Loaded: loaded (/lib/systemd/system/nginx.service)\n"
	    "     Active: failed (Result: exit-code)\n"
	    "\n"
	    "Jun 14 09:12:44 web-02 systemd[1]: Starting nginx.service...\n"
	    "Jun 14 09:12:44 web-02 nginx[18]: test failed\n"
	    "Jun 14 09:12:45 web-02 systemd[1]: Failed to start nginx.\n",
	    "systemctl-status",
	    "× nginx.service - nginx\n"
	    "  Loaded: loaded (/lib/systemd/system/nginx.service)\n"
	    "  Active: failed (Result: exit-code)\n"
	    "Jun 14 09:12:44 web-02:\n"
	    "  systemd[1]: Starting nginx.service...\n"
	    "  nginx[18]: test failed\n"
	    "Jun 14 09:12:45 web-02 systemd[1]: Failed to start nginx.\n");
}
END_TEST

/*
 * Edges
 */

START_TEST(test_declined)
{
	check_declines("journalctl -u x", "");
	check_declines("journalctl -u x", "-- No entries --\n");
	check_declines("journalctl -o json -u x",
	    "{\"MESSAGE\":\"a\",\"__REALTIME_TIMESTAMP\":\"1718352011412\"}\n"
	    "{\"MESSAGE\":\"a\",\"__REALTIME_TIMESTAMP\":\"1718352011413\"}\n");
	/* Not a log file, or not log-shaped. */
	check_declines("cat notes.txt", "a\na\na\n");
	check_declines("tail -n 3 /var/log/app.log", "plain\nplain\nplain\n");
	/* Nothing repeats. */
	check_declines("dmesg", "[    1.0] a\n[    2.0] b\n");
	check_declines("kubectl get pods",
	    "No resources found in default namespace.\n");
	check_declines("docker ps", "Cannot connect to the Docker daemon at "
	    "unix:///var/run/docker.sock. Is the docker daemon running?\n");
	check_declines("ps", "");
	check_declines("ps -ef", "UID   PID  PPID  C STIME TTY   TIME CMD\n"
	    "root    1     0  0 May31 ?     1:12 /sbin/init\n");
	check_declines("df -h", "df: /mnt/x: Stale file handle\n");
	check_declines("free", "");
	check_declines("systemctl status nope",
	    "Unit nope.service could not be found.\n");
	check_declines("dd if=/dev/sda of=/dev/null",
	    "dd: failed to open '/dev/sda': Permission denied\n");
}
END_TEST

START_TEST(test_budget)
{
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	struct red_cmd_result res;
	size_t i, lines = 0;
	const char *p;

	/* 300 distinct plain lines and one error: the error stays. */
	for (i = 0; i < 300; i++)
		buf_printf(&in, "Jun 14 03:%02zu:%02zu h app: step %c%c\n",
		    i / 60, i % 60, (char)('a' + i % 26),
		    (char)('a' + i / 26));
	buf_printf(&in, "Jun 14 04:00:00 h app: ERROR disk full\n");
	buf_add(&in, "", 0);
	ck_assert_int_eq(red_cmd_reduce("journalctl", buf_str(&in), in.len, 1,
	    40, &out, &res), 0);
	buf_add(&out, "", 0);
	ck_assert_str_eq(res.name, "journalctl");
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "ERROR disk full"));
	ck_assert_ptr_nonnull(strstr(buf_str(&out), "lines left out"));
	for (p = buf_str(&out); *p != '\0'; p++)
		lines += *p == '\n';
	ck_assert_uint_le(lines, 40);
	buf_free(&in);
	buf_free(&out);
}
END_TEST

static Suite *
make_red_sys_suite(void)
{
	Suite *s = suite_create("red_sys");
	TCase *tc;

	tc = tcase_create("Fixtures");
	tcase_add_loop_test(tc, test_fixture, 0,
	    (int)(sizeof fixtures / sizeof fixtures[0]));
	suite_add_tcase(s, tc);

	tc = tcase_create("Exact");
	tcase_add_test(tc, test_log_fold);
	tcase_add_test(tc, test_dmesg_fold);
	tcase_add_test(tc, test_access_log);
	tcase_add_test(tc, test_tables);
	tcase_add_test(tc, test_dd_and_systemctl);
	suite_add_tcase(s, tc);

	tc = tcase_create("Edges");
	tcase_add_test(tc, test_declined);
	tcase_add_test(tc, test_budget);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	int failed;

	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
	sr = srunner_create(make_red_sys_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
