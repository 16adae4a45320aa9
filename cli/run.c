/*
 * aiterm run: one one-shot command under the supervisor (SUP-RUN, ADR
 * 0023).  Its output passes through as it comes (or, with --json, the
 * run record and the output at the end); the exit status is the
 * command's, 124 when a timeout ended it, 128+N for a signal.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/run/backend.h"
#include "cli/run/prune.h"
#include "cli/run/supervisor.h"
#include "pty/session.h"
#include "state/atomic.h"
#include "state/stateroot.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* The most of each log --json carries. */
#define RUN_JSON_OUTPUT_MAX	(1u << 20)

static const char run_help[] =
"usage: aiterm run [OPTIONS] [--] COMMAND [ARGUMENTS...]\n"
"       aiterm run --backend claude|codex|ID [OPTIONS] [--] PROMPT\n"
"       aiterm run --prune [--keep N] [--keep-days DAYS]\n"
"\n"
"run: one command under Aiterm's supervisor, in a process group of its\n"
"own, stdout and stderr on pipes (stdin is /dev/null), every byte kept\n"
"in <state root>/runs/<run id>/ with its run record (ADR 0023).  When it\n"
"ends, or is ended, no process of its tree is left: TERM to its group\n"
"and every descendant, KILL after the grace period.\n"
"\n"
"Options:\n"
"  --timeout SECONDS            overall limit [default 300]\n"
"  --no-output-timeout SECONDS  limit on silence [default: the watchdog,\n"
"                               0.8 x timeout in 180-600 s; with --resume\n"
"                               0.3 x timeout in 60-180 s; never longer\n"
"                               than --timeout]\n"
"  --resume                     a resumed run (the shorter watchdog)\n"
"  --scope KEY                  a newer run of KEY ends the older first\n"
"  --grace SECONDS              from TERM to KILL [default 2]\n"
"  --pty                        on a terminal of its own (one output\n"
"                               stream, stderr.log empty) instead of pipes\n"
"  --cols N, --rows N           that terminal's size [default 120 x 30]\n"
"  --cwd DIR                    where it runs [default: here]\n"
"  --backend ID                 claude, codex, generic [default], or one of\n"
"                               ~/.config/aiterm/backends/ID.yaml; with one\n"
"                               other than generic the words are the prompt\n"
"  --model NAME                 the backend's model option\n"
"  --session-id ID              the CLI session (claude: a new run gets a\n"
"                               new one; with --resume, the one resumed);\n"
"                               the default scope is cli:BACKEND:ID\n"
"  --json                       no pass-through; the run record, stdout\n"
"                               and stderr as one JSON object at the end\n"
"\n"
"Records: when a run starts, finished runs beyond the newest N, or that\n"
"ended more than DAYS days ago, are removed (a run still going never is):\n"
"  --keep N                     [default $AITERM_RUN_KEEP, else 100]\n"
"  --keep-days DAYS             [default $AITERM_RUN_KEEP_DAYS, else 30]\n"
"  --prune                      only that, now; no COMMAND\n"
"\n"
"Exit status: the command's; 124 a timeout ended it; 128+N signal N (a\n"
"cancel: 130 for Ctrl-C); 127 not found, 126 not startable; 2 bad usage.\n";

struct run_cli {
	struct run_options	 o;
	const char		*backend;
	const char		*model;
	const char		*session_id;
	char			*prompt;	/* the words, with a backend */
	char			 scope[RUN_SCOPE_MAX + 1];
	char			 new_session[40];
	struct run_keep		 keep;
	bool			 prune;
	bool			 json;
	bool			 resume;
	bool			 no_output_set;
	const char		*state_dir;
};

static int
seconds(const char *text, long long *ms)
{
	double v;
	char *end;

	errno = 0;
	v = strtod(text, &end);
	if (errno != 0 || end == text || *end != '\0' || !isfinite(v) ||
	    v <= 0 || v > 86400)
		return -1;
	*ms = (long long)(v * 1000.0 + 0.5);
	if (*ms < 1)
		*ms = 1;
	return 0;
}

