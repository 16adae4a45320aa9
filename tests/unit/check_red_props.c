/*
 * RED-FAITHFUL as properties, over every reducer a command reaches: on
 * generated and mutated outputs, what the AI reads (the command reducer
 * of the build tree's plugins, else the generic stages with a read's
 * limits, as tests/unit/check_red_corpus does) must still hold
 *  - the one rare line put at a random place among thousands of lines
 *    that share a few shapes (a log flood), the line after a rare line
 *    of a crash loop (the round it happened in) and the indented lines
 *    that go on a rare line;
 *  - every name of a listing whose entries got random names (ls -l,
 *    find, du, dpkg -l, apt list, pip list, df, git branch, docker ps,
 *    kubectl get, ps aux, tar -tv) while it fits a listing's budget, and
 *    of ls -l, dpkg -l, apt list and tar -tv beyond it;
 *  - every diff and hunk header and every conflict marker of a diff with
 *    a combined-diff (conflict) section put among its files, and every
 *    header line of a diff -ru.
 * The checks here are plain substring searches, independent of
 * reduce/shape.c, whose own properties come last.  The cases are drawn
 * from a fixed seed (AITERM_PROP_SEED overrides it; the seed of a failing
 * case is in its message).
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "reduce/pipeline.h"
#include "reduce/shape.h"
#include "redtest.h"
#include "util/buf.h"

#define ROUNDS	24

static uint64_t seed0 = 0x5eed5eedULL;

/* A name of letters, digits, '-', '_' and '.', unique by its index. */
static void
name(uint64_t *s, size_t index, char *out, size_t size)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789-_";
	size_t n = 3 + rt_pick(s, 10), i;

	for (i = 0; i < n && i + 8 < size; i++)
		out[i] = set[i == 0 ? rt_pick(s, 26) : rt_pick(s, sizeof set - 1)];
	snprintf(out + i, size - i, "%zx", index);
}

/* Which reducer ran, or was refused and why, for a failure's message. */
static char how[256];

/* What the AI reads of text produced by command line (NULL: unknown). */
static char *
read_as_ai(const char *line, const char *text)
{
	struct red_headtail_opts opts = RED_HEADTAIL_READ;
	struct aiterm_buf out = BUF_INIT;
	struct red_cmd_result res;

	memset(&res, 0, sizeof res);
	if (line == NULL || red_cmd_reduce(line, text, strlen(text), 0,
	    RED_CMD_MAX_LINES, &out, &res) != 0)
		red_generic(text, strlen(text), &opts, &out, NULL);
	if (res.refused[0] != '\0') {
		const char *l = text;
		size_t k;

		for (k = 0; k < res.refused_line && l != NULL; k++)
			if ((l = strchr(l, '\n')) != NULL)
				l++;
		snprintf(how, sizeof how, "generic; %s refused: %s (line %zu: "
		    "%.60s)", res.refused, res.refused_why,
		    res.refused_line + 1, l != NULL ? l : "");
	}
	else
		snprintf(how, sizeof how, "%s", res.name[0] != '\0' ?
		    res.name : "generic");
	buf_add(&out, "", 0);
	return buf_steal(&out, NULL);
}

/*
 * The rare line among a flood
 */

static const char *const users[] = {
	"admin", "root", "test", "oracle", "ubuntu", "postgres", "git",
};

static void
flood_line(uint64_t *s, size_t i, struct aiterm_buf *b, int kind)
{
	unsigned sec = (unsigned)i;

	if (kind == 0)
		buf_printf(b, "Jun 14 %02u:%02u:%02u web-01 sshd[%zu]: Failed "
		    "password for invalid user %s from 10.%zu.%zu.%zu port %zu "
		    "ssh2\n", sec / 3600 % 24, sec / 60 % 60, sec % 60,
		    1000 + rt_pick(s, 9000), users[rt_pick(s, 7)], rt_pick(s, 255),
		    rt_pick(s, 255), rt_pick(s, 255), 1024 + rt_pick(s, 60000));
	else
		buf_printf(b, "[%6zu.%06zu] usb 1-%zu: reset high-speed USB "
		    "device number %zu using xhci_hcd\n", i, rt_pick(s, 999999),
		    1 + rt_pick(s, 4), 2 + rt_pick(s, 9));
}

struct flood_case {
	const char	*command;	/* NULL: no command (generic) */
	int		 kind;		/* 0 auth log, 1 kernel log */
};

static const struct flood_case floods[] = {
	{ "cat /var/log/auth.log", 0 },
	{ "tail -n 5000 /var/log/auth.log", 0 },
	{ "journalctl -u ssh", 0 },
	{ "grep sshd /var/log/auth.log", 0 },
	{ "dmesg", 1 },
	{ NULL, 0 },
	{ NULL, 1 },
};

static const char *const rare_lines[] = {
	"Jun 14 03:13:00 web-01 sshd[999]: Accepted publickey for alice from "
	    "192.168.7.7 port 40022 ssh2: ED25519 SHA256:Qm9vdHN0cmFw",
	"Jun 14 03:13:05 web-01 sudo:    alice : TTY=pts/0 ; PWD=/home/alice ; "
	    "USER=root ; COMMAND=/usr/bin/systemctl restart nginx",
	"[ 4242.000001] WARNING: CPU: 3 PID: 77 at mm/page_alloc.c:5400 "
	    "__alloc_pages+0x2f0/0x340",
};
static const char *const rare_words[][3] = {
	{ "Accepted", "publickey", "alice" },
	{ "COMMAND", "systemctl", "nginx" },
	{ "WARNING", "page_alloc", "__alloc_pages" },
};

