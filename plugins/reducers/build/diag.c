/*
 * make, ninja, cmake and C/C++ compilers: the diagnostics and make's own
 * errors, without the compiler command lines, directory chatter, configure
 * checks and caret lines, and with a closing count of errors and warnings.
 *
 * - Compiler and linker command lines ("cc -O2 ... -c -o x.o x.c",
 *   automake's "  CC  x.o", ninja's "[3/9] Building C object ...",
 *   cmake's "[ 42%] Linking C executable x"), make's "Entering/Leaving
 *   directory" lines and cmake's configure checks ("-- Detecting C compile
 *   features - done") are left out; "-- Found ...", "CMake Warning" and
 *   every other "-- " line are kept.  Command lines stay when the user
 *   asked for them (V=1, VERBOSE=1, --verbose, -v).  A compiler command
 *   that links ("-o prog" without "-c") stays: it names what was built.
 *   A command that failed stays whole, its flags being what an error is
 *   often about (-std=c11 hiding clock_gettime): the one after ninja's
 *   "FAILED: x.o".
 * - Every "file:line:col: error|warning|note:" line is kept, with the
 *   source line under it ("  196 |  code"); the caret and fix-it lines
 *   ("      |   ^~~~") are left out.  "In function", "In file included
 *   from", "make: *** [...] Error 1", linker errors and every line this
 *   reducer does not know are kept.
 * - The last line says how many errors and warnings there were and what
 *   was left out: "(1 error, 3 warnings; +3 commands, +7 caret lines)".
 * Output with nothing to leave out is declined (the generic stages keep
 * it as it is).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build.h"

/* Programs whose command lines make echoes. */
static const char *const cd_programs[] = {
	"cc", "gcc", "g++", "c++", "clang", "clang++", "ld", "ar", "ranlib",
	"as", "libtool", "nasm", "cpp", NULL,
};

/* automake's silent-rule tags ("  CC       core/x.lo"). */
static const char *const cd_tags[] = {
	"CC", "CCLD", "CXX", "CXXLD", "AR", "LD", "GEN", "RANLIB", "CPP",
	"AS", "FC", NULL,
};

/* cmake --build's progress lines ("[ 42%] Building C object x.o"). */
static const char *const cm_progress[] = {
	"Building ", "Linking ", "Built target ", "Scanning dependencies ",
	"Generating ", NULL,
};

/* cmake's configure checks ("-- Detecting C compile features - done"). */
static const char *const cm_checks[] = {
	"-- The C compiler identification ",
	"-- The CXX compiler identification ", "-- Detecting ",
	"-- Check for ", "-- Checking ", "-- Performing Test ",
	"-- Looking for ", "-- Configuring done", "-- Generating done", NULL,
};

/* Diagnostic kinds, as gcc and clang print them. */
static const struct cd_kind {
	const char	*marker;
	int		 count;		/* 1 error, 2 warning, 0 neither */
} cd_kinds[] = {
	{ ": fatal error: ", 1 },
	{ ": error: ", 1 },
	{ ": warning: ", 2 },
	{ ": note: ", 0 },
	{ NULL, 0 },
};

struct cd_tally {
	size_t	errors, warnings, commands, chatter, carets, checks;
};

static bool
in_list(const char *p, size_t n, const char *const *list)
{
	size_t i;

	for (i = 0; list[i] != NULL; i++) {
		if (strlen(list[i]) == n && memcmp(list[i], p, n) == 0)
			return true;
	}
	return false;
}

static bool
starts_any(const struct rl_line *l, const char *const *list)
{
	size_t i;

	for (i = 0; list[i] != NULL; i++) {
		if (rl_starts(l, list[i]))
			return true;
	}
	return false;
}

