#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/lastwords.h"
#include "plugin/host.h"
#include "pty/session.h"
#include "reduce/strip.h"
#include "util/buf.h"

/* How much of the log's end is read, and how many lines are kept. */
#define TAIL_READ	8192
#define TAIL_LINES	6

/* The start of the last line that begins with "Error" or "error", or NULL. */
static const char *
last_error_line(const char *text, size_t len)
{
	const char *found = NULL, *p = text, *end = text + len, *nl;

	while (p < end) {
		if ((size_t)(end - p) >= 5 && (memcmp(p, "Error", 5) == 0 ||
		    memcmp(p, "error", 5) == 0))
			found = p;
		nl = memchr(p, '\n', (size_t)(end - p));
		if (nl == NULL)
			break;
		p = nl + 1;
	}
	return found;
}

/* The last TAIL_READ bytes of path into raw (a long log is not read). */
static int
read_end(const char *path, struct aiterm_buf *raw)
{
	char chunk[TAIL_READ];
	struct stat st;
	ssize_t n;
	off_t from;
	int fd;

	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -1;
	if (fstat(fd, &st) != 0) {
		close(fd);
		return -1;
	}
	from = st.st_size > TAIL_READ ? st.st_size - TAIL_READ : 0;
	n = pread(fd, chunk, sizeof chunk, from);
	close(fd);
	if (n < 0)
		return -1;
	buf_add(raw, chunk, (size_t)n);
	return 0;
}

void
agent_last_words(const char *session, char *out, size_t size)
{
	struct aiterm_buf raw = BUF_INIT, text = BUF_INIT;
	char *log = session_path(session, "output.log");
	size_t end, start;
	unsigned lines = 0;
	const char *err;

	out[0] = '\0';
	if (log == NULL || read_end(log, &raw) != 0)
		goto out;
	red_strip(raw.data, raw.len, &text);
	end = text.len;
	while (end > 0 && strchr(" \n\t", text.data[end - 1]) != NULL)
		end--;
	/* An error line says more than a backtrace after it. */
	if ((err = last_error_line(text.data, end)) != NULL) {
		start = (size_t)(err - text.data);
		for (end = start, lines = 0; end < text.len && lines < 3 &&
		    end - start < size - 1; end++)
			lines += text.data[end] == '\n';
		while (end > start && strchr(" \n\t", text.data[end - 1]))
			end--;
		snprintf(out, size, "%.*s", (int)(end - start), err);
		goto out;
	}
	start = end;
	while (start > 0 && lines < TAIL_LINES && end - start < size - 1) {
		start--;
		if (text.data[start] == '\n' && start + 1 < end &&
		    text.data[start + 1] != '\n')
			lines++;
	}
	while (start < end && text.data[start] == '\n')
		start++;
	if (end - start >= size)
		start = end - (size - 1);
	snprintf(out, size, "%.*s", (int)(end - start), text.data + start);
out:
	free(log);
	buf_free(&raw);
	buf_free(&text);
}

const char *
agent_named_end(const struct harness *h, const char *words)
{
	struct aiterm_screen_verdict v;
	struct aiterm_screen scr;

	if (words == NULL || *words == '\0')
		return NULL;
	memset(&scr, 0, sizeof scr);
	memset(&v, 0, sizeof v);
	scr.text = words;
	scr.len = strlen(words);
	h->ops->classify(&scr, &v);
	return v.state == AITERM_SCREEN_EXITED ? v.reason : NULL;
}