START_TEST(test_rare_line_in_flood)
{
	const struct flood_case *c = &floods[_i % (sizeof floods /
	    sizeof floods[0])];
	struct aiterm_buf b = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 7919;
	size_t n, at, i, r, w;
	char *got;

	n = 1000 + rt_pick(&s, 4000);
	at = rt_pick(&s, n);
	r = rt_pick(&s, 3);
	for (i = 0; i < n; i++) {
		if (i == at)
			buf_printf(&b, "%s\n", rare_lines[r]);
		flood_line(&s, i, &b, c->kind);
	}
	got = read_as_ai(c->command, buf_str(&b));
	for (w = 0; w < 3; w++)
		ck_assert_msg(strstr(got, rare_words[r][w]) != NULL,
		    "seed %llu, %s: rare line %zu at %zu of %zu lost (%s; %s)",
		    (unsigned long long)seed0, c->command ? c->command :
		    "(generic)", r, at, n, rare_words[r][w], how);
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * A rare line and the line after it in a crash loop: a supervisor that
 * restarts a failing job writes two lines a round; in one round the job
 * fails differently, and the supervisor's line after that rare line (the
 * round it happened in) must reach the AI with it, though it differs
 * from its neighbours only in its numbers.
 */

static const char *const loop_commands[] = {
	"./run-forever.sh", "sh keepalive.sh", "bash -c ./loop", NULL,
};

START_TEST(test_rare_line_follow)
{
	const char *command = loop_commands[_i % 4];
	struct aiterm_buf b = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 104729;
	size_t n, at, i;
	char follow[128], *got;

	n = 150 + rt_pick(&s, 600);
	at = 10 + rt_pick(&s, n - 20);
	for (i = 1; i <= n; i++) {
		if (i == at)
			buf_printf(&b, "job[%zu]: schema check failed: column "
			    "\"ledger_id\" missing in table entries\n",
			    4000 + i);
		else
			buf_printf(&b, "job[%zu]: cannot reach queue at "
			    "10.0.%zu.%zu:5672: connection refused\n", 4000 + i,
			    rt_pick(&s, 255), rt_pick(&s, 255));
		buf_printf(&b, "keeper: job ended with code %d, attempt %zu "
		    "of %zu\n", i == at ? 4 : 1, i, n);
	}
	snprintf(follow, sizeof follow, "keeper: job ended with code 4, "
	    "attempt %zu of %zu", at, n);
	got = read_as_ai(command, buf_str(&b));
	ck_assert_msg(strstr(got, "ledger_id") != NULL, "seed %llu, %s: the "
	    "rare line at round %zu of %zu lost (%s)",
	    (unsigned long long)seed0, command ? command : "(generic)", at, n,
	    how);
	ck_assert_msg(strstr(got, follow) != NULL, "seed %llu, %s: the line "
	    "after the rare line at round %zu of %zu lost (%s)",
	    (unsigned long long)seed0, command ? command : "(generic)", at, n,
	    how);
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * A rare line's continuation: the indented lines after it stay with it
 * (up to five lines after it in all), though each is alike the flood's
 * own indented lines but for numbers.
 */
START_TEST(test_rare_line_continuation)
{
	const char *command = loop_commands[_i % 4];
	struct aiterm_buf b = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 15485863;
	size_t n, at, i, k;
	char want[96], *got;

	n = 200 + rt_pick(&s, 800);
	at = 10 + rt_pick(&s, n - 20);
	for (i = 1; i <= n; i++) {
		if (i == at)
			buf_printf(&b, "job %zu aborted: ledger totals differ "
			    "by 0.%02zu\n", i, 1 + rt_pick(&s, 98));
		else
			buf_printf(&b, "job %zu started on worker-%zu\n", i,
			    rt_pick(&s, 8));
		for (k = 1; k <= 3; k++)
			buf_printf(&b, "    step %zu of job %zu: %s\n", k, i,
			    i == at ? "skipped" : "ok");
	}
	got = read_as_ai(command, buf_str(&b));
	ck_assert_msg(strstr(got, "ledger totals") != NULL, "seed %llu, %s: "
	    "the rare line at %zu of %zu lost (%s)",
	    (unsigned long long)seed0, command ? command : "(generic)", at, n,
	    how);
	for (k = 1; k <= 3; k++) {
		snprintf(want, sizeof want, "    step %zu of job %zu: skipped",
		    k, at);
		ck_assert_msg(strstr(got, want) != NULL, "seed %llu, %s: "
		    "\"%s\" after the rare line at %zu of %zu lost (%s)",
		    (unsigned long long)seed0, command ? command :
		    "(generic)", want, at, n, how);
	}
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * Listings with random names
 */

struct listing {
	const char	*command;
	void		(*row)(uint64_t *, size_t, const char *,
			    struct aiterm_buf *);
	const char	*header;
};

static void
ls_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	static const char *const perms[] = {
		"-rw-r--r--", "drwxr-xr-x", "lrwxrwxrwx", "-rwxr-xr-x",
	};
	size_t p = rt_pick(s, 4);

	buf_printf(b, "%s %3zu root root %7zu Mar %2zu %02zu:%02zu %s%s%s\n",
	    perms[p], 1 + rt_pick(s, 3), rt_pick(s, 100000), 1 + i % 28, rt_pick(s, 24),
	    rt_pick(s, 60), nm, p == 2 ? " -> ../lib/" : "", p == 2 ? nm : "");
}

static void
find_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	static const char *const dirs[] = {
		"./src", "./src/net", "./doc", "./tests/unit", "./build",
	};

	(void)i;
	buf_printf(b, "%s/%s\n", dirs[rt_pick(s, 5)], nm);
}

static void
docker_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	buf_printf(b, "%012llx   registry.example.com/app/%s:1.%zu   "
	    "\"run --serve …\"   %zu minutes ago   Up %zu minutes   "
	    "127.0.0.1:%zu->80/tcp   %s\n", (unsigned long long)(rt_next(s) & 0xffffffffffffULL),
	    nm, i % 9, 1 + rt_pick(s, 50), 1 + rt_pick(s, 50), 8000 + i, nm);
}