enum run_opt { RO_TIMEOUT, RO_QUIET, RO_GRACE, RO_SCOPE, RO_CWD, RO_BACKEND,
	RO_MODEL, RO_SESSION, RO_COLS, RO_ROWS, RO_PTY, RO_RESUME, RO_JSON,
	RO_KEEP, RO_KEEP_DAYS, RO_PRUNE, RO_HELP };

static const struct {
	const char	*name;
	enum run_opt	 opt;
	bool		 value;
} run_opts[] = {
	{ "--timeout", RO_TIMEOUT, true },
	{ "--no-output-timeout", RO_QUIET, true },
	{ "--grace", RO_GRACE, true },
	{ "--scope", RO_SCOPE, true },
	{ "--cwd", RO_CWD, true },
	{ "--backend", RO_BACKEND, true },
	{ "--model", RO_MODEL, true },
	{ "--session-id", RO_SESSION, true },
	{ "--cols", RO_COLS, true },
	{ "--rows", RO_ROWS, true },
	{ "--pty", RO_PTY, false },
	{ "--resume", RO_RESUME, false },
	{ "--json", RO_JSON, false },
	{ "--keep", RO_KEEP, true },
	{ "--keep-days", RO_KEEP_DAYS, true },
	{ "--prune", RO_PRUNE, false },
	{ "--help", RO_HELP, false },
	{ "-h", RO_HELP, false },
};

/* One option and its value; -1 with *why. */
static int
take(struct run_cli *rc, enum run_opt opt, const char *name, const char *v,
    char **why)
{
	long long *ms = opt == RO_TIMEOUT ? &rc->o.timeout_ms :
	    opt == RO_QUIET ? &rc->o.no_output_timeout_ms : &rc->o.grace_ms;
	char *end;
	double days;
	long n;

	switch (opt) {
	case RO_TIMEOUT:
	case RO_QUIET:
	case RO_GRACE:
		if (seconds(v, ms) != 0) {
			*why = xasprintf("%s wants seconds above 0 (at most "
			    "86400), not '%s'", name, v);
			return -1;
		}
		rc->no_output_set |= opt == RO_QUIET;
		return 0;
	case RO_SCOPE:
		if (*v == '\0' || strlen(v) > RUN_SCOPE_MAX) {
			*why = xasprintf("--scope wants 1-%d characters",
			    RUN_SCOPE_MAX);
			return -1;
		}
		rc->o.scope = v;
		return 0;
	case RO_CWD:
		rc->o.cwd = v;
		return 0;
	case RO_BACKEND:
		rc->backend = v;
		return 0;
	case RO_MODEL:
		rc->model = v;
		return 0;
	case RO_SESSION:
		if (*v == '\0' || strlen(v) > 100) {
			*why = xasprintf("--session-id wants 1-100 characters");
			return -1;
		}
		rc->session_id = v;
		return 0;
	case RO_COLS:
	case RO_ROWS:
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno != 0 || end == v || *end != '\0' || n < 2 ||
		    n > 1000) {
			*why = xasprintf("%s wants a whole number from 2 to 1000, "
			    "not '%s'", name, v);
			return -1;
		}
		*(opt == RO_COLS ? &rc->o.cols : &rc->o.rows) = (unsigned)n;
		return 0;
	case RO_PTY:
		rc->o.pty = true;
		return 0;
	case RO_RESUME:
		rc->resume = true;
		return 0;
	case RO_JSON:
		rc->json = true;
		return 0;
	case RO_KEEP:
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno != 0 || end == v || *end != '\0' || n < 0 ||
		    n > 1000000) {
			*why = xasprintf("--keep wants a whole number from 0 to "
			    "1000000, not '%s'", v);
			return -1;
		}
		rc->keep.count = n;
		return 0;
	case RO_KEEP_DAYS:
		errno = 0;
		days = strtod(v, &end);
		if (errno != 0 || end == v || *end != '\0' || !isfinite(days) ||
		    days < 0 || days > 36500) {
			*why = xasprintf("--keep-days wants days from 0 to 36500, "
			    "not '%s'", v);
			return -1;
		}
		rc->keep.max_age_ms = (long long)(days * RUN_DAY_MS);
		return 0;
	case RO_PRUNE:
		rc->prune = true;
		return 0;
	case RO_HELP:
		break;
	}
	return 0;
}

