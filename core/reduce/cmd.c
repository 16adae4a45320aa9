/* RED-CMD: matching command words to reducer plugins, and running one. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plugin/host.h"
#include "plugin/registry.h"
#include "reduce/cmd.h"
#include "reduce/lines.h"
#include "reduce/shape.h"
#include "util/xmalloc.h"

/* A reducer whose manifest claims the command, and how closely. */
struct candidate {
	const struct plugin_entry	*entry;
	const struct manifest_reducer	*claim;
	size_t				 score;	/* words in the pattern */
	size_t				 order;
};

/*
 * The number of words of pattern when it matches argv, else 0: the first
 * word is argv[0], a word starting with '-' must occur in argv, and the
 * others are the next non-option words of argv, in order.
 */
static size_t
pattern_match(const char *pattern, char *const *argv)
{
	char word[128];
	const char *p = pattern, *sp;
	size_t n, words = 0, next = 1, i;

	while (*p != '\0') {
		sp = strchr(p, ' ');
		n = sp != NULL ? (size_t)(sp - p) : strlen(p);
		if (n >= sizeof word)
			return 0;
		memcpy(word, p, n);
		word[n] = '\0';
		p += n + (sp != NULL ? 1 : 0);
		if (words == 0) {
			if (strcmp(argv[0], word) != 0)
				return 0;
		} else if (word[0] == '-') {
			for (i = 1; argv[i] != NULL; i++) {
				if (strcmp(argv[i], word) == 0)
					break;
			}
			if (argv[i] == NULL)
				return 0;
		} else {
			while (argv[next] != NULL && argv[next][0] == '-')
				next++;
			if (argv[next] == NULL || strcmp(argv[next], word) != 0)
				return 0;
			next++;
		}
		words++;
	}
	return words;
}

/*
 * Listings (RED-FAITHFUL): their reducers keep every row up to
 * RED_CMD_LISTING_FACTOR times the line budget, and beyond that say which
 * rows they left out.  Patterns as in manifests.
 */
static const char *const listing_patterns[] = {
	"ls", "ll", "dir", "find", "fd", "fdfind", "locate", "tree", "du",
	"df", "ps", "pstree", "lsof", "ss", "netstat", "mount", "lsblk",
	"docker ps", "docker container ls", "docker images", "docker image ls",
	"kubectl get", "git ls-files", "git branch", "git tag", "dpkg -l",
	"dpkg-query -l", "apt list", "pip list", "pip3 list", "npm ls",
	"systemctl list-units", "grep -l", "grep -L", "rg -l", "rg --files",
	"tar",
};

/*
 * Help asked for, of any command ("gcc --help=warnings"): a listing of
 * options or subcommands, read for the one a person looks up.  An
 * argument equal to a word here, or starting with it when it ends in '='.
 */
static const char *const help_words[] = { "--help", "--help=" };

static bool
asks_help(char *const *argv)
{
	size_t i, k, n;

	for (i = 1; argv[i] != NULL; i++) {
		for (k = 0; k < sizeof help_words / sizeof help_words[0]; k++) {
			n = strlen(help_words[k]);
			if (help_words[k][n - 1] == '=' ?
			    strncmp(argv[i], help_words[k], n) == 0 :
			    strcmp(argv[i], help_words[k]) == 0)
				return true;
		}
	}
	return false;
}

static bool
listing(char *const *argv)
{
	size_t i;

	for (i = 0; i < sizeof listing_patterns / sizeof listing_patterns[0];
	    i++) {
		if (pattern_match(listing_patterns[i], argv) > 0)
			return true;
	}
	return asks_help(argv);
}