static void
kubectl_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	static const char *const st[] = {
		"Running", "Running", "CrashLoopBackOff", "Pending",
	};

	buf_printf(b, "%-12s %-30s 1/1     %-18s %zu          %zud\n",
	    i % 3 ? "shop" : "kube-system", nm, st[rt_pick(s, 4)], rt_pick(s, 9),
	    1 + rt_pick(s, 90));
}

static void
ps_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	buf_printf(b, "root     %7zu  0.%zu  0.%zu %6zu %5zu ?        Ss   "
	    "May31   0:%02zu /usr/bin/%s --flag\n", 100 + i, rt_pick(s, 9),
	    rt_pick(s, 9), rt_pick(s, 99999), rt_pick(s, 9999), rt_pick(s, 60), nm);
}

static void
du_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	static const char *const units[] = { "K", "M", "G" };

	(void)i;
	buf_printf(b, "%zu.%zu%s\t./%s/%s\n", 1 + rt_pick(s, 999), rt_pick(s, 10),
	    units[rt_pick(s, 3)], rt_pick(s, 2) ? "lib" : "share", nm);
}

static void
tar_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	static const char *const dirs[] = {
		"site/img/", "site/fonts/set-01/", "site/legal/", "site/",
	};

	(void)i;
	buf_printf(b, "-rw-r--r-- root/root %9zu 2026-12-06 17:35 %s%s\n",
	    rt_pick(s, 100000), dirs[rt_pick(s, 4)], nm);
}

static void
dpkg_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	static const char *const st[] = { "ii", "ii", "ii", "rc", "hi" };

	buf_printf(b, "%s  %-40s %zu.%zu-%zu   %-12s the %s package\n",
	    st[rt_pick(s, 5)], nm, 1 + i % 9, rt_pick(s, 20), 1 + rt_pick(s, 3),
	    rt_pick(s, 2) ? "amd64" : "all", nm);
}

static void
apt_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	static const char *const st[] = { "installed,automatic", "installed",
	    "installed,local", "installed,upgradable to: 9.9-1" };

	buf_printf(b, "%s/oldstable,now %zu.%zu-%zu %s [%s]\n", nm, 1 + i % 9,
	    rt_pick(s, 20), 1 + rt_pick(s, 3), rt_pick(s, 2) ? "amd64" : "all",
	    st[rt_pick(s, 4)]);
}

static void
pip_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	(void)i;
	buf_printf(b, "%-30s %zu.%zu.%zu\n", nm, rt_pick(s, 9), rt_pick(s, 30),
	    rt_pick(s, 9));
}

static void
df_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	buf_printf(b, "/dev/sd%c%zu  %zuG  %zuG  %zuG  %zu%% /srv/%s\n",
	    (char)('a' + i % 26), i, 10 + rt_pick(s, 900), rt_pick(s, 9), rt_pick(s, 9),
	    rt_pick(s, 100), nm);
}

static void
branch_row(uint64_t *s, size_t i, const char *nm, struct aiterm_buf *b)
{
	(void)i;
	buf_printf(b, "  %s%s\n", rt_pick(s, 2) ? "remotes/origin/" : "", nm);
}

static const struct listing listings[] = {
	{ "du -h", du_row, "" },
	{ "dpkg -l", dpkg_row, "Desired=Unknown/Install/Remove/Purge/Hold\n"
	    "| Status=Not/Inst/Conf-files/Unpacked/halF-conf/Half-inst/"
	    "trig-aWait/Trig-pend\n|/ Err?=(none)/Reinst-required (Status,"
	    "Err: uppercase=bad)\n||/ Name           Version      "
	    "Architecture Description\n+++-==============-============-"
	    "============-=========\n" },
	{ "pip list", pip_row, "Package    Version\n---------- -------\n" },
	{ "apt list --installed", apt_row, "Listing... Done\n" },
	{ "df -h", df_row, "Filesystem      Size  Used Avail Use% Mounted "
	    "on\n" },
	{ "git branch -a", branch_row, "* main\n" },
	{ "ls -l", ls_row, "total 1234\n" },
	{ "find .", find_row, "" },
	{ "tar -tvzf site.tar.gz", tar_row, "" },
	{ "docker ps -a", docker_row, "CONTAINER ID   IMAGE   COMMAND   "
	    "CREATED   STATUS   PORTS   NAMES\n" },
	{ "kubectl get pods -A", kubectl_row, "NAMESPACE    NAME"
	    "                           READY   STATUS             RESTARTS"
	    "   AGE\n" },
	{ "ps aux", ps_row, "USER         PID %CPU %MEM    VSZ   RSS TTY"
	    "      STAT START   TIME COMMAND\n" },
};

/* n rows of listing l with random names: what the AI reads holds each. */
static void
listing_holds(const struct listing *l, uint64_t *s, size_t n)
{
	struct aiterm_buf b = BUF_INIT;
	char (*names)[32] = calloc(n, sizeof *names);
	size_t i;
	char *got;

	ck_assert_ptr_nonnull(names);
	buf_adds(&b, l->header);
	for (i = 0; i < n; i++) {
		name(s, i, names[i], sizeof names[i]);
		l->row(s, i, names[i], &b);
	}
	got = read_as_ai(l->command, buf_str(&b));
	for (i = 0; i < n; i++)
		ck_assert_msg(strstr(got, names[i]) != NULL,
		    "seed %llu, %s with %zu rows: name %s (row %zu) lost (%s)",
		    (unsigned long long)seed0, l->command, n, names[i], i, how);
	free(names);
	free(got);
	buf_free(&b);
}

/*
 * A JSON array of objects is a listing (issue 35): every object's id, as
 * jq wrote it, survives within the budget, and so does the member that
 * sets one object apart (a rare branch).
 */
