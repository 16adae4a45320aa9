/*
 * The POSIX and fish eval builders.  Property: the text that reaches the
 * shell equals the text sent.  The line is decoded back here the way the
 * shell and its printf builtin read it (single quotes, then the escapes
 * \n, \t and \ooo) and compared with the text, CRLF taken as LF.  The
 * line must be printable ASCII with no LF, except where split for a
 * canonical-mode terminal into physical lines of at most max_line bytes.
 *
 * The slow check: with AITERM_FUZZ_SHELL set (to dash, bash or zsh),
 * each input's POSIX line also goes through "$AITERM_FUZZ_SHELL -c", its
 * eval turned into printf %s, and the shell's output must be the text.
 * It forks a shell per input: for replaying the corpus (fuzz/run.sh),
 * not for fuzzing.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common.h"
#include "shell/posix-eval.h"
#include "util/xmalloc.h"

#define POSIX_PLAIN_HEAD	"eval \"$(__aiterm_s=$?;printf '"
#define POSIX_PLAIN_TAIL	"';exit $__aiterm_s)\""
#define POSIX_KEEP_HEAD		"__aiterm_eval=$(__aiterm_s=$?;printf '"
#define POSIX_KEEP_TAIL		"_';exit $__aiterm_s);eval \"${__aiterm_eval%_}\""
#define FISH_HEAD		"eval (printf '"
#define FISH_TAIL		"' | string collect -N)"
#define CONTINUATION		"'\\\n'"

/* The text with every CRLF made LF: what the shell should get. */
static void
normalise(const char *text, size_t len, struct aiterm_buf *out)
{
	size_t i;

	for (i = 0; i < len; i++) {
		if (!(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n'))
			buf_addc(out, text[i]);
	}
}

static bool
starts(const char *s, size_t len, const char *prefix)
{
	return len >= strlen(prefix) && memcmp(s, prefix, strlen(prefix)) == 0;
}

static bool
ends(const char *s, size_t len, const char *suffix)
{
	return len >= strlen(suffix) &&
	    memcmp(s + len - strlen(suffix), suffix, strlen(suffix)) == 0;
}

static bool
octal(char c)
{
	return c >= '0' && c <= '7';
}

/*
 * What printf writes for format f[0..len): fails on anything the builder
 * must not write (a quote, a %, a byte outside printable ASCII, another
 * escape).
 */
static void
printf_decode(const char *f, size_t len, bool fish, struct aiterm_buf *out)
{
	size_t i;

	for (i = 0; i < len; i++) {
		fuzz_require(f[i] >= 0x20 && f[i] < 0x7f,
		    "eval: format is printable ASCII");
		fuzz_require(strchr("'%\"$`!()", f[i]) == NULL,
		    "eval: format holds no quote, %, $, `, ! or parenthesis");
		fuzz_require(!(fish && f[i] == ' '), "eval: fish: no space");
		if (f[i] != '\\') {
			fuzz_require(!(out->len == 0 && f[i] == '-'),
			    "eval: format does not start with -");
			buf_addc(out, f[i]);
			continue;
		}
		fuzz_require(i + 1 < len, "eval: no backslash at the end");
		if (f[i + 1] == 'n' || f[i + 1] == 't') {
			buf_addc(out, f[i + 1] == 'n' ? '\n' : '\t');
			i++;
			continue;
		}
		fuzz_require(i + 3 < len && octal(f[i + 1]) && f[i + 1] <= '3' &&
		    octal(f[i + 2]) && octal(f[i + 3]),
		    "eval: a three-digit octal escape");
		buf_addc(out, (char)((f[i + 1] - '0') << 6 |
		    (f[i + 2] - '0') << 3 | (f[i + 3] - '0')));
		i += 3;
	}
}

/* Undo the canonical-mode split, checking the physical lines. */
static void
join_lines(const struct aiterm_buf *line, size_t max_line,
    struct aiterm_buf *out)
{
	const char *p = line->data, *end = line->data + line->len, *nl;
	size_t cl = strlen(CONTINUATION);

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			nl = end;
		fuzz_require((size_t)(nl - p) <= max_line,
		    "eval: physical lines within max_line");
		p = nl + 1;
	}
	for (p = line->data; p < end; p++) {
		if ((size_t)(end - p) >= cl && memcmp(p, CONTINUATION, cl) == 0)
			p += cl - 1;
		else
			buf_addc(out, *p);
	}
	fuzz_require(!fuzz_has(out->data, out->len, '\n'),
	    "eval: a LF only in a continuation");
}

/* Run the line through a real shell, eval made printf %s. */
static void
shell_check(const char *shell, const struct aiterm_buf *line,
    const struct aiterm_buf *want)
{
	struct aiterm_buf script = BUF_INIT, got = BUF_INIT;
	const char *at = NULL, *p;
	char chunk[4096];
	int pfd[2], status;
	ssize_t n;
	pid_t pid;

	for (p = buf_str(line); (p = strstr(p, "eval \"")) != NULL; p++)
		at = p;
	fuzz_require(at != NULL, "eval: the line has an eval");
	buf_add(&script, line->data, (size_t)(at - line->data));
	buf_adds(&script, "printf %s");
	buf_adds(&script, at + strlen("eval"));
	if (pipe(pfd) == -1)
		abort();
	pid = fork();
	if (pid == 0) {
		dup2(pfd[1], STDOUT_FILENO);
		close(pfd[0]);
		close(pfd[1]);
		alarm(10);
		execlp(shell, shell, "-c", buf_str(&script), (char *)NULL);
		_exit(127);
	}
	close(pfd[1]);
	while ((n = read(pfd[0], chunk, sizeof chunk)) > 0)
		buf_add(&got, chunk, (size_t)n);
	close(pfd[0]);
	fuzz_require(pid > 0 && waitpid(pid, &status, 0) == pid &&
	    WIFEXITED(status) && WEXITSTATUS(status) == 0,
	    "eval: the shell ran the line");
	fuzz_require(fuzz_equal(got.data, got.len, want->data, want->len),
	    "eval: the shell got exactly the text");
	buf_free(&script);
	buf_free(&got);
}

static void
check_posix(const char *text, size_t len, size_t max_line,
    const struct aiterm_buf *want)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf line = BUF_INIT, one = BUF_INIT, got = BUF_INIT;
	bool keep = len > 0 && text[len - 1] == '\n';
	const char *head = keep ? POSIX_KEEP_HEAD : POSIX_PLAIN_HEAD;
	const char *tail = keep ? POSIX_KEEP_TAIL : POSIX_PLAIN_TAIL;
	const char *shell = getenv("AITERM_FUZZ_SHELL");
	int rc;

	buf_adds(&line, "x");
	rc = shell_eval_posix(text, len, max_line, &line, &err);
	fuzz_require((rc == -1) == fuzz_has(text, len, '\0'),
	    "eval_posix: refused exactly for a NUL byte");
	if (rc == -1) {
		fuzz_require(line.len == 1, "eval_posix: nothing appended");
		goto out;
	}
	/* Drop the "x" that showed it appends, and keep the NUL after it. */
	memmove(line.data, line.data + 1, line.len);
	line.len--;
	if (max_line == 0) {
		fuzz_require(!fuzz_has(line.data, line.len, '\n'),
		    "eval_posix: no LF in the line");
		buf_add(&one, line.data, line.len);
	} else
		join_lines(&line, max_line, &one);
	fuzz_require(!fuzz_has(one.data, one.len, '\r'),
	    "eval_posix: no CR in the line");
	fuzz_require(starts(one.data, one.len, head) &&
	    ends(one.data, one.len, tail) &&
	    one.len >= strlen(head) + strlen(tail), "eval_posix: the wrapper");
	printf_decode(one.data + strlen(head),
	    one.len - strlen(head) - strlen(tail), false, &got);
	fuzz_require(fuzz_equal(got.data, got.len, want->data, want->len),
	    "eval_posix: decodes to the text");
	if (shell != NULL && *shell != '\0')
		shell_check(shell, &line, want);
out:
	error_clear(&err);
	buf_free(&line);
	buf_free(&one);
	buf_free(&got);
}