/* 1: help asked; 0: parsed; -1: bad usage with *why. */
static int
parse(struct run_cli *rc, int argc, char **argv, char **why)
{
	size_t i;
	int k;

	for (k = 0; k < argc && strncmp(argv[k], "-", 1) == 0; k++) {
		if (strcmp(argv[k], "--") == 0) {
			k++;
			break;
		}
		for (i = 0; i < sizeof run_opts / sizeof run_opts[0]; i++) {
			if (strcmp(argv[k], run_opts[i].name) == 0)
				break;
		}
		if (i == sizeof run_opts / sizeof run_opts[0]) {
			*why = xasprintf("unknown option '%s'", argv[k]);
			return -1;
		}
		if (run_opts[i].opt == RO_HELP)
			return 1;
		if (run_opts[i].value && k + 1 >= argc) {
			*why = xasprintf("%s needs a value", argv[k]);
			return -1;
		}
		if (take(rc, run_opts[i].opt, argv[k], run_opts[i].value ?
		    argv[k + 1] : NULL, why) != 0)
			return -1;
		k += run_opts[i].value;
	}
	if (rc->prune) {
		if (k < argc) {
			*why = xasprintf("--prune takes no COMMAND ('%s')",
			    argv[k]);
			return -1;
		}
		return 0;
	}
	if (k >= argc) {
		*why = xstrdup(rc->backend == NULL ||
		    strcmp(rc->backend, "generic") == 0 ? "missing COMMAND" :
		    "missing PROMPT");
		return -1;
	}
	rc->o.argv = (const char *const *)(argv + k);
	if (!rc->no_output_set)
		rc->o.no_output_timeout_ms = run_watchdog_ms(rc->o.timeout_ms,
		    rc->resume);
	return 0;
}

/* A log as a JSON string, at most RUN_JSON_OUTPUT_MAX bytes of it. */
static json_t *
log_text(const char *run_id, const char *name, bool *cut)
{
	struct aiterm_error err = ERROR_INIT;
	char *path = run_path(run_id, name), *data = NULL;
	size_t len = 0;
	json_t *s;

	if (file_read(path, &data, &len, &err) != 0)
		error_clear(&err);
	free(path);
	if (len > RUN_JSON_OUTPUT_MAX) {
		len = RUN_JSON_OUTPUT_MAX;
		*cut = true;
	}
	s = json_stringn_nocheck(data != NULL ? data : "", len);
	if (s == NULL || !json_is_string(s))
		s = json_string("");
	free(data);
	return s;
}

/* A new session id, a UUID v4 as Claude Code's --session-id wants. */
static void
new_uuid(char *out, size_t size)
{
	char h[33];

	session_random_hex(h, 32);
	h[32] = '\0';
	h[12] = '4';
	h[16] = "89ab"[h[16] % 4];
	snprintf(out, size, "%.8s-%.4s-%.4s-%.4s-%.12s", h, h + 8, h + 12,
	    h + 16, h + 20);
}

/* The words joined by blanks: a prompt (malloc'd). */
static char *
join(const char *const *words)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;

	for (i = 0; words[i] != NULL; i++) {
		if (i > 0)
			buf_addc(&b, ' ');
		buf_adds(&b, words[i]);
	}
	buf_addc(&b, '\0');
	return buf_steal(&b, NULL);
}

/*
 * The backend's command for the prompt, its session and scope; -1 with
 * err.  The generic backend runs the words as they are.
 */
static int
prepare(struct run_cli *rc, const struct backend *b, char ***argv,
    struct aiterm_error *err)
{
	const char *sid = rc->session_id;

