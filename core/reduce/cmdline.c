/*
 * RED-CMD: the command words behind an output (see cmd.h).  A small
 * POSIX-shell word splitter: quotes and backslashes are removed, nothing
 * is expanded, redirections and comments are dropped, and the line is cut
 * into simple commands at | || && ; &.  What it does not understand
 * (a subshell, a here-document, an unbalanced quote) gives no command.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reduce/cmd.h"
#include "util/buf.h"
#include "util/xmalloc.h"

#define nitems(a)	(sizeof (a) / sizeof (a)[0])
#define MAX_WORDS	256

/* One simple command, and whether a pipe joins it to the next one. */
struct segment {
	char	**w;
	size_t	 n;
	bool	 piped;
};

struct split {
	struct segment	*seg;
	size_t		 n;
	struct aiterm_buf word;
	bool		 in_word;
};

static void
seg_push_word(struct split *s)
{
	struct segment *g = &s->seg[s->n - 1];

	if (!s->in_word)
		return;
	g->w = xrealloc(g->w, (g->n + 2) * sizeof *g->w);
	g->w[g->n++] = buf_steal(&s->word, NULL);
	g->w[g->n] = NULL;
	s->in_word = false;
}

static void
seg_new(struct split *s)
{
	s->seg = xrealloc(s->seg, (s->n + 1) * sizeof *s->seg);
	memset(&s->seg[s->n], 0, sizeof s->seg[s->n]);
	s->n++;
}

static void
split_free(struct split *s)
{
	size_t i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->seg[i].n; j++)
			free(s->seg[i].w[j]);
		free(s->seg[i].w);
	}
	free(s->seg);
	buf_free(&s->word);
}

/* The word so far is all digits: the fd of a redirection ("2>"). */
static bool
word_is_fd(const struct split *s)
{
	size_t i;

	if (!s->in_word || s->word.len == 0)
		return false;
	for (i = 0; i < s->word.len; i++) {
		if (s->word.data[i] < '0' || s->word.data[i] > '9')
			return false;
	}
	return true;
}

/*
 * Skip a redirection at p ("<", ">", ">>", ">&2", "&>f", "2>/dev/null"):
 * its operator and its target word.  Returns the position after it, or
 * NULL for a here-document.
 */
static const char *
skip_redirect(const char *p)
{
	bool dup;

	if (p[0] == '<' && p[1] == '<')
		return NULL;
	if (*p == '&')
		p++;
	p++;
	if (*p == '>' || *p == '|')
		p++;
	dup = *p == '&';
	if (dup)
		p++;
	while (*p == ' ' || *p == '\t')
		p++;
	if (dup && (*p == '-' || (*p >= '0' && *p <= '9'))) {
		while (*p >= '0' && *p <= '9')
			p++;
		return *p == '-' ? p + 1 : p;
	}
	/*
	 * The target: a plain or quoted word, its quotes not checked.  A LF
	 * or CR ends it, so that the caller sees a second line.  A backslash
	 * escapes the next byte outside single quotes, as the shell reads
	 * it: an escaped quote opens nothing that could hide a LF.
	 */
	while (*p != '\0' && strchr(" \t\n\r|&;<>()", *p) == NULL) {
		if (*p == '\\') {
			if (*++p == '\0')
				return NULL;
		} else if (*p == '\'' || *p == '"') {
			char q = *p++;

			while (*p != '\0' && *p != q) {
				if (q == '"' && *p == '\\' && p[1] != '\0')
					p++;
				p++;
			}
			if (*p == '\0')
				return NULL;
		}
		p++;
	}
	return p;
}

/* A "$(...)" in a word: copied as is, to its matching parenthesis. */
static const char *
copy_subst(struct split *s, const char *p)
{
	int depth = 1;

	buf_add(&s->word, p, 2);
	for (p += 2; *p != '\0' && depth > 0; p++) {
		if (*p == '(')
			depth++;
		else if (*p == ')')
			depth--;
		buf_addc(&s->word, *p);
	}
	return depth == 0 ? p : NULL;
}

