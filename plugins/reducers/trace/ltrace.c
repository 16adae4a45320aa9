/*
 * ltrace: the library calls that failed or returned an error value (-1,
 * 0xffffffff, or a null pointer from a call that returns one on failure:
 * fopen, malloc, opendir ...), the calls that print the program's own
 * messages or report an error (printf, fprintf, puts, perror, strerror,
 * exit ...) and every line that is no call (the program's output written
 * into the middle of a call's line, ") = 57", "+++ exited (status 1)
 * +++") stay; each run of other calls becomes one line counting them by
 * name (calls.c).
 */
#include <string.h>

#include "calls.h"

/* Calls that always stay: output, error reports, the process's end. */
static const char *const lt_keep[] = {
	"printf(", "fprintf(", "vprintf(", "vfprintf(", "dprintf(",
	"__printf_chk(", "__fprintf_chk(", "__vfprintf_chk(", "puts(",
	"fputs(", "fwrite(", "write(1,", "write(2,", "perror(", "strerror(",
	"err(", "errx(", "warn(", "warnx(", "error(", "syslog(", "exit(",
	"_exit(", "abort(", "system(", "execl(", "execv(", "execvp(",
	"execve(", "fork(", "SYS_write(1,", "SYS_write(2,", "SYS_exit",
	NULL,
};

/* Calls whose null pointer (0, nil) means they failed. */
static const char *const lt_nullfail[] = {
	"fopen", "fdopen", "freopen", "fopen64", "opendir", "fdopendir",
	"popen", "tmpfile", "malloc", "calloc", "realloc", "strdup",
	"strndup", "dlopen", "dlsym", "getpwnam", "getpwuid", "getgrnam",
	"mmap", "realpath", "fgets", "readdir", "gethostbyname", NULL,
};

static bool
ret_is(struct rl_line ret, const char *v)
{
	size_t n = strlen(v);

	return ret.len >= n && memcmp(ret.p, v, n) == 0 && (ret.len == n ||
	    ret.p[n] == ' ');
}

static bool
lt_failed(struct rl_line c, struct rl_line name, struct rl_line ret)
{
	size_t i;

	(void)c;
	if (ret_is(ret, "-1") || ret_is(ret, "0xffffffff") ||
	    ret_is(ret, "0xffffffffffffffff"))
		return true;
	if (!ret_is(ret, "0") && !ret_is(ret, "nil") && !ret_is(ret, "NULL"))
		return false;
	for (i = 0; lt_nullfail[i] != NULL; i++)
		if (name.len == strlen(lt_nullfail[i]) &&
		    memcmp(name.p, lt_nullfail[i], name.len) == 0)
			return true;
	return false;
}

static const struct tr_calls lt_spec = { lt_failed, lt_keep };

int
red_ltrace(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	struct rl_lines t;
	int rc;

	/* ltrace -c's table is a summary already. */
	if (tr_summary_asked(in->argv, "aAeEDFlnopsuwxLT") ||
	    !rl_split(in, &t))
		return -1;
	rc = tr_calls_reduce(h, in, out, &t, &lt_spec, NULL);
	rl_lines_free(&t);
	return rc;
}
