/*
 * Reading a session's output log in bounded chunks.  Every call opens the
 * log, takes its size once, and works below that size with pread: scans
 * for LF bytes go through one LOG_CHUNK buffer, and what is returned is
 * read straight into the slice's buffers, allocated to their exact size.
 *
 * A scan forwards jumps over holes (SEEK_DATA): a hole reads as NUL bytes,
 * so it holds no LF.  Where the file system cannot say where data lies,
 * every byte is read.
 */
#include <sys/stat.h>
#include <sys/types.h>

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pty/logread.h"
#include "util/xmalloc.h"

/* An open log, for the length of one call. */
struct log_file {
	const char	*path;
	int		 fd;
	uint64_t	 size;	/* taken at open; nothing beyond it is read */
	char		*chunk;	/* LOG_CHUNK bytes, allocated on first use */
};

static uint64_t
log_min(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

static int
log_open(struct log_file *lf, const char *path, struct aiterm_error *err)
{
	struct stat st;
	int rc = -1;

	lf->path = path;
	lf->size = 0;
	lf->chunk = NULL;
	if ((lf->fd = open(path, O_RDONLY | O_CLOEXEC)) == -1)
		return error_set(err, "cannot open log '%s': %s", path,
		    strerror(errno));
	if (fstat(lf->fd, &st) == -1) {
		error_set(err, "cannot stat log '%s': %s", path,
		    strerror(errno));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		error_set(err, "log '%s' is not a regular file", path);
		goto out_close;
	}
	lf->size = (uint64_t)st.st_size;
	rc = 0;

out_close:
	if (rc == -1) {
		close(lf->fd);
		lf->fd = -1;
	}
	return rc;
}

static void
log_close(struct log_file *lf)
{
	if (lf->fd != -1)
		close(lf->fd);
	lf->fd = -1;
	free(lf->chunk);
	lf->chunk = NULL;
}

static char *
log_chunk(struct log_file *lf)
{
	if (lf->chunk == NULL)
		lf->chunk = xmalloc(LOG_CHUNK);
	return lf->chunk;
}

/* Read exactly len bytes at off; the log ending sooner is an error. */
static int
log_pread(struct log_file *lf, void *buf, size_t len, uint64_t off,
    struct aiterm_error *err)
{
	char *p = buf;
	ssize_t r;

	while (len > 0) {
		r = pread(lf->fd, p, len, (off_t)off);
		if (r == -1 && errno == EINTR)
			continue;
		if (r == -1)
			return error_set(err, "cannot read log '%s': %s", lf->path,
			    strerror(errno));
		if (r == 0)
			return error_set(err, "log '%s' shrank while being read",
			    lf->path);
		p += r;
		off += (uint64_t)r;
		len -= (size_t)r;
	}
	return 0;
}

/*
 * Read len bytes at off into b, allocated to their size and NUL-terminated.
 * Nothing is allocated for len 0.
 */
static int
log_read_buf(struct log_file *lf, struct aiterm_buf *b, uint64_t off,
    size_t len, struct aiterm_error *err)
{
	if (len == 0)
		return 0;
	b->data = xmalloc(len + 1);
	b->cap = len + 1;
	b->len = 0;
	if (log_pread(lf, b->data, len, off, err) == -1) {
		buf_free(b);
		return -1;
	}
	b->len = len;
	b->data[len] = '\0';
	return 0;
}

/* Keep the len bytes of b that start at off. */
static void
log_buf_keep(struct aiterm_buf *b, size_t off, size_t len)
{
	memmove(b->data, b->data + off, len);
	b->len = len;
	b->data[len] = '\0';
}

static uint64_t
log_count_lf(const char *s, size_t len)
{
	const char *end = s + len, *q;
	uint64_t n = 0;

	while (s < end && (q = memchr(s, '\n', (size_t)(end - s))) != NULL) {
		n++;
		s = q + 1;
	}
	return n;
}

/*
 * The first offset in [pos, to) that may hold data, or to.  Where the file
 * system cannot tell, that is pos itself.
 */
static uint64_t
log_next_data(struct log_file *lf, uint64_t pos, uint64_t to)
{
	off_t data;

	data = lseek(lf->fd, (off_t)pos, SEEK_DATA);
	if (data == -1)
		return errno == ENXIO ? to : pos;
	return log_min((uint64_t)data, to);
}

/*
 * Scan [from, to) forwards for LF bytes, stopping just after the want-th
 * (UINT64_MAX: count them all).  *count is the number seen, *end where the
 * scan stopped: just after the want-th LF, or to when there are fewer.
 */
static int
log_scan_forward(struct log_file *lf, uint64_t from, uint64_t to,
    uint64_t want, uint64_t *count, uint64_t *end, struct aiterm_error *err)
{
	const char *p, *q, *lim;
	uint64_t pos = from, n = 0;
	char *chunk;
	size_t len;

	while (pos < to && n < want) {
		if ((pos = log_next_data(lf, pos, to)) == to)
			break;
		len = (size_t)log_min(to - pos, LOG_CHUNK);
		chunk = log_chunk(lf);
		if (log_pread(lf, chunk, len, pos, err) == -1)
			return -1;
		p = chunk;
		lim = chunk + len;
		while (n < want &&
		    (q = memchr(p, '\n', (size_t)(lim - p))) != NULL) {
			n++;
			p = q + 1;
		}
		pos += n < want ? len : (size_t)(p - chunk);
	}
	*count = n;
	*end = n < want ? to : pos;
	return 0;
}

/*
 * Scan [lo, hi) backwards for LF bytes, stopping at the want-th from hi
 * (want >= 1).  *count is the number seen, *start just after the want-th
 * LF, or lo when there are fewer.
 */
static int
log_scan_backward(struct log_file *lf, uint64_t lo, uint64_t hi,
    uint64_t want, uint64_t *count, uint64_t *start, struct aiterm_error *err)
{
	uint64_t pos = hi, base, n = 0;
	char *chunk;
	size_t len, i;

	*start = lo;
	while (pos > lo && n < want) {
		len = (size_t)log_min(pos - lo, LOG_CHUNK);
		base = pos - len;
		chunk = log_chunk(lf);
		if (log_pread(lf, chunk, len, base, err) == -1)
			return -1;
		for (i = len; i > 0 && n < want; i--) {
			if (chunk[i - 1] == '\n' && ++n == want)
				*start = base + i;
		}
		pos = base;
	}
	*count = n;
	return 0;
}

/*
 * The length of s without an incomplete UTF-8 sequence at its end: a lead
 * byte among the last three whose sequence needs more bytes than follow
 * it.  Anything else (ASCII, a complete sequence, invalid bytes) is kept,
 * so invalid input never holds a read back.
 */
static size_t
log_utf8_complete(const unsigned char *s, size_t len)
{
	size_t i, need;
	unsigned char c;

	for (i = 1; i <= 3 && i <= len; i++) {
		c = s[len - i];
		if ((c & 0xC0) == 0x80)
			continue;
		if (c >= 0xF8)
			need = 1;
		else if (c >= 0xF0)
			need = 4;
		else if (c >= 0xE0)
			need = 3;
		else if (c >= 0xC0)
			need = 2;
		else
			need = 1;
		return need > i ? len - i : len;
	}
	return len;
}

/* The number of continuation bytes (at most three) that start s. */
static size_t
log_utf8_continuation(const unsigned char *s, size_t len)
{
	size_t i;

	for (i = 0; i < 3 && i < len && (s[i] & 0xC0) == 0x80; i++)
		continue;
	return i;
}

/* to, moved back before an incomplete UTF-8 sequence ending [from, to). */
static int
log_end(struct log_file *lf, uint64_t from, uint64_t to, uint64_t *end,
    struct aiterm_error *err)
{
	unsigned char last[3];
	size_t n;

	n = (size_t)log_min(to - from, sizeof last);
	if (log_pread(lf, last, n, to - n, err) == -1)
		return -1;
	*end = to - n + log_utf8_complete(last, n);
	return 0;
}

/*
 * Where the head of a truncated range ends, given its first len bytes:
 * just after an LF among the last LOG_LINE_SNAP (and the last half), or
 * else at a character boundary.
 */
static size_t
log_cut_head(const char *s, size_t len)
{
	size_t window = (size_t)log_min(LOG_LINE_SNAP, len / 2), i;

	for (i = len; i > len - window; i--) {
		if (s[i - 1] == '\n')
			return i;
	}
	return log_utf8_complete((const unsigned char *)s, len);
}

/*
 * Where the tail of a truncated range starts in s, which holds the byte
 * before the tail and then the tail's len - 1 bytes: just after an LF
 * among the first LOG_LINE_SNAP (and the first half), or else at a
 * character boundary.
 */
static size_t
log_cut_tail(const char *s, size_t len)
{
	size_t window = (size_t)log_min(LOG_LINE_SNAP, (len - 1) / 2), i;

	for (i = 0; i < window; i++) {
		if (s[i] == '\n')
			return i + 1;
	}
	return 1 + log_utf8_continuation((const unsigned char *)s + 1, len - 1);
}

/* mark when it can be used below limit, otherwise the start of the log. */
static struct log_mark
log_mark_or_start(const struct log_mark *mark, uint64_t limit)
{
	struct log_mark start = { 0, 1 };

	if (mark == NULL || mark->line == 0 || mark->offset > limit)
		return start;
	return *mark;
}

/* The line at offset p (<= the size of the log), counted from mark. */
static int
log_line_at(struct log_file *lf, uint64_t p, const struct log_mark *mark,
    uint64_t *line, struct aiterm_error *err)
{
	struct log_mark m = log_mark_or_start(mark, lf->size);
	uint64_t n, end;

	if (m.offset <= p) {
		if (log_scan_forward(lf, m.offset, p, UINT64_MAX, &n, &end,
		    err) == -1)
			return -1;
		*line = m.line + n;
		return 0;
	}
	if (log_scan_forward(lf, p, m.offset, UINT64_MAX, &n, &end, err) == -1)
		return -1;
	if (n < m.line) {
		*line = m.line - n;
		return 0;
	}
	/* More LFs than the mark has lines before it: not of this log. */
	return log_line_at(lf, p, NULL, line, err);
}

/*
 * The start of line k in [0, end), counted from mark; when the log has
 * fewer lines, end and the line there.
 */
static int
log_line_start(struct log_file *lf, uint64_t k, const struct log_mark *mark,
    uint64_t end, uint64_t *start, uint64_t *line, struct aiterm_error *err)
{
	struct log_mark m = log_mark_or_start(mark, end);
	uint64_t n, pos;

	if (k == 1) {
		*start = 0;
		*line = 1;
		return 0;
	}
	if (k > m.line) {
		/* Line k starts just after the (k - m.line)-th LF from here. */
		if (log_scan_forward(lf, m.offset, end, k - m.line, &n, &pos,
		    err) == -1)
			return -1;
		*start = pos;
		*line = m.line + n;
		return 0;
	}
	/* Line m.line - j starts after the (j + 1)-th LF before the mark. */
	if (log_scan_backward(lf, 0, m.offset, m.line - k + 1, &n, &pos,
	    err) == -1)
		return -1;
	if (n == m.line - k + 1) {
		*start = pos;
		*line = k;
		return 0;
	}
	/* Fewer LFs than the mark has lines before it: not of this log. */
	return log_line_start(lf, k, NULL, end, start, line, err);
}

/*
 * Fill out with [from, to) of the log (to already on a character
 * boundary), keeping head and tail when it is longer than max_bytes.
 * first_line is the line at from; to_line the line at to, or 0 when unknown
 * (the middle left out is then counted).
 */
static int
log_fill(struct log_file *lf, uint64_t from, uint64_t to, size_t max_bytes,
    uint64_t first_line, uint64_t to_line, struct log_slice *out,
    struct aiterm_error *err)
{
	struct aiterm_buf *head = &out->head, *tail = &out->tail;
	uint64_t line_a, line_b, middle, end;
	size_t half, cut;
	int rc = -1;

	out->from = from;
	out->to = to;
	out->first_line = first_line;
	out->size = lf->size;
	if (max_bytes < LOG_MIN_BYTES)
		max_bytes = LOG_MIN_BYTES;
	if (to - from <= max_bytes) {
		if (log_read_buf(lf, head, from, (size_t)(to - from),
		    err) == -1)
			goto out_free;
		out->to_line = first_line + log_count_lf(head->data, head->len);
		rc = 0;
		goto out_free;
	}

	/*
	 * The tail is read with the byte before it, which tells whether its
	 * cut already falls at the start of a line.  The range being longer
	 * than 2 * half, head and tail do not overlap.
	 */
	half = max_bytes / 2;
	if (log_read_buf(lf, head, from, half, err) == -1)
		goto out_free;
	log_buf_keep(head, 0, log_cut_head(head->data, half));
	if (log_read_buf(lf, tail, to - half - 1, half + 1, err) == -1)
		goto out_free;
	cut = log_cut_tail(tail->data, half + 1);
	log_buf_keep(tail, cut, half + 1 - cut);

	/* line_a and line_b are the lines at either end of the middle. */
	line_a = first_line + log_count_lf(head->data, head->len);
	if (to_line != 0)
		line_b = to_line - log_count_lf(tail->data, tail->len);
	else {
		if (log_scan_forward(lf, from + head->len, to - tail->len,
		    UINT64_MAX, &middle, &end, err) == -1)
			goto out_free;
		line_b = line_a + middle;
	}
	out->to_line = line_b + log_count_lf(tail->data, tail->len);
	out->truncated = true;

	/*
	 * Line line_a is left out whole only when the head ends with an LF;
	 * line line_b never is (it starts at or before the tail).
	 */
	out->omitted_first_line = head->data[head->len - 1] == '\n' ?
	    line_a : line_a + 1;
	out->omitted_last_line = line_b - 1;
	if (out->omitted_first_line > out->omitted_last_line)
		out->omitted_first_line = out->omitted_last_line = 0;
	rc = 0;

out_free:
	if (rc == -1)
		log_slice_free(out);
	return rc;
}

int
log_read_range(const char *path, uint64_t from, uint64_t to,
    size_t max_bytes, uint64_t first_line_hint, struct log_slice *out,
    struct aiterm_error *err)
{
	struct log_mark hint = { from, first_line_hint };
	struct log_file lf;
	uint64_t end, line;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (to < from)
		return error_set(err, "invalid byte range %" PRIu64 "-%" PRIu64
		    " of log '%s': the end is before the start", from, to, path);
	if (log_open(&lf, path, err) == -1)
		return -1;
	if (from > lf.size) {
		out->from = out->to = from;
		out->first_line = out->to_line = first_line_hint;
		out->size = lf.size;
		rc = 0;
		goto out_close;
	}
	if (log_end(&lf, from, log_min(to, lf.size), &end, err) == -1 ||
	    log_line_at(&lf, from, &hint, &line, err) == -1 ||
	    log_fill(&lf, from, end, max_bytes, line, 0, out, err) == -1)
		goto out_close;
	rc = 0;

out_close:
	log_close(&lf);
	return rc;
}

int
log_read_lines_mark(const char *path, uint64_t first, uint64_t last,
    size_t max_bytes, const struct log_mark *mark, struct log_slice *out,
    struct aiterm_error *err)
{
	uint64_t end, from, line, to, to_line = 0, n;
	struct log_file lf;
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (first == 0)
		return error_set(err, "invalid line range of log '%s': lines "
		    "are numbered from 1", path);
	if (last != 0 && last < first)
		return error_set(err, "invalid line range %" PRIu64 "-%" PRIu64
		    " of log '%s': the last line is before the first", first,
		    last, path);
	if (log_open(&lf, path, err) == -1)
		return -1;
	if (log_end(&lf, 0, lf.size, &end, err) == -1 ||
	    log_line_start(&lf, first, mark, end, &from, &line, err) == -1)
		goto out_close;
	to = end;
	if (last != 0) {
		/* The range ends just after the LF that ends line last. */
		if (log_scan_forward(&lf, from, end, last - line + 1, &n, &to,
		    err) == -1)
			goto out_close;
		to_line = line + n;
	}
	if (log_fill(&lf, from, to, max_bytes, line, to_line, out, err) == -1)
		goto out_close;
	rc = 0;

out_close:
	log_close(&lf);
	return rc;
}

int
log_read_lines(const char *path, uint64_t first, uint64_t last,
    size_t max_bytes, struct log_slice *out, struct aiterm_error *err)
{
	return log_read_lines_mark(path, first, last, max_bytes, NULL, out,
	    err);
}

int
log_read_tail_lines_mark(const char *path, uint64_t n, size_t max_bytes,
    const struct log_mark *mark, struct log_slice *out,
    struct aiterm_error *err)
{
	uint64_t end, hi, from = 0, found = 0, lfs = 0, line = 1;
	struct log_file lf;
	char last = '\0';
	int rc = -1;

	memset(out, 0, sizeof *out);
	if (log_open(&lf, path, err) == -1)
		return -1;
	if (log_end(&lf, 0, lf.size, &end, err) == -1)
		goto out_close;

	/* An LF at the very end ends the last line; it starts no new one. */
	hi = end;
	if (end > 0 && log_pread(&lf, &last, 1, end - 1, err) == -1)
		goto out_close;
	if (last == '\n')
		hi--;

	if (n == 0)
		from = end;
	else {
		/*
		 * The n-th LF before hi ends the line before the last n, and
		 * the n - 1 after it end n - 1 of them.
		 */
		if (log_scan_backward(&lf, 0, hi, n, &found, &from, err) == -1)
			goto out_close;
		lfs = (found == n ? n - 1 : found) + (hi < end ? 1 : 0);
	}
	if (from > 0 && log_line_at(&lf, from, mark, &line, err) == -1)
		goto out_close;
	if (log_fill(&lf, from, end, max_bytes, line, line + lfs, out,
	    err) == -1)
		goto out_close;
	rc = 0;

out_close:
	log_close(&lf);
	return rc;
}

int
log_read_tail_lines(const char *path, uint64_t n, size_t max_bytes,
    struct log_slice *out, struct aiterm_error *err)
{
	return log_read_tail_lines_mark(path, n, max_bytes, NULL, out, err);
}

int
log_count_lines(const char *path, uint64_t from, uint64_t to,
    uint64_t *lines, struct aiterm_error *err)
{
	struct log_file lf;
	uint64_t end;
	int rc;

	*lines = 0;
	if (log_open(&lf, path, err) == -1)
		return -1;
	to = log_min(to, lf.size);
	rc = from >= to ? 0 :
	    log_scan_forward(&lf, from, to, UINT64_MAX, lines, &end, err);
	log_close(&lf);
	return rc;
}

int
log_size(const char *path, uint64_t *size, struct aiterm_error *err)
{
	struct log_file lf;

	if (log_open(&lf, path, err) == -1)
		return -1;
	*size = lf.size;
	log_close(&lf);
	return 0;
}

void
log_slice_free(struct log_slice *s)
{
	buf_free(&s->head);
	buf_free(&s->tail);
	memset(s, 0, sizeof *s);
}
