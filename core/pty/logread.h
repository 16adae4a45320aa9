/*
 * Reading a session's output log: the raw bytes a terminal produced,
 * appended to one file that may grow to many gigabytes.  Everything here
 * reads with pread in chunks of LOG_CHUNK bytes, so memory stays bounded
 * by what is returned (at most about max_bytes) plus one chunk, whatever
 * the size of the log.  Each call takes the size of the log once, when it
 * opens it, and reads nothing beyond that size.
 *
 * Line numbers are 1-based: the line at byte offset p is 1 + the number of
 * LF bytes before p.  A CR before an LF is part of its line's bytes, and
 * the LF ending a line belongs to that line.
 *
 * A missing log is an error naming its path.  Functions that can fail
 * return -1 and fill err; a slice is then left empty (log_slice_free is
 * still safe to call on it).
 */
#ifndef AITERM_LOGREAD_H
#define AITERM_LOGREAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "util/buf.h"
#include "util/error.h"

/* The unit of every read and scan. */
#define LOG_CHUNK	(1024 * 1024)
/* A cut moves to a line boundary when an LF lies this close to it. */
#define LOG_LINE_SNAP	4096
/* A smaller max_bytes is taken as this, so head and tail can each hold a
 * whole UTF-8 character. */
#define LOG_MIN_BYTES	16

/*
 * A place in the log whose line number is known: line is the line at
 * offset (1 + the LFs before it).  A session keeps one as its read cursor,
 * (slice.to, slice.to_line), so that later reads near it count only the
 * bytes in between instead of the whole log.
 */
struct log_mark {
	uint64_t	offset;
	uint64_t	line;
};

/*
 * What a read returns.  When the range is longer than max_bytes, only its
 * head and tail are kept and the middle is left out.  Empty buffers have
 * data == NULL (buf_str gives ""); the data may hold NUL bytes, so use len.
 */
struct log_slice {
	struct aiterm_buf head;	/* bytes [from, from + head.len) */
	struct aiterm_buf tail;	/* bytes [to - tail.len, to), if truncated */
	uint64_t	from;	/* the range covered is [from, to) */
	uint64_t	to;	/* never inside a UTF-8 character */
	/* The middle, [from + head.len, to - tail.len), was left out. */
	bool		truncated;
	uint64_t	first_line;	/* the line at from */
	uint64_t	to_line;	/* the line at to; (to, to_line) is a mark */
	/*
	 * When truncated: the whole lines that were left out, first to last.
	 * Both are 0 when no whole line was (the middle of one long line).
	 */
	uint64_t	omitted_first_line;
	uint64_t	omitted_last_line;
	uint64_t	size;	/* the size of the log when it was read */
};

/*
 * Bytes [from, to) of the log; to == UINT64_MAX (or anything past the
 * end) means its current end.  to is moved back so that it never ends
 * inside a UTF-8 sequence: an incomplete sequence at the end stays for the
 * next read.  If the range is longer than max_bytes, max_bytes / 2 of its
 * head and of its tail are kept; each cut moves to just after an LF when
 * one lies within LOG_LINE_SNAP bytes of it (and within half of the part),
 * and otherwise to a character boundary.
 *
 * first_line_hint is the caller's line number at from; 0 means unknown:
 * the LFs before from are then counted, streaming from the start.  A from
 * beyond the end is not an error: the slice is empty, from == to == the
 * from asked for, first_line and to_line are first_line_hint, and size
 * tells the caller the log is shorter than it thought (truncated or
 * recreated).  A to before from is an error.
 */
int	log_read_range(const char *path, uint64_t from, uint64_t to,
	    size_t max_bytes, uint64_t first_line_hint, struct log_slice *out,
	    struct aiterm_error *err);

/*
 * Lines first to last (1-based, inclusive; last == 0: to the end), bounded
 * like log_read_range.  The range ends just after the LF of line last, or
 * at the end of the log.  Lines past the end give an empty slice at the end
 * of the log whose first_line is the line there (so below first).  first
 * == 0 and last < first are errors.
 */
int	log_read_lines(const char *path, uint64_t first, uint64_t last,
	    size_t max_bytes, struct log_slice *out, struct aiterm_error *err);

/*
 * The last n lines of the log (a final line without an LF counts), found
 * scanning backwards from the end, bounded like log_read_range.  first_line
 * needs the LFs before the slice: they are counted from the start of the
 * log.
 */
int	log_read_tail_lines(const char *path, uint64_t n, size_t max_bytes,
	    struct log_slice *out, struct aiterm_error *err);

/*
 * The same two, counting lines from mark instead of from the start of the
 * log (in either direction), so that a read near the mark costs what lies
 * between them.  A mark must come from this log (a slice's to and
 * to_line).  A NULL mark, one with line 0 or one beyond the end of the log
 * counts from the start, and so does one a scan finds impossible (more LFs
 * before it than lines, or fewer); a wrong mark that looks possible gives
 * wrong line numbers.
 */
int	log_read_lines_mark(const char *path, uint64_t first, uint64_t last,
	    size_t max_bytes, const struct log_mark *mark,
	    struct log_slice *out, struct aiterm_error *err);
int	log_read_tail_lines_mark(const char *path, uint64_t n, size_t max_bytes,
	    const struct log_mark *mark, struct log_slice *out,
	    struct aiterm_error *err);

/*
 * The number of LFs in [from, to), streaming (to == UINT64_MAX: the end);
 * 0 when from is at or beyond the end.  For advancing a line cursor.
 */
int	log_count_lines(const char *path, uint64_t from, uint64_t to,
	    uint64_t *lines, struct aiterm_error *err);

/* The current size of the log in bytes. */
int	log_size(const char *path, uint64_t *size, struct aiterm_error *err);

/* Free the buffers of s and empty it. */
void	log_slice_free(struct log_slice *s);

#endif