static int
split_line(const char *p, struct split *s)
{
	char q;

	seg_new(s);
	while (*p != '\0') {
		if (p[0] == '$' && p[1] == '(') {
			s->in_word = true;
			if ((p = copy_subst(s, p)) == NULL)
				return -1;
			continue;
		}
		if (*p == '\n' || *p == '\r' || *p == '(' || *p == ')' ||
		    *p == '`')
			return -1;
		if (*p == ' ' || *p == '\t') {
			seg_push_word(s);
			p++;
		} else if (*p == '#' && !s->in_word) {
			/* A comment ends at a LF, where a second line starts. */
			if (strpbrk(p, "\n\r") != NULL)
				return -1;
			break;
		} else if (*p == '<' || *p == '>' ||
		    (p[0] == '&' && p[1] == '>')) {
			if (word_is_fd(s)) {
				buf_reset(&s->word);
				s->in_word = false;
			}
			seg_push_word(s);
			if ((p = skip_redirect(p)) == NULL)
				return -1;
		} else if (*p == '|' || *p == '&' || *p == ';') {
			seg_push_word(s);
			s->seg[s->n - 1].piped = p[0] == '|' && p[1] != '|';
			p += (p[1] == p[0] || (p[0] == '|' && p[1] == '&')) ?
			    2 : 1;
			seg_new(s);
		} else if (*p == '\\') {
			if (p[1] == '\0')
				return -1;
			buf_addc(&s->word, p[1]);
			s->in_word = true;
			p += 2;
		} else if (*p == '\'' || *p == '"') {
			q = *p++;
			s->in_word = true;
			while (*p != '\0' && *p != q) {
				if (q == '"' && *p == '\\' && p[1] != '\0' &&
				    strchr("\"\\$`", p[1]) != NULL)
					p++;
				buf_addc(&s->word, *p++);
			}
			if (*p++ == '\0')
				return -1;
		} else {
			buf_addc(&s->word, *p++);
			s->in_word = true;
		}
		if (s->n > MAX_WORDS || (s->n > 0 &&
		    s->seg[s->n - 1].n > MAX_WORDS))
			return -1;
	}
	seg_push_word(s);
	return 0;
}

/* Prefixes: a program run to run another one, and its options with values. */
struct prefix {
	const char	*name;
	const char	*sub;		/* a second word it needs, or NULL */
	const char	*valued;	/* its options that take a value */
	int		 operands;	/* plain words before the command */
};

static const struct prefix prefixes[] = {
	{ "sudo", NULL, "-u -g -C -D -h -p -r -t -U -T", 0 },
	{ "doas", NULL, "-u -C", 0 },
	{ "env", NULL, "-u -C -S --unset --chdir", 0 },
	{ "time", NULL, "-f -o --format --output", 0 },
	{ "nice", NULL, "-n --adjustment", 0 },
	{ "ionice", NULL, "-c -n -p", 0 },
	{ "nohup", NULL, "", 0 },
	{ "command", NULL, "", 0 },
	{ "exec", NULL, "-a", 0 },
	{ "builtin", NULL, "", 0 },
	{ "stdbuf", NULL, "-i -o -e", 0 },
	{ "timeout", NULL, "-k -s --kill-after --signal", 1 },
	{ "unbuffer", NULL, "", 0 },
	{ "npx", NULL, "-p --package -c --call", 0 },
	{ "bunx", NULL, "-p --package", 0 },
	{ "pnpx", NULL, "", 0 },
	{ "uv", "run", "--with --python -p --directory --project --group "
	    "--extra --env-file", 0 },
	{ "uvx", NULL, "--with --from --python", 0 },
	{ "poetry", "run", "-C --directory", 0 },
	{ "pipenv", "run", "", 0 },
	{ "pdm", "run", "", 0 },
	{ "hatch", "run", "", 0 },
	{ "rye", "run", "", 0 },
	{ "pnpm", "exec", "-C --dir --filter", 0 },
	{ "pnpm", "dlx", "", 0 },
	{ "yarn", "exec", "", 0 },
	{ "yarn", "dlx", "-p --package", 0 },
	{ "npm", "exec", "-c --call -w --workspace -p --package", 0 },
	{ "bundle", "exec", "", 0 },
};

/* Filters that show the previous command's lines (when given no file). */
struct filter {
	const char	*name;
	const char	*valued;
	bool		 always;	/* passes stdin on even with files */
};

