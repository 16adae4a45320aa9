/*
 * An example reducer plugin, built out of tree against the installed
 * aiterm-plugin.pc (see doc/reducers.md):
 *
 *	cc $(pkg-config --cflags aiterm-plugin) -std=c11 -fPIC -shared \
 *	    -o example_seq.so seq-range.c
 *
 * It claims `seq` (see example-seq.yaml) and turns a long run of numbers,
 * one per line, into its first and last lines with the count between:
 * what `seq 1 100000` prints is 100000 lines, and what the AI needs is
 * "1 … 100000".  Anything that is not one number per line is declined,
 * so the core's generic stages run instead.
 */
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#include <aiterm/plugin.h>

/* Plain decimal, maybe signed, maybe with a fraction ("seq 0 0.5 2"). */
static bool
is_number(const char *p, size_t len)
{
	size_t i = 0, digits = 0;

	if (i < len && (p[i] == '-' || p[i] == '+'))
		i++;
	for (; i < len; i++) {
		if (p[i] >= '0' && p[i] <= '9')
			digits++;
		else if (p[i] != '.')
			return false;
	}
	return digits > 0;
}

static int
seq_reduce(const struct aiterm_host *h, const struct aiterm_reduce_input *in,
    struct aiterm_buf *out)
{
	const char *p = in->text, *end = in->text + in->len, *nl;
	const char *first = NULL, *last = NULL;
	size_t first_len = 0, last_len = 0, n = 0, len;

	while (p < end) {
		nl = memchr(p, '\n', (size_t)(end - p));
		len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
		if (!is_number(p, len))
			return -1;
		if (first == NULL) {
			first = p;
			first_len = len;
		}
		last = p;
		last_len = len;
		n++;
		p += len + (nl != NULL ? 1 : 0);
	}
	if (n < 3)
		return -1;
	h->buf_add(out, first, first_len);
	h->buf_printf(out, "\n[… %zu more numbers]\n", n - 2);
	h->buf_add(out, last, last_len);
	h->buf_add(out, "\n", 1);
	return 0;
}

static const struct aiterm_reducer reducers[] = {
	{ "seq-range", "1.0.0", seq_reduce },
	{ NULL, NULL, NULL },
};

static const struct aiterm_reducer_ops ops = { reducers };

static const struct aiterm_plugin plugin = {
	.abi_major = AITERM_ABI_MAJOR,
	/* The ABI it was written for: its manifest's abi says the same. */
	.abi_minor = 5,
	.kind = AITERM_KIND_REDUCER,
	.name = "example-seq",
	.version = "1.0.0",
	.ops = &ops,
};

const struct aiterm_plugin *
aiterm_plugin_describe(void)
{
	return &plugin;
}
