#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/image.h"
#include "util/xmalloc.h"

#define HEAD_LEN	12

/*
 * The first bytes of each type the four CLIs all take, and for WebP the
 * form at byte 8 (after "RIFF" and a length).
 */
struct magic {
	const char	*type;
	const char	*bytes;
	size_t		 len;
	const char	*at8;
};

static const struct magic magics[] = {
	{ "png", "\x89PNG\r\n\x1a\n", 8, NULL },
	{ "jpeg", "\xff\xd8\xff", 3, NULL },
	{ "gif", "GIF87a", 6, NULL },
	{ "gif", "GIF89a", 6, NULL },
	{ "webp", "RIFF", 4, "WEBP" },
};

static const char *
image_type(const unsigned char *head, size_t len)
{
	const struct magic *m;
	size_t i;

	for (i = 0; i < sizeof magics / sizeof magics[0]; i++) {
		m = &magics[i];
		if (len >= m->len && memcmp(head, m->bytes, m->len) == 0 &&
		    (m->at8 == NULL || (len >= 8 + strlen(m->at8) &&
		    memcmp(head + 8, m->at8, strlen(m->at8)) == 0)))
			return m->type;
	}
	return NULL;
}

int
agent_image_supported(const struct harness *h, const char *nothing,
    struct aiterm_error *err)
{
	char code[32];

	if (h->abi_minor >= 3 && h->ops->attach_image != NULL)
		return 0;
	harness_code_prefix(h, code, sizeof code);
	return error_set(err, "%s_IMAGE_UNSUPPORTED: the %s harness takes no "
	    "image (its plugin has no attach_image); %s", code, h->id,
	    nothing);
}

/* At most HEAD_LEN first bytes of a regular file: 0, or -1 with errno. */
static int
head_of(const char *path, unsigned char *head, size_t *len)
{
	ssize_t n;
	int fd, saved;

	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) < 0)
		return -1;
	*len = 0;
	do {
		n = read(fd, head + *len, HEAD_LEN - *len);
		if (n > 0)
			*len += (size_t)n;
	} while ((n > 0 && *len < HEAD_LEN) || (n < 0 && errno == EINTR));
	saved = errno;
	close(fd);
	errno = saved;
	return n < 0 ? -1 : 0;
}

int
agent_image_check(const char *path, const char *nothing,
    struct aiterm_error *err)
{
	unsigned char head[HEAD_LEN];
	struct stat st;
	size_t len, i;

	if (path[0] != '/')
		return error_set(err, "image '%.200s' is not an absolute path: "
		    "give the file's absolute path; %s", path, nothing);
	/* It is pasted as one line: a control character would end it. */
	for (i = 0; path[i] != '\0'; i++) {
		if ((unsigned char)path[i] < 0x20 || path[i] == 0x7f)
			return error_set(err, "image '%.200s': its path has a "
			    "control character and cannot be pasted; %s",
			    path, nothing);
	}
	if (stat(path, &st) != 0)
		return error_set(err, "image '%.200s': %s; %s", path,
		    strerror(errno), nothing);
	if (!S_ISREG(st.st_mode))
		return error_set(err, "image '%.200s' is not a regular file; "
		    "%s", path, nothing);
	if (head_of(path, head, &len) != 0)
		return error_set(err, "image '%.200s' is unreadable: %s; %s",
		    path, strerror(errno), nothing);
	if (image_type(head, len) == NULL)
		return error_set(err, "image '%.200s' is not a PNG, JPEG, GIF "
		    "or WebP image (its first bytes are none of them); %s",
		    path, nothing);
	return 0;
}

/* Characters a shell word keeps as they are; any other ASCII is escaped. */
#define WORD_SAFE	"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ" \
			"0123456789/._-+,:@%=~"

/*
 * The path as one shell word.  Seen on Claude Code 2.1.332, Codex 0.171.0
 * and Grok Build 1.0.41: each attaches "/a/my\ pic.png" pasted, and Codex
 * takes "/a/my pic.png" for text.
 */
static char *
shell_word(const char *path)
{
	char *out = xmalloc(2 * strlen(path) + 1), *o = out;
	const unsigned char *p;

	for (p = (const unsigned char *)path; *p != '\0'; p++) {
		if (*p < 0x80 && strchr(WORD_SAFE, *p) == NULL)
			*o++ = '\\';
		*o++ = (char)*p;
	}
	*o = '\0';
	return out;
}

void
agent_images_copy(struct agent_images *dst, const struct agent_images *src)
{
	size_t i;

	dst->n = src->n;
	dst->path = dst->word = NULL;
	if (src->n == 0)
		return;
	dst->path = xcalloc(src->n, sizeof *dst->path);
	dst->word = xcalloc(src->n, sizeof *dst->word);
	for (i = 0; i < src->n; i++) {
		dst->path[i] = xstrdup(src->path[i]);
		dst->word[i] = shell_word(src->path[i]);
	}
}

void
agent_images_free(struct agent_images *im)
{
	size_t i;

	for (i = 0; i < im->n; i++) {
		free(im->path[i]);
		if (im->word != NULL)
			free(im->word[i]);
	}
	free(im->path);
	free(im->word);
	im->path = im->word = NULL;
	im->n = 0;
}

static size_t
steps_len(const struct aiterm_input_step *s)
{
	size_t n = 0;

	while (s[n].kind != AITERM_INPUT_END)
		n++;
	return n;
}

struct aiterm_input_step *
agent_image_steps(const struct harness *h, const struct agent_images *im,
    const struct aiterm_input_step *then)
{
	const struct aiterm_input_step *attach = h->ops->attach_image;
	struct aiterm_input_step *out;
	size_t na, nt, i, k, at = 0;

	if (im->n == 0 || im->word == NULL || h->abi_minor < 3 ||
	    attach == NULL)
		return NULL;
	na = steps_len(attach);
	nt = steps_len(then);
	out = xcalloc(na * im->n + nt + 1, sizeof *out);
	for (i = 0; i < im->n; i++) {
		for (k = 0; k < na; k++, at++) {
			out[at] = attach[k];
			if (out[at].arg == NULL &&
			    (out[at].kind == AITERM_INPUT_TEXT ||
			    out[at].kind == AITERM_INPUT_PASTE))
				out[at].arg = im->word[i];
		}
	}
	memcpy(out + at, then, nt * sizeof *out);
	out[at + nt].kind = AITERM_INPUT_END;
	return out;
}