START_TEST(test_json_array_ids)
{
	uint64_t s = seed0 + (uint64_t)_i * 7919;
	size_t n = 20 + rt_pick(&s, 280), odd = rt_pick(&s, n), i;
	struct aiterm_buf b = BUF_INIT, want = BUF_INIT;
	char id[64], other[64], *got;

	buf_add(&b, "[\n", 2);
	name(&s, 999999, other, sizeof other);
	for (i = 0; i < n; i++) {
		name(&s, i, id, sizeof id);
		buf_printf(&b, "  {\n    \"id\": \"%s\",\n    \"branch\": "
		    "\"%s%s\",\n    \"commit\": \"%016llx\",\n    "
		    "\"meta\": {\n      \"n\": %zu\n    }\n  }%s\n", id,
		    i == odd ? "hotfix/" : "main", i == odd ? other : "",
		    (unsigned long long)rt_next(&s), i, i + 1 < n ? "," : "");
	}
	buf_add(&b, "]\n", 2);
	buf_add(&b, "", 0);
	got = read_as_ai("jq . api.json", b.data);
	s = seed0 + (uint64_t)_i * 7919;
	(void)rt_pick(&s, 280);
	(void)rt_pick(&s, n);
	name(&s, 999999, other, sizeof other);
	for (i = 0; i < n; i++) {
		name(&s, i, id, sizeof id);
		(void)rt_next(&s);
		buf_reset(&want);
		buf_printf(&want, "\"id\": \"%s\"", id);
		ck_assert_msg(strstr(got, want.data) != NULL, "%s lost (%s, "
		    "%zu objects)", want.data, how, n);
	}
	buf_reset(&want);
	buf_printf(&want, "\"branch\": \"hotfix/%s\"", other);
	ck_assert_msg(strstr(got, want.data) != NULL, "%s lost (%s)",
	    want.data, how);
	free(got);
	buf_free(&b);
	buf_free(&want);
}
END_TEST

/*
 * Each distinct report header among a flood of one shape survives the
 * generic stages (issue 35): "ERROR <name>: ..." lines, a few of them at
 * random places among thousands of lines alike.
 */
START_TEST(test_distinct_headers)
{
	uint64_t s = seed0 + (uint64_t)_i * 15485863;
	size_t n = 2000 + rt_pick(&s, 6000), k = 2 + rt_pick(&s, 6), i, j;
	size_t at[8];
	char hdr[8][64], *got;
	struct aiterm_buf b = BUF_INIT;

	for (j = 0; j < k; j++) {
		at[j] = rt_pick(&s, n);
		name(&s, j, hdr[j], sizeof hdr[j]);
	}
	for (i = 0; i < n; i++) {
		for (j = 0; j < k; j++)
			if (at[j] == i)
				buf_printf(&b, "==%zu== Report in module %s: "
				    "invariant broken\n", 100 + j, hdr[j]);
		flood_line(&s, i, &b, 1);
	}
	buf_add(&b, "", 0);
	got = read_as_ai(NULL, b.data);
	for (j = 0; j < k; j++)
		ck_assert_msg(strstr(got, hdr[j]) != NULL, "header %zu (%s) "
		    "lost among %zu lines (%s)", j, hdr[j], n, how);
	free(got);
	buf_free(&b);
}
END_TEST

START_TEST(test_listing_names)
{
	uint64_t s = seed0 + (uint64_t)_i * 104729;

	/* Within a listing's budget: 4 x 120 lines, the header included. */
	listing_holds(&listings[_i % (sizeof listings / sizeof listings[0])],
	    &s, 20 + rt_pick(&s, RED_CMD_LISTING_FACTOR * RED_CMD_MAX_LINES - 40));
}
END_TEST

/*
 * Beyond a listing's budget ls -l, dpkg -l, apt list, tar and find keep
 * every name, packed, with the other fields left out, while the names
 * fit RED_CMD_FAR_BYTES (ADR 0044): half the rounds have short names just
 * past the far bound, which do.  With long names (up to 1500 rows) what
 * the AI reads is within it and says that names went (dpkg's and apt's
 * reducers order names by state: their first and last rows are not
 * their result's ends).
 */