static int
candidate_cmp(const void *a, const void *b)
{
	const struct candidate *x = a, *y = b;

	if (x->score != y->score)
		return x->score > y->score ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static size_t
find_candidates(char *const *argv, struct candidate **out)
{
	const struct plugin_entry *e;
	struct candidate *c = NULL;
	size_t i, j, n = 0, score, best;
	char **pat;

	for (i = 0; i < registry_count(); i++) {
		e = registry_entry(i);
		if (!e->loaded || e->kind != AITERM_KIND_REDUCER)
			continue;
		for (j = 0; j < e->nreducers; j++) {
			best = 0;
			for (pat = e->reducers[j].commands; *pat != NULL;
			    pat++) {
				score = pattern_match(*pat, argv);
				if (score > best)
					best = score;
			}
			if (best == 0)
				continue;
			c = xrealloc(c, (n + 1) * sizeof *c);
			c[n].entry = e;
			c[n].claim = &e->reducers[j];
			c[n].score = best;
			c[n].order = n;
			n++;
		}
	}
	/* qsort must not be given NULL, even for no elements. */
	if (n > 1)
		qsort(c, n, sizeof *c, candidate_cmp);
	*out = c;
	return n;
}

static const struct aiterm_reducer *
table_entry(const struct plugin_entry *e, const char *name)
{
	const struct aiterm_reducer_ops *ops = e->plugin->ops;
	const struct aiterm_reducer *r;

	for (r = ops->reducers; r->name != NULL; r++) {
		if (strcmp(r->name, name) == 0)
			return r;
	}
	return NULL;
}

/*
 * A reducer's result longer than max bytes keeps its first lines (two
 * fifths of it) and its last ones, one line between saying how many went
 * (the read's last line names the whole output's lines).  Whether it cut.
 */
static bool
cut_to(struct aiterm_buf *b, size_t max)
{
	struct aiterm_buf keep = BUF_INIT;
	size_t room, head = 0, tail, n = 0, i;
	char mark[96];
	int mlen;

	if (max == 0 || b->len <= max || max < 2 * sizeof mark)
		return false;
	room = max - sizeof mark;
	for (i = 0; i < b->len && i < room * 2 / 5; i++) {
		if (b->data[i] == '\n')
			head = i + 1;
	}
	tail = b->len;
	for (i = b->len - 1; i > head && b->len - i <= room - head; i--) {
		if (b->data[i - 1] == '\n')
			tail = i;
	}
	for (i = head; i < tail; i++)
		n += b->data[i] == '\n';
	if (n == 0)
		return false;
	mlen = snprintf(mark, sizeof mark, "[… %zu lines of this summary left "
	    "out]\n", n);
	buf_add(&keep, b->data, head);
	buf_add(&keep, mark, (size_t)mlen);
	buf_add(&keep, b->data + tail, b->len - tail);
	buf_free(b);
	*b = keep;
	return true;
}

int
red_cmd_reduce(const char *line, const char *text, size_t len,
    int exit_code, size_t max_lines, struct aiterm_buf *out,
    struct red_cmd_result *res)
{
	return red_cmd_reduce_within(line, text, len, exit_code, max_lines, 0,
	    out, res);
}

int
red_cmd_reduce_within(const char *line, const char *text, size_t len,
    int exit_code, size_t max_lines, size_t max_bytes,
    struct aiterm_buf *out, struct red_cmd_result *res)
{
	struct aiterm_reduce_input in;
	const struct aiterm_reducer *r;
	struct candidate *c = NULL;
	struct aiterm_buf tmp = BUF_INIT;
	struct red_faithful faith;
	char **argv;
	size_t n, i;
	int rc = -1, got;
	unsigned flags;
	bool cut;

	memset(res, 0, sizeof *res);
	if ((argv = red_cmd_argv(line)) == NULL)
		return -1;
	n = find_candidates(argv, &c);
	memset(&in, 0, sizeof in);
	in.text = text;
	in.len = len;
	in.command = line;
	in.argv = (const char *const *)argv;
	in.exit_code = exit_code;
	flags = 0;
	if (listing(argv)) {
		if (max_lines > 0)
			max_lines *= RED_CMD_LISTING_FACTOR;
		flags = max_lines == 0 || red_line_count(text, len) <=
		    max_lines ? RED_FAITHFUL_LISTING : RED_FAITHFUL_FAR;
	}
	in.max_lines = max_lines;
	if (flags == RED_FAITHFUL_FAR && (max_bytes == 0 ||
	    max_bytes > RED_CMD_FAR_BYTES))
		max_bytes = RED_CMD_FAR_BYTES;
	in.max_bytes = max_bytes;
	for (i = 0; i < n && rc != 0; i++) {
		r = table_entry(c[i].entry, c[i].claim->name);
		if (r == NULL)
			continue;
		buf_reset(&tmp);
		got = r->reduce(host_get(), &in, &tmp);
		if (got < 0)
			continue;
		/* RED-FAITHFUL: shorter, and within the budget, or nothing. */
		if (tmp.len >= len || (max_lines > 0 &&
		    red_line_count(buf_str(&tmp), tmp.len) > max_lines)) {
			snprintf(res->refused, sizeof res->refused, "%s",
			    r->name);
			res->refused_why = tmp.len >= len ? "not shorter" :
			    "over the line budget";
			break;
		}
		/*
		 * Within max_bytes by its head and tail, a listing's rows then
		 * left out (said by the cut's line); RED-FAITHFUL: what must
		 * be held still is (reduce/shape.h).
		 */
		cut = cut_to(&tmp, max_bytes);
		if (max_bytes > 0 && tmp.len > max_bytes) {
			snprintf(res->refused, sizeof res->refused, "%s",
			    r->name);
			res->refused_why = "over the byte budget";
			continue;
		}
		if (!red_faithful(text, len, buf_str(&tmp), tmp.len, cut &&
		    flags != 0 ? RED_FAITHFUL_FAR : flags, &faith)) {
			snprintf(res->refused, sizeof res->refused, "%s",
			    r->name);
			res->refused_why = "left out a line it must keep";
			res->refused_line = faith.first_missing;
			continue;
		}
		buf_add(out, buf_str(&tmp), tmp.len);
		snprintf(res->name, sizeof res->name, "%s", r->name);
		snprintf(res->version, sizeof res->version, "%s", r->version);
		snprintf(res->plugin, sizeof res->plugin, "%s",
		    c[i].entry->name);
		res->lossless = got == 1 && !cut;
		rc = 0;
	}
	/*
	 * RED-FAITHFUL: a listing within its budget that no reducer could
	 * shorten keeps every row: it goes whole, not to the generic head
	 * and tail, whose budget is a read's, not a listing's.
	 */
	if (rc != 0 && flags == RED_FAITHFUL_LISTING && max_lines > 0 &&
	    len > 0 && (max_bytes == 0 || len <= max_bytes)) {
		buf_add(out, text, len);
		snprintf(res->name, sizeof res->name, "%s", RED_CMD_WHOLE);
		snprintf(res->version, sizeof res->version, "%s",
		    PACKAGE_VERSION);
		res->lossless = true;
		rc = 0;
	}
	buf_free(&tmp);
	free(c);
	red_cmd_argv_free(argv);
	return rc;
}