/* ninja's "[3/9] ..." or cmake's "[ 42%] Building ...". */
static bool
progress_line(struct rl_line l)
{
	const char *p = l.p + 1, *end = l.p + l.len;
	size_t n;

	while (p < end && *p == ' ')
		p++;
	if (!rl_number(&p, end, &n) || p >= end)
		return false;
	if (*p == '%') {
		if (p + 2 >= end || p[1] != ']' || p[2] != ' ')
			return false;
		l = rl_from(l, (size_t)(p + 3 - l.p));
		return starts_any(&l, cm_progress);
	}
	if (*p++ != '/' || !rl_number(&p, end, &n))
		return false;
	return p + 1 < end && p[0] == ']' && p[1] == ' ';
}

/* The first word of l without directory and "-12" version suffix. */
static bool
command_line(struct rl_line l)
{
	const char *p = l.p, *end = l.p + l.len, *w, *slash;
	struct rl_line t;
	size_t n;

	if (l.len > 0 && l.p[0] == '[')
		return progress_line(l);
	if (l.len > 2 && l.p[0] == ' ' && l.p[1] == ' ') {	/* automake */
		t = rl_trim(l);
		for (n = 0; n < t.len && t.p[n] != ' '; n++)
			;
		return n < t.len && in_list(t.p, n, cd_tags);
	}
	for (w = p; p < end && *p != ' '; p++)
		;
	if (p == end)
		return false;
	slash = w;
	while ((slash = memchr(w, '/', (size_t)(p - w))) != NULL)
		w = slash + 1;
	n = (size_t)(p - w);
	while (n > 0 && ((w[n - 1] >= '0' && w[n - 1] <= '9') ||
	    w[n - 1] == '.'))
		n--;
	if (n > 0 && w[n - 1] == '-' && n < (size_t)(p - w))
		n--;
	/* "x86_64-linux-gnu-gcc": the part after the last '-'. */
	for (slash = w + n; slash > w && slash[-1] != '-'; slash--)
		;
	if (slash > w && in_list(slash, (size_t)(w + n - slash), cd_programs))
		return true;
	return in_list(w, n, cd_programs);
}

/* A compiler command as typed, not automake's tag or a progress line. */
static bool
full_command(struct rl_line l)
{
	return l.len > 0 && l.p[0] != ' ' && l.p[0] != '[' && command_line(l);
}

/*
 * The commands that failed, marked in keep: the one after ninja's (and
 * samurai's) "FAILED: target".  make names no failed command, and with
 * -j the command before an error need not be the one that made it.
 */
static void
failed_commands(const struct rl_lines *t, bool *keep)
{
	size_t i;

	for (i = 0; i + 1 < t->n; i++) {
		if (rl_starts(&t->v[i], "FAILED: ") &&
		    full_command(t->v[i + 1]))
			keep[i + 1] = true;
	}
}

/* "cc ... -o prog a.o b.o -lm": a compiler command without "-c". */
static bool
link_command(struct rl_line l)
{
	return l.len > 0 && l.p[0] != ' ' && l.p[0] != '[' &&
	    rl_has(&l, " -o ") && !rl_has(&l, " -c ");
}

static bool
chatter_line(struct rl_line l)
{
	return (rl_starts(&l, "make") || rl_starts(&l, "gmake")) &&
	    (rl_has(&l, ": Entering directory") ||
	    rl_has(&l, ": Leaving directory"));
}

/* The kind of a diagnostic line, or NULL. */
static const struct cd_kind *
diagnostic(struct rl_line l)
{
	const struct cd_kind *k;
	const char *m;

	if (l.p == NULL || l.len == 0 || l.p[0] == ' ' || l.p[0] == '\t')
		return NULL;
	for (k = cd_kinds; k->marker != NULL; k++) {
		m = memmem(l.p, l.len, k->marker, strlen(k->marker));
		if (m != NULL && m > l.p && memchr(l.p, ' ',
		    (size_t)(m - l.p)) == NULL)
			return k;
	}
	return NULL;
}