START_TEST(test_far_listing_names)
{
	static const char *const far[] = {
		"ls -l", "dpkg -l", "apt list --installed",
		"tar -tvzf site.tar.gz", "find .",
	};
	const size_t nfar = sizeof far / sizeof far[0];
	const struct listing *l = NULL;
	struct aiterm_buf b = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 7919;
	bool fit = (size_t)_i / nfar % 2 == 1;
	size_t i, n;
	char (*names)[32];
	char *got;

	for (i = 0; i < sizeof listings / sizeof listings[0]; i++) {
		if (strcmp(listings[i].command, far[(size_t)_i % nfar]) == 0)
			l = &listings[i];
	}
	ck_assert_ptr_nonnull(l);
	n = RED_CMD_LISTING_FACTOR * RED_CMD_MAX_LINES + 20 +
	    rt_pick(&s, fit ? 40 : 1000);
	ck_assert_ptr_nonnull(names = calloc(n, sizeof *names));
	buf_adds(&b, l->header);
	for (i = 0; i < n; i++) {
		/* A letter that is no hex digit, the index, a 'z': no name holds another. */
		if (fit)
			snprintf(names[i], sizeof names[i], "%c%zuz",
			    (int)('g' + rt_pick(&s, 19)), i);
		else
			name(&s, i, names[i], sizeof names[i]);
		/* find walks a folder at a time: its names pack by folder. */
		if (fit && l->row == find_row)
			buf_printf(&b, "./src/d%zu/%s\n", i / 40, names[i]);
		else
			l->row(&s, i, names[i], &b);
	}
	got = read_as_ai(l->command, buf_str(&b));
	for (i = 0; i < n && strstr(got, names[i]) != NULL; i++)
		;
	ck_assert_msg(i == n || !fit, "seed %llu, %s with %zu rows: name %s "
	    "(row %zu) lost (%s)", (unsigned long long)seed0, l->command, n,
	    names[i], i, how);
	ck_assert_msg(i == n || strstr(got, " more") != NULL ||
	    strstr(got, " left out") != NULL, "seed %llu, %s with %zu rows: "
	    "name %s (row %zu) went, and that names went is not said (%s)",
	    (unsigned long long)seed0, l->command, n, names[i], i, how);
	/* The reducer's result, and the core's line naming the whole. */
	ck_assert_msg(strlen(got) <= RED_CMD_FAR_BYTES + 256, "seed %llu, %s "
	    "with %zu rows: %zu bytes (%s)", (unsigned long long)seed0,
	    l->command, n, strlen(got), how);
	free(names);
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * Far beyond its budget, find keeps whole the paths nearest the top of
 * the folder they share (ADR 0044, stop 48): the few files right in it,
 * wherever find printed them among thousands of paths deeper down.
 */
START_TEST(test_far_find_top)
{
	static const char *const dirs[] = {
		"./src/net/", "./vendor/lib/a/", "./vendor/lib/b/c/", "./doc/",
		"./tests/unit/", "./build/obj/x/",
	};
	struct aiterm_buf b = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 6007;
	size_t i, k = 0, n, top = 1 + rt_pick(&s, 12);
	char nm[32], want[64][40];
	char *got;

	n = RED_CMD_LISTING_FACTOR * RED_CMD_MAX_LINES + 20 +
	    rt_pick(&s, 3000);
	for (i = 0; i < n; i++) {
		name(&s, i, nm, sizeof nm);
		/* The top's files between the first 30 and the last 20. */
		if (k < top && i >= 30 && i + 20 < n &&
		    rt_pick(&s, n / top) == 0) {
			snprintf(want[k], sizeof want[k], "./%s.c", nm);
			buf_printf(&b, "%s\n", want[k++]);
		} else
			buf_printf(&b, "%s%s.c\n", dirs[rt_pick(&s, 6)], nm);
	}
	got = read_as_ai("find .", buf_str(&b));
	for (i = 0; i < k; i++)
		ck_assert_msg(strstr(got, want[i]) != NULL, "seed %llu, find "
		    "with %zu paths: %s, one of %zu at the top, lost (%s)",
		    (unsigned long long)seed0, n, want[i], k, how);
	ck_assert_uint_le(strlen(got), RED_CMD_FAR_BYTES + 256);
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * Far beyond its budget, ls -l and tar -tv keep their three largest
 * files' rows from the size to the name as printed, wherever they are.
 */
START_TEST(test_far_largest_rows)
{
	struct aiterm_buf b = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 4409;
	bool tar = _i % 2 == 1;
	size_t i, k, n, at[3];
	char want[3][80];
	char *got;

	n = RED_CMD_LISTING_FACTOR * RED_CMD_MAX_LINES + 20 +
	    rt_pick(&s, 60);
	for (k = 0; k < 3; k++)
		at[k] = k * (n / 3) + rt_pick(&s, n / 3);
	if (!tar)
		buf_adds(&b, "total 1234\n");
	for (i = 0, k = 0; i < n; i++) {
		size_t size = k < 3 && i == at[k] ? 9000000 + k++ :
		    rt_pick(&s, 100000);
		char row[80];

		/* Short names: every one fits, as names only. */
		if (tar)
			snprintf(row, sizeof row, "%zu 2026-12-06 17:%02zu "
			    "site/%c%zuz", size, rt_pick(&s, 60),
			    (int)('g' + rt_pick(&s, 19)), i);
		else
			snprintf(row, sizeof row, "%zu Mar %2zu 10:%02zu %c%zuz",
			    size, 1 + rt_pick(&s, 28), rt_pick(&s, 60),
			    (int)('g' + rt_pick(&s, 19)), i);
		if (size >= 9000000)
			snprintf(want[size - 9000000], sizeof want[0], "%s",
			    row);
		buf_printf(&b, tar ? "-rw-r--r-- root/root %9s\n" :
		    "-rw-r--r-- 1 root root %7s\n", row);
	}
	got = read_as_ai(tar ? "tar -tvzf site.tar.gz" : "ls -l",
	    buf_str(&b));
	for (k = 0; k < 3; k++)
		ck_assert_msg(strstr(got, want[k]) != NULL, "seed %llu, %s "
		    "with %zu rows: the row of a largest file, %s, lost (%s)",
		    (unsigned long long)seed0, tar ? "tar" : "ls", n, want[k],
		    how);
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * A listing far beyond its budget keeps whole the one path or name whose
 * extension no other has, wherever it is (the one *.txt among a thousand
 * *.png): find, tar and ls choose their names within RED_CMD_FAR_BYTES.
 */
START_TEST(test_far_listing_alone)
{
	static const char *const far[] = {
		"find .", "tar -tvzf site.tar.gz", "ls -l",
	};
	const struct listing *l = NULL;
	struct aiterm_buf b = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 3571;
	size_t i, n, odd;
	char nm[40], alone[40], first[40];
	char *got;

	for (i = 0; i < sizeof listings / sizeof listings[0]; i++) {
		if (strcmp(listings[i].command, far[_i % 3]) == 0)
			l = &listings[i];
	}
	ck_assert_ptr_nonnull(l);
	n = RED_CMD_LISTING_FACTOR * RED_CMD_MAX_LINES + 200 +
	    rt_pick(&s, 1000);
	odd = n / 4 + rt_pick(&s, n / 2);
	buf_adds(&b, l->header);
	for (i = 0; i < n; i++) {
		name(&s, i, nm, 32);
		strcat(nm, i == odd ? ".txt" : rt_pick(&s, 2) ? ".png" : ".svg");
		if (i == odd)
			memcpy(alone, nm, sizeof alone);
		if (i == 0)
			memcpy(first, nm, sizeof first);
		l->row(&s, i, nm, &b);
	}
	got = read_as_ai(l->command, buf_str(&b));
	ck_assert_msg(strstr(got, alone) != NULL && strstr(got, first) != NULL,
	    "seed %llu, %s with %zu rows: %s (row %zu) or the first, %s, lost "
	    "(%s)", (unsigned long long)seed0, l->command, n, alone, odd,
	    first, how);
	ck_assert_msg(strlen(got) <= RED_CMD_FAR_BYTES + 256, "seed %llu, %s "
	    "with %zu rows: %zu bytes (%s)", (unsigned long long)seed0,
	    l->command, n, strlen(got), how);
	ck_assert_msg(strstr(got, " more") != NULL, "seed %llu, %s: what was "
	    "left out is not said", (unsigned long long)seed0, l->command);
	free(got);
	buf_free(&b);
}
END_TEST

/*
 * For a client that cuts a longer result (Codex, ADR 0043), any listing
 * of up to 1,500 rows, through whichever path takes it, is within the
 * bytes it shows whole, and keeps the name of its first row (ps aux
 * beyond its budget: the busiest processes); a reducer's result cut to
 * fit says so.
 */
START_TEST(test_listing_within_bytes)
{
	const struct listing *l = &listings[_i % (sizeof listings /
	    sizeof listings[0])];
	struct red_headtail_opts opts = RED_HEADTAIL_READ;
	struct aiterm_buf b = BUF_INIT, out = BUF_INIT;
	struct red_cmd_result res;
	uint64_t s = seed0 + (uint64_t)_i * 6007;
	size_t n = 20 + rt_pick(&s, 1480), i, max = 11964 - 512;
	char nm[32], first[32];

	buf_adds(&b, l->header);
	for (i = 0; i < n; i++) {
		name(&s, i, nm, sizeof nm);
		if (i == 0)
			memcpy(first, nm, sizeof first);
		l->row(&s, i, nm, &b);
	}
	if (red_cmd_reduce_within(l->command, buf_str(&b), b.len, 0,
	    RED_CMD_MAX_LINES, max, &out, &res) != 0)
		red_generic(buf_str(&b), b.len, &opts, &out, NULL);
	else if (strstr(buf_str(&out), " lines of this summary left out]\n"))
		ck_assert(!res.lossless);
	ck_assert_msg(out.len <= max, "seed %llu, %s with %zu rows: %zu bytes "
	    "(%s)", (unsigned long long)seed0, l->command, n, out.len,
	    res.name[0] != '\0' ? res.name : "generic");
	/* ps beyond its budget keeps the busiest processes, not the first. */
	ck_assert_msg(strstr(buf_str(&out), first) != NULL || (n > 480 &&
	    strcmp(l->command, "ps aux") == 0), "seed %llu, %s "
	    "with %zu rows: the first name %s lost", (unsigned long long)seed0,
	    l->command, n, first);
	buf_free(&b);
	buf_free(&out);
}
END_TEST

/*
 * Whatever the widths, a read's generic reduction is at most
 * RED_READ_BYTES (Codex cuts a longer result in its middle) and keeps the
 * one rare line put among the others.
 */
START_TEST(test_generic_bounded)
{
	static const char *const words[] = { "tick", "served", "ERROR" };
	struct red_headtail_opts opts = RED_HEADTAIL_READ;
	struct aiterm_buf b = BUF_INIT, out = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 104729;
	size_t n = 1 + rt_pick(&s, 3000), at = rt_pick(&s, n), i, w, wide;
	size_t width[3], kind;
	char rare[96];

	/* A flood of three shapes, each of its own width, some very wide. */
	wide = rt_pick(&s, 4) == 0 ? 6000 : 300;
	for (kind = 0; kind < 3; kind++)
		width[kind] = rt_pick(&s, wide);
	snprintf(rare, sizeof rare, "panic: runtime error: index %zx out "
	    "of range", (size_t)rt_next(&s));
	for (i = 0; i < n; i++) {
		if (i == at)
			buf_printf(&b, "%s\n", rare);
		kind = rt_pick(&s, 50) == 0 ? 2 : rt_pick(&s, 2);
		buf_printf(&b, "%s %zu ", words[kind], i);
		for (w = width[kind]; w > 0; w--)
			buf_addc(&b, 'x');
		buf_addc(&b, '\n');
	}
	red_generic(buf_str(&b), b.len, &opts, &out, NULL);
	ck_assert_msg(out.len <= RED_READ_BYTES, "seed %llu round %d: %zu "
	    "lines up to %zu bytes: %zu bytes read", (unsigned long long)seed0,
	    _i, n, wide, out.len);
	ck_assert_msg(strstr(buf_str(&out), rare) != NULL, "seed %llu round "
	    "%d: the rare line at %zu of %zu lost", (unsigned long long)seed0,
	    _i, at, n);
	buf_free(&b);
	buf_free(&out);
}
END_TEST

/*
 * A conflict among the files of a diff
 */

/*
 * A changed file of a diff: git's (unified false) or diff -ru's, whose
 * own header lines are all a person navigates by.
 */
static void
plain_file(uint64_t *s, const char *nm, struct aiterm_buf *b,
    struct aiterm_buf *want, bool unified)
{
	static const char *const kinds[] = { "open", "read", "len", "flags" };
	size_t hunks = 1 + rt_pick(s, 3), h, at = 1, i;
	char id[32];

	if (unified) {
		size_t from = b->len;

		buf_printf(b, "diff -ru old/src/%s.c new/src/%s.c\n--- "
		    "old/src/%s.c\t2026-12-01 10:00:00 +0000\n+++ new/src/%s.c"
		    "\t2026-12-02 11:00:00 +0000\n", nm, nm, nm, nm);
		buf_add(want, b->data + from, b->len - from);
	} else {
		buf_printf(want, "diff --git a/src/%s.c b/src/%s.c\n", nm, nm);
		buf_printf(b, "diff --git a/src/%s.c b/src/%s.c\nindex "
		    "1234567..89abcde 100644\n--- a/src/%s.c\n+++ b/src/%s.c\n",
		    nm, nm, nm, nm);
	}
	for (h = 0; h < hunks; h++) {
		at += 10 + rt_pick(s, 200);
		buf_printf(want, "@@ -%zu,7 +%zu,7 @@ static int f%zu(void)\n",
		    at, at, h);
		buf_printf(b, "@@ -%zu,7 +%zu,7 @@ static int f%zu(void)\n", at,
		    at, h);
		/* Code: every line of its own shape, as in a real diff. */
		for (i = 0; i < 6; i++) {
			name(s, i, id, sizeof id);
			buf_printf(b, " \t%s = %s_%s(%s);\n", id, nm,
			    kinds[rt_pick(s, 4)], kinds[rt_pick(s, 4)]);
			if (i == 2)
				buf_printf(b, "-\treturn %zu;\n+\treturn %zu;\n",
				    h, h + 1);
		}
	}
}

static void
conflict_file(const char *nm, struct aiterm_buf *b, struct aiterm_buf *want)
{
	buf_printf(want, "diff --cc src/%s.c\n", nm);
	buf_adds(want, "@@@ -10,3 -10,3 +10,7 @@@\n");
	buf_adds(want, "++<<<<<<< HEAD\n");
	buf_adds(want, "++=======\n");
	buf_adds(want, "++>>>>>>> feature\n");
	buf_printf(b, "diff --cc src/%s.c\nindex 1111111,2222222..0000000\n"
	    "--- a/src/%s.c\n+++ b/src/%s.c\n@@@ -10,3 -10,3 +10,7 @@@\n"
	    "  int port = 80;\n++<<<<<<< HEAD\n +int timeout = 30;\n"
	    "++=======\n+ int timeout = 60;\n++>>>>>>> feature\n"
	    "  return 0;\n", nm, nm, nm);
}

/*
 * What the AI reads of command's output b holds every line of want; files
 * and odd (the conflict's or the "Only in" line's place) for the message.
 */
static void
diff_holds(const char *command, struct aiterm_buf *b, struct aiterm_buf *want,
    size_t files, size_t odd)
{
	char *got = read_as_ai(command, buf_str(b)), *line, *end;

	for (line = want->data; line < want->data + want->len; line = end + 1) {
		end = strchr(line, '\n');
		*end = '\0';
		ck_assert_msg(strstr(got, line) != NULL, "seed %llu: %s, %zu "
		    "files, the odd one at %zu: lost \"%s\" (%s)",
		    (unsigned long long)seed0, command, files, odd, line, how);
	}
	free(got);
	buf_free(b);
	buf_free(want);
}

START_TEST(test_diff_structure)
{
	struct aiterm_buf b = BUF_INIT, want = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 15485863;
	size_t files = 1 + rt_pick(&s, 12), at = rt_pick(&s, files + 1), i;
	char nm[32];

	for (i = 0; i <= files; i++) {
		name(&s, i, nm, sizeof nm);
		if (i == at)
			conflict_file(nm, &b, &want);
		else
			plain_file(&s, nm, &b, &want, false);
	}
	diff_holds("git diff", &b, &want, files + 1, at);
}
END_TEST

/*
 * diff -ru: every file's "diff -ru", "---" and "+++" lines, every hunk
 * header, every "Only in" line, among files of random names.
 */
START_TEST(test_plain_diff_structure)
{
	struct aiterm_buf b = BUF_INIT, want = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i * 32452843;
	size_t files = 1 + rt_pick(&s, 12), only = rt_pick(&s, files + 1), i;
	char nm[32];

	for (i = 0; i <= files; i++) {
		name(&s, i, nm, sizeof nm);
		if (i == only) {
			buf_printf(&b, "Only in old/src: %s.h\n", nm);
			buf_printf(&want, "Only in old/src: %s.h\n", nm);
		} else
			plain_file(&s, nm, &b, &want, true);
	}
	diff_holds("diff -ru old new", &b, &want, files + 1, only);
}
END_TEST

/*
 * red_faithful itself
 */

START_TEST(test_faithful_refuses_a_loss)
{
	struct aiterm_buf in = BUF_INIT, out = BUF_INIT;
	struct red_faithful f;
	uint64_t s = seed0 + (uint64_t)_i;
	size_t n = 50 + rt_pick(&s, 500), at = rt_pick(&s, n), i;
	char rare[64];

	snprintf(rare, sizeof rare, "Accepted publickey for user%zx",
	    (size_t)rt_next(&s));
	for (i = 0; i < n; i++) {
		if (i == at)
			buf_printf(&in, "%s\n", rare);
		buf_printf(&in, "tick %zu of the nightly job\n", i);
	}
	/* Everything but the rare line: refused, and it says which. */
	buf_adds(&out, "tick 1 of the nightly job\n[… 500 more ticks]\n");
	ck_assert(!red_faithful(in.data, in.len, out.data, out.len, 0, &f));
	ck_assert_uint_eq(f.first_missing, at);
	/* With it (in another layout): held. */
	buf_printf(&out, "line %zu: %s\n", at + 1, rare);
	ck_assert(red_faithful(in.data, in.len, out.data, out.len, 0, &f));
	/* A listing must hold every row, a far one need not. */
	ck_assert(!red_faithful("x1.c\ny2.c\nz3.c\n", 15, "x1.c z3.c", 9,
	    RED_FAITHFUL_LISTING, NULL));
	ck_assert(red_faithful("x1.c\ny2.c\nz3.c\n", 15, "x1.c y2.c z3.c", 14,
	    RED_FAITHFUL_LISTING, NULL));
	ck_assert(red_faithful("x1.c\ny2.c\nz3.c\n", 15, "x1.c z3.c", 9,
	    RED_FAITHFUL_FAR, NULL));
	buf_free(&in);
	buf_free(&out);
}
END_TEST

static bool
faithful(const char *in, const char *out)
{
	return red_faithful(in, strlen(in), out, strlen(out), 0, NULL);
}

/*
 * A hex dump's rows (tcpdump -X, xxd) are no outliers: their text column
 * renders the bytes; a rare line that is no row still is (issue 35).
 */
START_TEST(test_faithful_hexdump_rows)
{
	struct aiterm_buf in = BUF_INIT;
	uint64_t s = seed0 + (uint64_t)_i;
	size_t i, n = 40 + rt_pick(&s, 200);

	/* Four packet lines to a row: a patterned text of rare rows. */
	for (i = 0; i < 4 * n; i++) {
		buf_printf(&in, "12:00:%02zu.%06zu IP 10.0.0.1.443 > 10.0.0.2.5"
		    "%04zu: Flags [.], ack %zu, length 0\n", i % 60, i, i, i * 7);
		if (i % 4 == 3)
			buf_printf(&in, "\t0x0000:  4500 0034 %04zx 4000  "
			    "E..4%c%cword%zx\n", rt_pick(&s, 65536),
			    'a' + (int)rt_pick(&s, 26), 'A' + (int)rt_pick(&s, 26),
			    (size_t)rt_next(&s));
	}
	ck_assert(faithful(in.data, "[… packets folded]\n"));
	buf_adds(&in, "tcpdump: pcap_loop: truncated dump file\n");
	ck_assert(!faithful(in.data, "[… packets folded]\n"));
	buf_free(&in);
}
END_TEST

START_TEST(test_faithful_headers_verbatim)
{
	const char *in = "diff --cc src/a.c\n@@@ -1,2 -1,2 +1,5 @@@\n"
	    "++<<<<<<< HEAD\n+ x\n++=======\n++>>>>>>> b\n"
	    "src/net.c:12:5: error: 'fd' undeclared\n";

	/* Rewritten headers and a location moved apart are refused. */
	ck_assert(!faithful(in, "M src/a.c\n@@@ -1,2 -1,2 +1,5 @@@\n"
	    "++<<<<<<< HEAD\n++=======\n++>>>>>>> b\n"
	    "src/net.c:12:5: error: 'fd' undeclared\n"));
	ck_assert(!faithful(in, "diff --cc src/a.c\n@@@ -1,2 -1,2 +1,5 @@@\n"
	    "++<<<<<<< HEAD\n++=======\n++>>>>>>> b\n"
	    "src/net.c: 12: error: 'fd' undeclared\n"));
	ck_assert(faithful(in, in));
}
END_TEST

/* tree's drawing (box drawing, no-break spaces) is no word; names are. */
START_TEST(test_faithful_drawing_no_word)
{
	const char *in = "src\n\u251c\u2500\u2500 a.c\n"
	    "\u2502\u00a0\u00a0 \u2514\u2500\u2500 b\u00e9.c\n"
	    "\u2514\u2500\u2500 lib\n";
	const char *held = "src\n  a.c\n    b\u00e9.c\n  lib\n";
	const char *lost = "src\n  a.c\n    b.c\n  lib\n";

	ck_assert(red_faithful(in, strlen(in), held, strlen(held),
	    RED_FAITHFUL_LISTING, NULL));
	ck_assert(!red_faithful(in, strlen(in), lost, strlen(lost),
	    RED_FAITHFUL_LISTING, NULL));
}
END_TEST

static Suite *
make_suite(void)
{
	Suite *s = suite_create("red-props");
	TCase *tc = tcase_create("props");

	tcase_set_timeout(tc, 120);
	tcase_add_loop_test(tc, test_rare_line_in_flood, 0, ROUNDS);
	tcase_add_loop_test(tc, test_rare_line_follow, 0, ROUNDS);
	tcase_add_loop_test(tc, test_rare_line_continuation, 0, ROUNDS);
	tcase_add_loop_test(tc, test_listing_names, 0, ROUNDS);
	tcase_add_loop_test(tc, test_json_array_ids, 0, ROUNDS);
	tcase_add_loop_test(tc, test_distinct_headers, 0, ROUNDS);
	tcase_add_loop_test(tc, test_far_listing_names, 0, 20);
	tcase_add_loop_test(tc, test_far_listing_alone, 0, 12);
	tcase_add_loop_test(tc, test_far_find_top, 0, 12);
	tcase_add_loop_test(tc, test_far_largest_rows, 0, 8);
	tcase_add_loop_test(tc, test_generic_bounded, 0, 2 * ROUNDS);
	tcase_add_loop_test(tc, test_listing_within_bytes, 0, 2 * ROUNDS);
	tcase_add_loop_test(tc, test_diff_structure, 0, ROUNDS);
	tcase_add_loop_test(tc, test_plain_diff_structure, 0, ROUNDS);
	tcase_add_loop_test(tc, test_faithful_refuses_a_loss, 0, ROUNDS);
	tcase_add_test(tc, test_faithful_headers_verbatim);
	tcase_add_loop_test(tc, test_faithful_hexdump_rows, 0, ROUNDS);
	tcase_add_test(tc, test_faithful_drawing_no_word);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr;
	const char *seed = getenv("AITERM_PROP_SEED");
	int failed;

	if (seed != NULL && *seed != '\0')
		seed0 = strtoull(seed, NULL, 0);
	registry_load(getenv("AITERM_PLUGIN_PATH"), NULL);
	sr = srunner_create(make_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