	rc->o.backend = b->id;
	if (*b->command == '\0') {
		if (rc->session_id != NULL || rc->model != NULL)
			return error_set(err, "the generic backend takes no "
			    "--session-id or --model");
		return 0;
	}
	rc->prompt = join(rc->o.argv);
	if (b->session == SESSION_ALWAYS && sid == NULL && !rc->resume) {
		new_uuid(rc->new_session, sizeof rc->new_session);
		sid = rc->new_session;
	}
	if (backend_argv(b, rc->prompt, rc->model, sid, rc->resume, argv,
	    err) != 0)
		return -1;
	rc->o.argv = (const char *const *)*argv;
	rc->o.input = b->input == BACKEND_INPUT_STDIN ? rc->prompt : NULL;
	if (rc->o.input != NULL && rc->o.pty)
		return error_set(err, "backend %s reads its prompt on stdin, "
		    "which --pty does not give it", b->id);
	rc->o.session_id = sid;
	rc->o.keep_stdout = b->output != BACKEND_TEXT;
	if (rc->o.scope == NULL && sid != NULL) {
		snprintf(rc->scope, sizeof rc->scope, "cli:%s:%s", b->id, sid);
		rc->o.scope = rc->scope;
	}
	return 0;
}

/* Read the output as the backend says; the session id into the record. */
static int
read_result(const struct backend *b, struct run_record *rec,
    struct backend_result *res, struct aiterm_error *err)
{
	char *path = run_path(rec->run_id, "stdout.log"), *data = NULL;
	size_t len = 0;
	int rc;

	rc = file_read(path, &data, &len, err);
	free(path);
	if (rc == 0)
		rc = backend_parse(b, data != NULL ? data : "", len, res, err);
	free(data);
	if (rc == 0 && rec->session_id[0] == '\0' && res->session_id != NULL) {
		snprintf(rec->session_id, sizeof rec->session_id, "%s",
		    res->session_id);
		run_record_write(rec, err);
		error_clear(err);
	}
	return rc;
}

static int
exit_status(const struct run_record *r, int signum)
{
	switch (r->reason) {
	case RUN_REASON_OVERALL_TIMEOUT:
	case RUN_REASON_NO_OUTPUT_TIMEOUT:
		return CLI_EXIT_INCOMPLETE;
	case RUN_REASON_MANUAL_CANCEL:
	case RUN_REASON_REPLACED:
		return 128 + (signum != 0 ? signum : 15);
	default:
		break;
	}
	if (r->exit_signal != 0)
		return 128 + r->exit_signal;
	return r->has_exit_code ? r->exit_code & 0xff : 1;
}

static void
report(const struct run_cli *rc, const struct run_record *r,
    const struct backend_result *res)
{
	json_t *j;
	bool cut = false;

	if (res != NULL && !rc->json && res->text != NULL) {
		fputs(res->text, stdout);
		if (*res->text != '\0' &&
		    res->text[strlen(res->text) - 1] != '\n')
			fputc('\n', stdout);
		fflush(stdout);
	}
	if (rc->json) {
		j = run_record_to_json(r);
		if (res != NULL)
			json_object_set_new(j, "result", json_pack("{s:s?, "
			    "s:s?, s:O?}", "text", res->text, "session_id",
			    res->session_id, "usage", res->usage));
		json_object_set_new(j, "stdout", log_text(r->run_id,
		    "stdout.log", &cut));
		json_object_set_new(j, "stderr", log_text(r->run_id,
		    "stderr.log", &cut));
		json_object_set_new(j, "output_truncated", json_boolean(cut));
		json_dumpf(j, stdout, JSON_INDENT(2));
		fputc('\n', stdout);
		json_decref(j);
		return;
	}
	if (r->reason == RUN_REASON_EXIT && r->leftovers_killed == 0)
		return;
	if (r->reason == RUN_REASON_SPAWN_ERROR) {
		fprintf(stderr, "aiterm run: %s: spawn-error: %s\n",
		    r->run_id, r->error);
		return;
	}
	fprintf(stderr, "aiterm run: %s: %s after %.1f s", r->run_id,
	    run_reason_name(r->reason),
	    (double)(r->ended_ms - r->started_ms) / 1000.0);
	if (r->leftovers_killed > 0)
		fprintf(stderr, "; %u processes it left were ended",
		    r->leftovers_killed);
	fputc('\n', stderr);
}