/* "  196 |  code" (kept) or "      |   ^~~" (a caret or fix-it line). */
static int
snippet(struct rl_line l)
{
	struct rl_line t = rl_trim(l);
	size_t i;

	if (l.len == 0 || (l.p[0] != ' ' && l.p[0] != '\t'))
		return 0;
	if (rl_starts(&t, "|"))
		return 2;
	for (i = 0; i < t.len && t.p[i] >= '0' && t.p[i] <= '9'; i++)
		;
	if (i > 0 && i + 1 < t.len && t.p[i] == ' ' && t.p[i + 1] == '|')
		return 1;
	for (i = 0; i < t.len; i++) {
		if (t.p[i] != '^' && t.p[i] != '~' && t.p[i] != ' ')
			return 0;
	}
	return t.len > 0 ? 2 : 0;
}

static void
put_tally(const struct aiterm_host *h, struct aiterm_buf *out,
    const struct cd_tally *c)
{
	const char *sep = "; ";

	h->buf_printf(out, "(%zu error%s, %zu warning%s", c->errors,
	    c->errors == 1 ? "" : "s", c->warnings,
	    c->warnings == 1 ? "" : "s");
	if (c->commands > 0) {
		h->buf_printf(out, "%s+%zu commands", sep, c->commands);
		sep = ", ";
	}
	if (c->chatter > 0) {
		h->buf_printf(out, "%s+%zu directory lines", sep, c->chatter);
		sep = ", ";
	}
	if (c->checks > 0) {
		h->buf_printf(out, "%s+%zu configure checks", sep, c->checks);
		sep = ", ";
	}
	if (c->carets > 0)
		h->buf_printf(out, "%s+%zu caret lines", sep, c->carets);
	h->buf_add(out, ")\n", 2);
}

/*
 * The user asked to see the commands (make V=1 or VERBOSE=1, cmake
 * --build --verbose or -v, ninja -v): they stay.
 */
static bool
verbose(const struct aiterm_reduce_input *in)
{
	const char *c = in->command != NULL ? in->command : "";

	return rl_has_opt(in->argv, "--verbose") ||
	    rl_has_opt(in->argv, "-v") || rl_has_opt(in->argv, "V=1") ||
	    strstr(c, "VERBOSE=1") != NULL;
}

int
red_cc_diag(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	const struct cd_kind *k;
	struct rl_lines t;
	struct aiterm_buf *tmp;
	struct cd_tally c;
	struct rl_line l;
	size_t i;
	bool after = false, keep_commands = verbose(in), *failed = NULL;
	int rc = -1, s;

	memset(&c, 0, sizeof c);
	if (!rl_split(in, &t))
		return -1;
	if ((failed = calloc(t.n + 1, sizeof *failed)) == NULL ||
	    (tmp = h->buf_new()) == NULL)
		goto out;
	failed_commands(&t, failed);
	for (i = 0; i < t.n; i++) {
		l = t.v[i];
		if ((k = diagnostic(l)) != NULL) {
			c.errors += k->count == 1 ? 1 : 0;
			c.warnings += k->count == 2 ? 1 : 0;
			after = true;
			rl_put(h, tmp, &l);
			continue;
		}
		if (after && (s = snippet(l)) != 0) {
			if (s == 2)
				c.carets++;
			else
				rl_put(h, tmp, &l);
			continue;
		}
		after = false;
		if (chatter_line(l)) {
			c.chatter++;
			continue;
		}
		if (!keep_commands && !failed[i] && command_line(l) &&
		    !link_command(l)) {
			c.commands++;
			continue;
		}
		if (starts_any(&l, cm_checks)) {
			c.checks++;
			continue;
		}
		rl_put(h, tmp, &l);
	}
	if (c.commands + c.chatter + c.carets + c.checks > 0) {
		put_tally(h, tmp, &c);
		h->buf_add(out, h->buf_data(tmp), h->buf_len(tmp));
		rc = 0;
	}
	h->buf_free(tmp);
out:
	free(failed);
	rl_lines_free(&t);
	return rc;
}