static void
check_fish(const char *text, size_t len, const struct aiterm_buf *want)
{
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf line = BUF_INIT, got = BUF_INIT;

	if (shell_eval_fish(text, len, &line, &err) == -1) {
		fuzz_require(fuzz_has(text, len, '\0'),
		    "eval_fish: refused only for a NUL byte");
		fuzz_require(line.len == 0, "eval_fish: nothing appended");
		goto out;
	}
	fuzz_require(!fuzz_has(line.data, line.len, '\n') &&
	    !fuzz_has(line.data, line.len, '\r'),
	    "eval_fish: no LF or CR in the line");
	fuzz_require(starts(line.data, line.len, FISH_HEAD) &&
	    ends(line.data, line.len, FISH_TAIL) &&
	    line.len >= strlen(FISH_HEAD) + strlen(FISH_TAIL),
	    "eval_fish: the wrapper");
	printf_decode(line.data + strlen(FISH_HEAD),
	    line.len - strlen(FISH_HEAD) - strlen(FISH_TAIL), true, &got);
	fuzz_require(fuzz_equal(got.data, got.len, want->data, want->len),
	    "eval_fish: decodes to the text");
out:
	error_clear(&err);
	buf_free(&line);
	buf_free(&got);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct aiterm_buf want = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	struct aiterm_buf junk = BUF_INIT;

	normalise(text, size, &want);
	check_posix(text, size, 0, &want);
	check_posix(text, size, SHELL_EVAL_CANON_LINE_MAX, &want);
	check_posix(text, size, SHELL_EVAL_MIN_LINE +
	    (size > 0 ? data[0] : 0), &want);
	fuzz_require(shell_eval_posix(text, size, SHELL_EVAL_MIN_LINE - 1,
	    &junk, &err) == -1 && junk.len == 0,
	    "eval_posix: max_line below the minimum refused");
	check_fish(text, size, &want);
	error_clear(&err);
	buf_free(&junk);
	buf_free(&want);
	return 0;
}
