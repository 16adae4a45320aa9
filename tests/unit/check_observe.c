/*
 * PTY-OBSERVE without a terminal: the launch rules (core/proc/launch.c)
 * on synthetic process tables, the activity cursor and its deltas
 * (core/observe/cursor.c), a closed pane's family (core/proc/family.c),
 * the on-screen token figure, SHA-256, and the
 * Linux/macOS process table on real processes this test starts itself.
 */
#include <sys/types.h>
#include <sys/wait.h>

#include <check.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "observe/cursor.h"
#include "observe/identity.h"
#include "observe/token-hint.h"
#include "proc/family.h"
#include "proc/launch.h"
#include "proc/proc.h"
#include "util/sha256.h"
#include "util/xmalloc.h"

/* Synthetic rows: pid, ppid, pgrp, name; the rest default. */
struct row {
	long		pid, ppid, pgrp;
	const char	*name;
	enum proc_state	state;
	unsigned long long start_ms;
};

#define TPGID_OF_ROOT	-2	/* tpgid: use the root row's pgrp */

static struct proc_stat *
table_of(const struct row *rows, size_t n, long tpgid)
{
	struct proc_stat *t = xcalloc(n, sizeof *t);
	size_t i;

	for (i = 0; i < n; i++) {
		t[i].pid = rows[i].pid;
		t[i].ppid = rows[i].ppid;
		t[i].pgrp = rows[i].pgrp;
		t[i].tpgid = tpgid;
		t[i].state = rows[i].state;
		t[i].start_ms = rows[i].start_ms;
		snprintf(t[i].start_id, sizeof t[i].start_id, "%lu",
		    (unsigned long)(1000 + rows[i].pid));
		snprintf(t[i].name, sizeof t[i].name, "%s", rows[i].name);
	}
	return t;
}

#define N(a) (sizeof (a) / sizeof (a)[0])

/* The pid of a launch's body, head and shim (0 for none). */
static long
pid_at(const struct launch_tree *t, int node)
{
	return node < 0 ? 0 : t->nodes[node].ps->pid;
}