/* The state root, or -1 (said on stderr). */
static int
open_root(const char *state_dir)
{
	struct aiterm_error err = ERROR_INIT;
	int rc = 0;

	if (state_root_init(state_dir, &err) != 0 ||
	    state_root_require(&err) != 0) {
		fprintf(stderr, "aiterm run: state root: %s\n", error_msg(&err));
		rc = -1;
	}
	error_clear(&err);
	return rc;
}

/*
 * Remove the records the retention does not keep; with --prune say what
 * was done.  A failure is said and is not the run's.
 */
static int
prune(const struct run_cli *rc)
{
	struct aiterm_error err = ERROR_INIT;
	struct run_pruned p;
	int status = 0;

	if (run_prune(&rc->keep, &p, &err) != 0) {
		fprintf(stderr, "aiterm run: %s\n", error_msg(&err));
		error_clear(&err);
		status = CLI_EXIT_FAILED;
	}
	if (rc->prune)
		printf("removed %u run records; kept %u finished and %u still "
		    "going\n", p.removed, p.kept, p.live);
	return status;
}

int
cli_run(int argc, char **argv, const char *state_dir)
{
	struct run_cli rc;
	struct aiterm_error err = ERROR_INIT;
	struct run_record rec;
	struct backend b;
	struct backend_result res;
	char *why = NULL, **argv_b = NULL;
	bool parsed = false;
	int p, signum = 0, status;

	memset(&rc, 0, sizeof rc);
	memset(&rec, 0, sizeof rec);
	memset(&b, 0, sizeof b);
	memset(&res, 0, sizeof res);
	rc.o.backend = "generic";
	rc.o.timeout_ms = RUN_DEFAULT_TIMEOUT_MS;
	rc.o.grace_ms = RUN_DEFAULT_GRACE_MS;
	rc.o.cols = 120;
	rc.o.rows = 30;
	run_keep_from_env(&rc.keep);
	if ((p = parse(&rc, argc, argv, &why)) != 0) {
		if (p > 0) {
			fputs(run_help, stdout);
			return 0;
		}
		fprintf(stderr, "aiterm run: %s\n(aiterm run --help shows the "
		    "usage)\n", why);
		free(why);
		return CLI_EXIT_USAGE;
	}
	rc.o.passthrough = !rc.json;
	if (rc.prune)
		return open_root(state_dir) != 0 ? CLI_EXIT_FAILED : prune(&rc);
	if (backend_load(rc.backend != NULL ? rc.backend : "generic", &b,
	    &err) != 0 || prepare(&rc, &b, &argv_b, &err) != 0) {
		fprintf(stderr, "aiterm run: %s\n(aiterm run --help shows the "
		    "usage)\n", error_msg(&err));
		error_clear(&err);
		status = CLI_EXIT_USAGE;
		goto out;
	}
	status = CLI_EXIT_FAILED;
	if (open_root(state_dir) != 0)
		goto out;
	prune(&rc);
	if (run_supervise(uv_default_loop(), &rc.o, &rec, &signum,
	    &err) != 0) {
		fprintf(stderr, "aiterm run: %s\n", error_msg(&err));
		error_clear(&err);
		if (rec.run_id[0] == '\0' || rec.state != RUN_EXITED)
			goto out_rec;
	}
	status = exit_status(&rec, signum);
	if (b.output != BACKEND_TEXT && rec.reason != RUN_REASON_SPAWN_ERROR) {
		if (read_result(&b, &rec, &res, &err) != 0) {
			fprintf(stderr, "aiterm run: %s\n", error_msg(&err));
			error_clear(&err);
			if (status == 0)
				status = CLI_EXIT_FAILED;
		} else
			parsed = true;
	}
	fflush(stdout);
	report(&rc, &rec, parsed ? &res : NULL);
	backend_result_free(&res);
out_rec:
	run_record_free(&rec);
out:
	error_clear(&err);
	backend_argv_free(argv_b);
	backend_free(&b);
	free(rc.prompt);
	return status;
}