static const struct filter filters[] = {
	{ "head", "-n -c --lines --bytes", false },
	{ "tail", "-n -c --lines --bytes -s --sleep-interval --pid", false },
	{ "less", "-x -y -b -h -j -z -p -t -o -O", false },
	{ "more", "-n", false },
	{ "cat", "", false },
	{ "tee", "", true },
};

static bool
in_list(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	if (n == 0)
		return false;
	while ((p = strstr(p, word)) != NULL) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' ||
		    p[n] == '\0'))
			return true;
		p += n;
	}
	return false;
}

static const char *
base_name(const char *w)
{
	const char *slash = strrchr(w, '/');

	return slash != NULL && slash[1] != '\0' ? slash + 1 : w;
}

static bool
is_assignment(const char *w)
{
	size_t n = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	    "0123456789_");

	return n > 0 && w[n] == '=' && !(w[0] >= '0' && w[0] <= '9');
}

/*
 * Skip options (and the values of valued ones, unless joined as
 * "--opt=value" or "-uroot") and VAR=value words from w[i].
 */
static size_t
skip_options(char *const *w, size_t n, size_t i, const char *valued)
{
	while (i < n) {
		if (strcmp(w[i], "--") == 0)
			return i + 1;
		if (w[i][0] == '-' && w[i][1] != '\0') {
			i += in_list(valued, w[i]) ? 2 : 1;
			continue;
		}
		if (is_assignment(w[i])) {
			i++;
			continue;
		}
		break;
	}
	return i;
}

/* python / python3 / python3.11 with -m MODULE: MODULE is the program. */
static bool
is_python(const char *w)
{
	return strncmp(w, "python", 6) == 0 &&
	    strspn(w + 6, "0123456789.") == strlen(w + 6);
}

static size_t
skip_prefixes(char *const *w, size_t n)
{
	const struct prefix *pf;
	size_t i = 0, k;
	bool again = true;

	while (again && i < n) {
		again = false;
		while (i < n && is_assignment(w[i]))
			i++;
		if (i >= n)
			break;
		for (k = 0; k < nitems(prefixes); k++) {
			pf = &prefixes[k];
			if (strcmp(base_name(w[i]), pf->name) != 0)
				continue;
			if (pf->sub != NULL && (i + 1 >= n ||
			    strcmp(w[i + 1], pf->sub) != 0))
				continue;
			i = skip_options(w, n, i + (pf->sub != NULL ? 2 : 1),
			    pf->valued);
			i += (size_t)pf->operands;
			again = true;
			break;
		}
		if (!again && i + 2 < n && is_python(base_name(w[i])) &&
		    strcmp(w[i + 1], "-m") == 0) {
			i += 2;
			break;
		}
	}
	return i;
}

/* A pass-through filter: a filter program given no file operand. */
static bool
passes_through(char *const *w, size_t n)
{
	size_t k, i;

	for (k = 0; k < nitems(filters); k++) {
		if (strcmp(base_name(w[0]), filters[k].name) != 0)
			continue;
		i = skip_options(w, n, 1, filters[k].valued);
		return filters[k].always || i >= n;
	}
	return false;
}

char **
red_cmd_argv(const char *line)
{
	struct split s;
	struct segment *g = NULL;
	char **argv = NULL;
	size_t i, first = 0, k;

	if (line == NULL)
		return NULL;
	memset(&s, 0, sizeof s);
	if (split_line(line, &s) != 0)
		goto out;
	/* The last command that has words: "a; b;" and "a &" end in none. */
	for (k = s.n; k > 0; k--) {
		g = &s.seg[k - 1];
		first = skip_prefixes(g->w, g->n);
		if (first < g->n)
			break;
	}
	if (k == 0)
		goto out;
	while (k > 1 && s.seg[k - 2].piped &&
	    passes_through(g->w + first, g->n - first)) {
		k--;
		g = &s.seg[k - 1];
		first = skip_prefixes(g->w, g->n);
		if (first >= g->n)
			goto out;
	}
	argv = xcalloc(g->n - first + 1, sizeof *argv);
	for (i = first; i < g->n; i++)
		argv[i - first] = xstrdup(i == first ? base_name(g->w[i]) :
		    g->w[i]);
out:
	split_free(&s);
	return argv;
}

void
red_cmd_argv_free(char **argv)
{
	size_t i;

	if (argv == NULL)
		return;
	for (i = 0; argv[i] != NULL; i++)
		free(argv[i]);
	free(argv);
}