START_TEST(shim_and_native_are_one_launch)
{
	/* tmux -> bash (pane) -> node shim -> native, in job group 20. */
	static const struct row rows[] = {
		{ 1, 0, 1, "init", 0, 0 },
		{ 10, 1, 10, "bash", 0, 0 },
		{ 20, 10, 20, "node", 0, 0 },
		{ 21, 20, 20, "codex", 0, 0 },
		{ 30, 1, 30, "unrelated", 0, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 20);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.n, 3);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_int_eq(t.why, HARNESS_ONE);
	ck_assert_int_eq(t.harness, 0);
	ck_assert_int_eq(pid_at(&t, t.launches[0].head), 20);
	ck_assert_int_eq(pid_at(&t, t.launches[0].body), 21);
	ck_assert_int_eq(pid_at(&t, t.launches[0].shim), 20);
	ck_assert_uint_eq(t.launches[0].candidates, 2);
	ck_assert(t.launches[0].foreground);
	ck_assert_int_eq(launch_tree_find(&t, 30), -1);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(non_candidates_in_between)
{
	/* node -> sh -c -> env -> native: still one launch. */
	static const struct row rows[] = {
		{ 10, 1, 10, "zsh", 0, 0 },
		{ 20, 10, 20, "node", 0, 0 },
		{ 21, 20, 20, "sh", 0, 0 },
		{ 22, 21, 20, "env", 0, 0 },
		{ 23, 22, 20, "claude", 0, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 20);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.n, 5);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_int_eq(pid_at(&t, t.launches[0].body), 23);
	ck_assert_int_eq(pid_at(&t, t.launches[0].shim), 20);
	ck_assert_int_eq(t.nodes[launch_tree_find(&t, 21)].launch, -1);
	ck_assert_int_eq(t.nodes[launch_tree_find(&t, 23)].launch, 0);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(siblings_stay_separate)
{
	/* A pipeline: two foreground candidates with only the shell above. */
	static const struct row rows[] = {
		{ 10, 1, 10, "bash", 0, 0 },
		{ 20, 10, 20, "yes", 0, 0 },
		{ 21, 10, 20, "head", 0, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 20);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.nlaunches, 2);
	ck_assert_int_eq(t.why, HARNESS_AMBIGUOUS);
	ck_assert_int_eq(t.harness, -1);
	ck_assert(t.launches[0].foreground && t.launches[1].foreground);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(two_node_children_are_not_guessed)
{
	/* A node with two candidate children is its own body. */
	static const struct row rows[] = {
		{ 10, 1, 10, "bash", 0, 0 },
		{ 20, 10, 20, "node", 0, 0 },
		{ 21, 20, 20, "native-a", 0, 0 },
		{ 22, 20, 20, "native-b", 0, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 20);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_uint_eq(t.launches[0].candidates, 3);
	ck_assert_int_eq(pid_at(&t, t.launches[0].body), 20);
	ck_assert_int_eq(t.launches[0].shim, -1);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(npx_chain)
{
	/* npx (node) -> sh -> node cli -> native -> two tools. */
	static const struct row rows[] = {
		{ 10, 1, 10, "bash", 0, 0 },
		{ 20, 10, 20, "node", 0, 0 },
		{ 21, 20, 20, "sh", 0, 0 },
		{ 22, 21, 20, "node", 0, 0 },
		{ 23, 22, 20, "native", 0, 0 },
		{ 24, 23, 20, "mcp-a", 0, 0 },
		{ 25, 23, 20, "mcp-b", 0, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 20);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_int_eq(pid_at(&t, t.launches[0].body), 23);
	ck_assert_int_eq(pid_at(&t, t.launches[0].shim), 20);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(pane_root_is_the_shim)
{
	/* The pane runs the shim directly (no shell). */
	static const struct row rows[] = {
		{ 10, 1, 10, "node", 0, 0 },
		{ 11, 10, 10, "native", 0, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 10);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_int_eq(t.why, HARNESS_ONE);
	ck_assert_int_eq(pid_at(&t, t.launches[0].head), 10);
	ck_assert_int_eq(pid_at(&t, t.launches[0].body), 11);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(shell_at_prompt_and_background_job)
{
	/* The shell owns the terminal; a background job is in group 30. */
	static const struct row rows[] = {
		{ 10, 1, 10, "bash", 0, 0 },
		{ 30, 10, 30, "sleep", 0, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 10);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert(!t.launches[0].foreground);
	ck_assert_int_eq(t.why, HARNESS_NONE);
	ck_assert_int_eq(t.harness, -1);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(stopped_body)
{
	static const struct row rows[] = {
		{ 10, 1, 10, "bash", 0, 0 },
		{ 20, 10, 20, "node", PROC_SLEEPING, 0 },
		{ 21, 20, 20, "native", PROC_STOPPED, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 20);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert(t.launches[0].stopped);
	launch_tree_free(&t);
	/* Only the shim stopped: the body is not. */
	tab[1].state = PROC_STOPPED;
	tab[2].state = PROC_SLEEPING;
	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert(!t.launches[0].stopped);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(zombies_are_not_candidates)
{
	/* The native exited and is not reaped yet: node alone is left. */
	static const struct row rows[] = {
		{ 10, 1, 10, "bash", 0, 0 },
		{ 20, 10, 20, "node", 0, 0 },
		{ 21, 20, 20, "native", PROC_ZOMBIE, 0 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 20);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.n, 3);
	ck_assert_uint_eq(t.nlaunches, 1);
	ck_assert_int_eq(pid_at(&t, t.launches[0].body), 20);
	ck_assert_int_eq(t.nodes[2].role, LAUNCH_DEAD);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(broken_tables)
{
	/* The root missing; a cycle and self-parents never loop. */
	static const struct row rows[] = {
		{ 10, 12, 10, "bash", 0, 0 },
		{ 11, 10, 10, "a", 0, 0 },
		{ 12, 11, 10, "b", 0, 0 },
		{ 13, 13, 13, "self", 0, 0 },
		{ 11, 10, 10, "a", 0, 0 },	/* the same pid twice */
	};
	struct proc_stat *tab = table_of(rows, N(rows), 10);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 99, LAUNCH_BACKGROUND_MS);
	ck_assert_int_eq(t.why, HARNESS_NO_ROOT);
	ck_assert_uint_eq(t.n, 0);
	launch_tree_free(&t);
	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_le(t.n, 4);
	ck_assert_int_eq(launch_tree_find(&t, 13), -1);
	ck_assert_int_eq(t.nodes[launch_tree_find(&t, 12)].launch,
	    t.nodes[launch_tree_find(&t, 11)].launch);
	launch_tree_free(&t);
	launch_tree_build(&t, tab, N(rows), 13, LAUNCH_BACKGROUND_MS);
	ck_assert_uint_eq(t.n, 1);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(background_threshold)
{
	static const struct row rows[] = {
		{ 10, 1, 10, "bash", 0, 5000 },
		{ 20, 10, 20, "early", 0, 5000 + 59999 },
		{ 21, 10, 21, "late", 0, 5000 + 60000 },
		{ 22, 21, 21, "later", 0, 5000 + 90000 },
	};
	struct proc_stat *tab = table_of(rows, N(rows), 10);
	struct launch_tree t;

	launch_tree_build(&t, tab, N(rows), 10, LAUNCH_BACKGROUND_MS);
	ck_assert(!t.nodes[0].background);
	ck_assert(!t.nodes[launch_tree_find(&t, 20)].background);
	ck_assert(t.nodes[launch_tree_find(&t, 21)].background);
	ck_assert(t.nodes[launch_tree_find(&t, 22)].background);
	launch_tree_free(&t);
	launch_tree_build(&t, tab, N(rows), 10, 0);
	ck_assert(!t.nodes[0].background);
	ck_assert(t.nodes[launch_tree_find(&t, 20)].background);
	launch_tree_free(&t);
	free(tab);
}
END_TEST

START_TEST(roles)
{
	ck_assert_int_eq(launch_role_of("bash"), LAUNCH_SHELL);
	ck_assert_int_eq(launch_role_of("-zsh"), LAUNCH_SHELL);
	ck_assert_int_eq(launch_role_of("timeout"), LAUNCH_WRAPPER);
	ck_assert_int_eq(launch_role_of("node"), LAUNCH_CANDIDATE);
	ck_assert_int_eq(launch_role_of("bashful"), LAUNCH_CANDIDATE);
	ck_assert(launch_is_shim_runtime("node"));
	ck_assert(!launch_is_shim_runtime("python3"));
}
END_TEST

static struct obs_cursor
cursor_with(const char *session, long pane, const char *start,
    unsigned long long clock, const char *screen)
{
	struct obs_cursor c;

	memset(&c, 0, sizeof c);
	snprintf(c.session, sizeof c.session, "%s", session);
	c.pane_pid = pane;
	snprintf(c.pane_start, sizeof c.pane_start, "%s", start);
	c.clock_ms = clock;
	snprintf(c.screen, sizeof c.screen, "%s", screen);
	return c;
}

static void
add_cpu(struct obs_cursor *c, long pid, const char *start,
    unsigned long long cpu, unsigned long long child, unsigned long long st,
    bool bg)
{
	struct obs_cpu p;

	memset(&p, 0, sizeof p);
	p.pid = pid;
	snprintf(p.start_id, sizeof p.start_id, "%s", start);
	p.cpu_ms = cpu;
	p.child_cpu_ms = child;
	p.start_ms = st;
	p.background = bg;
	obs_cursor_add(c, &p);
}

#define DIGEST_A "0123456789abcdef0123456789abcdef"
#define DIGEST_B "fedcba9876543210fedcba9876543210"

START_TEST(cursor_round_trip)
{
	struct obs_cursor c = cursor_with("s-1", 42, "777", 123456, DIGEST_A);
	struct obs_cursor back;
	struct aiterm_error err = ERROR_INIT;
	char *text;

	add_cpu(&c, 42, "777", 10, 0, 0, false);
	add_cpu(&c, 43, "780.5", 250, 30, 0, false);
	text = obs_cursor_format(&c);
	ck_assert_str_eq(text, "obs1;s-1;42:777;123456;" DIGEST_A
	    ";42:777:10:0,43:780.5:250:30");
	ck_assert_int_eq(obs_cursor_parse(text, &back, &err), 0);
	ck_assert_str_eq(back.session, "s-1");
	ck_assert_int_eq(back.pane_pid, 42);
	ck_assert_str_eq(back.pane_start, "777");
	ck_assert_uint_eq(back.clock_ms, 123456);
	ck_assert_str_eq(back.screen, DIGEST_A);
	ck_assert_uint_eq(back.n, 2);
	ck_assert_str_eq(back.procs[1].start_id, "780.5");
	ck_assert_uint_eq(back.procs[1].child_cpu_ms, 30);
	ck_assert(obs_cursor_same_pane(&back, &c));
	free(text);
	obs_cursor_free(&back);
	obs_cursor_free(&c);

	/* No pane, no screen, no processes. */
	c = cursor_with("x", -1, "", 5, "");
	text = obs_cursor_format(&c);
	ck_assert_str_eq(text, "obs1;x;-;5;-;");
	ck_assert_int_eq(obs_cursor_parse(text, &back, &err), 0);
	ck_assert_int_eq(back.pane_pid, -1);
	ck_assert_uint_eq(back.n, 0);
	ck_assert(!obs_cursor_same_pane(&back, &back));
	free(text);
	obs_cursor_free(&back);
}
END_TEST

START_TEST(cursor_invalid)
{
	static const struct {
		const char	*text;
		const char	*msg;
	} bad[] = {
		{ "", "it has 1 of 6 fields (not a pty_observe cursor)" },
		{ "hello", "it has 1 of 6 fields (not a pty_observe cursor)" },
		{ "obs2;s;1:2;3;-;", "unknown version (want obs1)" },
		{ "obs1;s;1:2;3;-", "it has 5 of 6 fields (not a pty_observe "
		    "cursor)" },
		{ "obs1;-s;1:2;3;-;", "its session field is malformed" },
		{ "obs1;a.b;1:2;3;-;", "its session field is malformed" },
		{ "obs1;s;0:2;3;-;", "its pane field is malformed" },
		{ "obs1;s;1:x;3;-;", "its pane field is malformed" },
		{ "obs1;s;1:2;;-;", "its clock field is malformed" },
		{ "obs1;s;1:2;99999999999999999999;-;",
		    "its clock field is malformed" },
		{ "obs1;s;1:2;3;abc;", "its screen digest field is malformed" },
		{ "obs1;s;1:2;3;-;1:2:3", "process entry 1 is malformed" },
		{ "obs1;s;1:2;3;-;1:2:3:4,", "it ends with ','" },
		{ "obs1;s;1:2;3;-;1:2:3:4,5:6:7:8:9",
		    "process entry 2 is malformed" },
		{ "obs1;s;1:2;3;-;1:2:-3:4", "process entry 1 is malformed" },
	};
	struct aiterm_error err = ERROR_INIT;
	struct obs_cursor c;
	size_t i;

	for (i = 0; i < N(bad); i++) {
		ck_assert_msg(obs_cursor_parse(bad[i].text, &c, &err) == -1,
		    "%s parses", bad[i].text);
		ck_assert_str_eq(error_msg(&err), bad[i].msg);
		ck_assert_uint_eq(c.n, 0);
		error_clear(&err);
	}
}
END_TEST

START_TEST(delta_rules)
{
	struct obs_cursor prev = cursor_with("s", 10, "1", 1000, DIGEST_A);
	struct obs_cursor now = cursor_with("s", 10, "1", 3000, DIGEST_A);
	struct obs_delta d;

	add_cpu(&prev, 10, "1", 100, 0, 0, false);
	add_cpu(&prev, 20, "5", 500, 0, 500, false);
	add_cpu(&now, 10, "1", 130, 0, 0, false);
	add_cpu(&now, 20, "5", 700, 0, 500, false);
	obs_delta_compute(&prev, &now, &d);
	ck_assert_uint_eq(d.interval_ms, 2000);
	ck_assert(!d.screen_changed);
	ck_assert_uint_eq(d.cpu_ms, 230);
	ck_assert(d.complete);
	ck_assert_uint_eq(d.nprocs, 2);
	ck_assert_uint_eq(d.nended, 0);
	obs_delta_free(&d);

	/* 20 ended; 21 started in the interval, 30 is new but older. */
	obs_cursor_free(&now);
	now = cursor_with("s", 10, "1", 3000, DIGEST_B);
	add_cpu(&now, 10, "1", 130, 0, 0, false);
	add_cpu(&now, 21, "2500", 40, 0, 2500, true);
	obs_delta_compute(&prev, &now, &d);
	ck_assert(d.screen_changed);
	ck_assert_uint_eq(d.cpu_ms, 70);
	ck_assert(!d.complete);
	ck_assert_uint_eq(d.nended, 1);
	ck_assert_int_eq(d.ended[0]->pid, 20);
	ck_assert_uint_eq(d.background_cpu_ms, 40);
	ck_assert_uint_eq(d.background_procs, 1);
	ck_assert(d.procs[1].started);
	obs_delta_free(&d);

	/* The same PID with another start id is another process. */
	obs_cursor_free(&now);
	now = cursor_with("s", 10, "1", 3000, DIGEST_A);
	add_cpu(&now, 10, "1", 100, 0, 0, false);
	add_cpu(&now, 20, "2999", 3, 0, 2999, false);
	obs_delta_compute(&prev, &now, &d);
	ck_assert_uint_eq(d.cpu_ms, 3);
	ck_assert_uint_eq(d.nended, 1);
	ck_assert(!d.complete);
	obs_delta_free(&d);

	/* Unseen short-lived children: the parent's waited-for CPU grew. */
	obs_cursor_free(&prev);
	obs_cursor_free(&now);
	prev = cursor_with("s", 10, "1", 1000, DIGEST_A);
	now = cursor_with("s", 10, "1", 3000, DIGEST_A);
	add_cpu(&prev, 10, "1", 100, 0, 0, false);
	add_cpu(&now, 10, "1", 100, 20, 0, false);
	obs_delta_compute(&prev, &now, &d);
	ck_assert_uint_eq(d.cpu_ms, 0);
	ck_assert(!d.complete);
	ck_assert_uint_eq(d.nprocs, 0);
	obs_delta_free(&d);

	/* A process new to the cursor but started before it. */
	obs_cursor_free(&now);
	now = cursor_with("s", 10, "1", 3000, DIGEST_A);
	add_cpu(&now, 10, "1", 100, 0, 0, false);
	add_cpu(&now, 40, "900", 50, 0, 900, false);
	obs_delta_compute(&prev, &now, &d);
	ck_assert_uint_eq(d.cpu_ms, 50);
	ck_assert(!d.complete);
	obs_delta_free(&d);
	obs_cursor_free(&prev);
	obs_cursor_free(&now);
}
END_TEST

START_TEST(token_hints)
{
	static const struct {
		const char		*screen;
		unsigned long long	 value;
		bool			 approx;
		unsigned		 row;
	} cases[] = {
		{ "Working... 1,234 tokens\n", 1234, false, 0 },
		{ "a\n\xe2\x86\x93 12.3k tokens\nb 5 tokens later\n", 5, false,
		    2 },
		{ "x\ny\nToken usage: total=99\ntokens used: 2.5M\n", 2500000,
		    true, 3 },
		{ "1 token", 1, false, 0 },
		{ "  3k tokens  7K tokens", 7000, true, 0 },
	};
	static const char *const none[] = { "", "no figures here",
	    "tokenizer 12", "v1.2.3tokens" };
	struct token_hint h;
	size_t i;

	for (i = 0; i < N(cases); i++) {
		ck_assert_msg(token_hint_find(cases[i].screen,
		    strlen(cases[i].screen), &h), "%s", cases[i].screen);
		ck_assert_uint_eq(h.value, cases[i].value);
		ck_assert_int_eq(h.approximate, cases[i].approx);
		ck_assert_uint_eq(h.row, cases[i].row);
	}
	for (i = 0; i < N(none); i++)
		ck_assert_msg(!token_hint_find(none[i], strlen(none[i]), &h),
		    "%s", none[i]);
}
END_TEST

START_TEST(sha256_vectors)
{
	char hex[65];
	char *million = xmalloc(1000000);

	sha256_hex("", 0, hex, 64);
	ck_assert_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb924"
	    "27ae41e4649b934ca495991b7852b855");
	sha256_hex("abc", 3, hex, 64);
	ck_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223"
	    "b00361a396177a9cb410ff61f20015ad");
	sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
	    56, hex, 64);
	ck_assert_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039"
	    "a33ce45964ff2167f6ecedd419db06c1");
	memset(million, 'a', 1000000);
	sha256_hex(million, 1000000, hex, 32);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67");
	free(million);
}
END_TEST

static const struct proc_stat *
row_of(const struct proc_table *t, long pid)
{
	size_t i;

	for (i = 0; i < t->n; i++) {
		if (t->procs[i].pid == pid)
			return &t->procs[i];
	}
	return NULL;
}

/* Wait until pid's state is want (up to 5 s). */
static bool
wait_state(long pid, enum proc_state want)
{
	struct proc_table t = PROC_TABLE_INIT;
	const struct proc_stat *ps;
	int i;
	bool ok = false;

	for (i = 0; i < 500 && !ok; i++) {
		ck_assert_int_eq(proc_table_read(&t), 0);
		ok = (ps = row_of(&t, pid)) != NULL && ps->state == want;
		if (!ok)
			usleep(10000);
	}
	proc_table_free(&t);
	return ok;
}

START_TEST(real_processes)
{
	struct proc_table t = PROC_TABLE_INIT;
	const struct proc_stat *me, *kid;
	struct obs_identity id, id2;
	struct aiterm_buf argv = BUF_INIT;
	char start[PROC_START_ID_MAX];
	unsigned long long now;
	pid_t pid;
	int status;

	pid = fork();
	ck_assert_int_ne(pid, -1);
	if (pid == 0) {
		execl("/bin/sleep", "sleep", "30", (char *)NULL);
		_exit(127);
	}
	ck_assert(wait_state(pid, PROC_SLEEPING));
	ck_assert_int_eq(proc_table_read(&t), 0);
	ck_assert((me = row_of(&t, getpid())) != NULL);
	ck_assert((kid = row_of(&t, pid)) != NULL);
	ck_assert_int_eq(kid->ppid, getpid());
	ck_assert_int_eq(proc_start_id(pid, start, sizeof start), 0);
	ck_assert_str_eq(kid->start_id, start);
	ck_assert_str_eq(kid->name, "sleep");
	now = proc_clock_ms();
	ck_assert_uint_le(kid->start_ms, now);
	ck_assert_uint_ge(kid->start_ms + 10000, now);
	ck_assert_uint_ge(kid->start_ms, me->start_ms);
	ck_assert_int_eq(proc_exe_name(pid, start, sizeof start), 0);
	ck_assert_str_eq(start, "sleep");
	ck_assert_int_eq(proc_argv(pid, &argv), 0);
	ck_assert_uint_eq(argv.len, sizeof "sleep\0" "30");
	ck_assert_mem_eq(argv.data, "sleep\0" "30", argv.len);
	ck_assert_int_eq(obs_identity_of(kid, &id), 0);
	ck_assert_int_eq(id.pid, pid);
	ck_assert_uint_eq(strlen(id.argv_digest), OBS_DIGEST_HEX);
	ck_assert_int_eq(obs_identity_of(kid, &id2), 0);
	ck_assert_str_eq(id.argv_digest, id2.argv_digest);

	/* SIGSTOP and SIGCONT, as the table shows them. */
	ck_assert_int_eq(kill(pid, SIGSTOP), 0);
	ck_assert(wait_state(pid, PROC_STOPPED));
	ck_assert_int_eq(kill(pid, SIGCONT), 0);
	ck_assert(wait_state(pid, PROC_SLEEPING));

	/* A zombie has no identity; a reaped process has no row. */
	ck_assert_int_eq(kill(pid, SIGKILL), 0);
	ck_assert(wait_state(pid, PROC_ZOMBIE));
	ck_assert_int_eq(proc_table_read(&t), 0);
	ck_assert((kid = row_of(&t, pid)) != NULL);
	ck_assert_int_eq(obs_identity_of(kid, &id), -1);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(proc_table_read(&t), 0);
	ck_assert(row_of(&t, pid) == NULL);
	buf_free(&argv);
	proc_table_free(&t);
}
END_TEST

/* Whether pid is under root by the parent links of t. */
static bool
under(const struct proc_table *t, long pid, long root)
{
	const struct proc_stat *ps;
	int hops;

	for (hops = 0; hops < 64 && pid > 1; hops++) {
		if (pid == root)
			return true;
		if ((ps = row_of(t, pid)) == NULL)
			return false;
		pid = ps->ppid;
	}
	return pid == root;
}

/*
 * OBS-PROC: proc_tree_read(root) holds exactly the processes of the
 * whole table under root (a child and its grandchild here), and a root
 * that is gone gives an empty table (issue 17: pty_observe no longer
 * reads every process).
 */
START_TEST(tree_read_matches_table)
{
	struct proc_table all = PROC_TABLE_INIT, tree = PROC_TABLE_INIT;
	long me = (long)getpid();
	size_t i, mine = 0;
	pid_t pid;
	int status;

	pid = fork();
	ck_assert_int_ne(pid, -1);
	if (pid == 0) {
		setpgid(0, 0);	/* so that one kill ends the sleeps too */
		execl("/bin/sh", "sh", "-c", "sleep 30 & sleep 30; wait",
		    (char *)NULL);
		_exit(127);
	}
	/* Until both sleeps are there. */
	for (i = 0; i < 500; i++) {
		ck_assert_int_eq(proc_tree_read(&tree, me), 0);
		if (tree.n >= 4)
			break;
		usleep(10000);
	}
	ck_assert_int_eq(proc_table_read(&all), 0);
	ck_assert_int_eq(proc_tree_read(&tree, me), 0);
	ck_assert_int_eq(tree.procs[0].pid, me);
	for (i = 0; i < all.n; i++)
		if (under(&all, all.procs[i].pid, me)) {
			mine++;
			ck_assert_msg(row_of(&tree, all.procs[i].pid) != NULL,
			    "pid %ld under the root is missing from the tree",
			    all.procs[i].pid);
		}
	ck_assert_uint_eq(tree.n, mine);
	ck_assert_uint_ge(tree.n, 4);	/* us, sh, two sleeps */
	for (i = 0; i < tree.n; i++)
		ck_assert(under(&all, tree.procs[i].pid, me));
	ck_assert_int_eq(kill(-pid, SIGKILL), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(proc_tree_read(&tree, pid), 0);
	ck_assert_uint_eq(tree.n, 0);
	proc_table_free(&all);
	proc_table_free(&tree);
}
END_TEST

/*
 * PTY-CLOSE: a pane's family (core/proc/family.c).  Rows: pid, ppid,
 * pgrp, sid; the start id is 1000 + pid.
 */
struct kin {
	long	pid, ppid, pgrp, sid;
	bool	marked, protect;
};

static void
family_of(const struct kin *k, size_t n, const struct proc_ident *known,
    size_t nknown, bool *member)
{
	struct proc_stat *t = xcalloc(n, sizeof *t);
	bool *marked = xcalloc(n, sizeof *marked);
	bool *protect = xcalloc(n, sizeof *protect);
	struct family_rules r = { known, nknown, marked, protect };
	size_t i;

	for (i = 0; i < n; i++) {
		t[i].pid = k[i].pid;
		t[i].ppid = k[i].ppid;
		t[i].pgrp = k[i].pgrp;
		t[i].sid = k[i].sid;
		snprintf(t[i].start_id, sizeof t[i].start_id, "%ld",
		    1000 + k[i].pid);
		marked[i] = k[i].marked;
		protect[i] = k[i].protect;
	}
	family_select(t, n, &r, member);
	free(protect);
	free(marked);
	free(t);
}

/* A pane as tmux runs it, and what its processes became. */
static const struct kin pane_rows[] = {
	{ 1, 0, 1, 1, false, false },		/* init */
	{ 5, 1, 5, 5, true, true },		/* the tmux server */
	{ 6, 5, 6, 5, true, false },		/* its log pipe, marked */
	{ 10, 5, 10, 10, false, false },	/* the pane's shell */
	{ 11, 10, 11, 10, false, false },	/* the foreground */
	{ 12, 1, 12, 10, false, false },	/* a job whose shell ended */
	{ 13, 1, 13, 13, true, false },		/* setsid, marked */
	{ 14, 11, 14, 14, false, false },	/* setsid by a member */
	{ 15, 1, 15, 14, false, false },	/* ... orphaned in its session */
	{ 16, 1, 14, 14, false, false },	/* ... in its group */
	{ 30, 1, 30, 30, false, false },	/* unrelated */
	{ 31, 30, 31, 10, false, false },	/* unrelated, the pane's sid */
	{ 40, 1, 40, 40, false, true },		/* this server */
	{ 41, 40, 41, 41, true, false },	/* its child, marked */
};

START_TEST(family_of_a_pane)
{
	static const long want[] = { 10, 11, 12, 13, 14, 15, 16, 31 };
	struct proc_ident known = { 10, "1010" };
	bool member[N(pane_rows)];
	size_t i, k;
	bool in;

	family_of(pane_rows, N(pane_rows), &known, 1, member);
	for (i = 0; i < N(pane_rows); i++) {
		for (in = false, k = 0; k < N(want); k++)
			in = in || want[k] == pane_rows[i].pid;
		ck_assert_msg(member[i] == in, "pid %ld: %d", pane_rows[i].pid,
		    member[i]);
	}
}
END_TEST

START_TEST(family_needs_the_start)
{
	/* The pane's pid with another start: a reused pid, nothing of it. */
	struct proc_ident known = { 10, "999" };
	bool member[N(pane_rows)];
	size_t i;

	family_of(pane_rows, N(pane_rows), &known, 1, member);
	for (i = 0; i < N(pane_rows); i++)
		ck_assert_msg(member[i] == (pane_rows[i].pid == 13),
		    "pid %ld: %d (only the marked one)", pane_rows[i].pid,
		    member[i]);
	/* No known process and no marks: nothing. */
	family_select(NULL, 0, &(struct family_rules){ NULL, 0, NULL, NULL },
	    member);
}
END_TEST

START_TEST(family_of_a_lost_pane)
{
	/* The shell is gone: its orphans are found by what was seen. */
	static const struct kin rows[] = {
		{ 1, 0, 1, 1, false, false },
		{ 11, 1, 11, 10, false, false },	/* known */
		{ 12, 11, 11, 10, false, false },	/* its child */
		{ 17, 1, 17, 10, false, false },	/* unknown, unmarked */
		{ 18, 1, 18, 10, true, false },		/* marked */
	};
	struct proc_ident known[] = { { 10, "1010" }, { 11, "1011" } };
	bool member[N(rows)];

	family_of(rows, N(rows), known, N(known), member);
	ck_assert(!member[0]);
	ck_assert(member[1] && member[2] && member[4]);
	/* The session's id alone proves nothing once its leader is gone. */
	ck_assert(!member[3]);
}
END_TEST

static Suite *
make_observe_suite(void)
{
	Suite *s = suite_create("observe");
	TCase *tc;

	tc = tcase_create("Launches");
	tcase_add_test(tc, shim_and_native_are_one_launch);
	tcase_add_test(tc, non_candidates_in_between);
	tcase_add_test(tc, siblings_stay_separate);
	tcase_add_test(tc, two_node_children_are_not_guessed);
	tcase_add_test(tc, npx_chain);
	tcase_add_test(tc, pane_root_is_the_shim);
	tcase_add_test(tc, shell_at_prompt_and_background_job);
	tcase_add_test(tc, stopped_body);
	tcase_add_test(tc, zombies_are_not_candidates);
	tcase_add_test(tc, broken_tables);
	tcase_add_test(tc, background_threshold);
	tcase_add_test(tc, roles);
	suite_add_tcase(s, tc);

	tc = tcase_create("Family");
	tcase_add_test(tc, family_of_a_pane);
	tcase_add_test(tc, family_needs_the_start);
	tcase_add_test(tc, family_of_a_lost_pane);
	suite_add_tcase(s, tc);

	tc = tcase_create("Cursor");
	tcase_add_test(tc, cursor_round_trip);
	tcase_add_test(tc, cursor_invalid);
	tcase_add_test(tc, delta_rules);
	suite_add_tcase(s, tc);

	tc = tcase_create("Digests");
	tcase_add_test(tc, token_hints);
	tcase_add_test(tc, sha256_vectors);
	suite_add_tcase(s, tc);

	tc = tcase_create("Real processes");
	tcase_add_test(tc, real_processes);
	tcase_add_test(tc, tree_read_matches_table);
	suite_add_tcase(s, tc);
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(make_observe_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
