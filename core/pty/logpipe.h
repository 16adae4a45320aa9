/*
 * The output log's writer (OPS-BOUNDARY, issue 17): what tmux's
 * pipe-pane runs for a session, "aiterm-mcp --log-pipe <log>".  It
 * appends its stdin to the log.  When a write fails (a full disk), the
 * bytes it could not write are counted, with the time of the first and
 * last, and the terminal's OSC 133 marks among them are kept (up to
 * LOGPIPE_MARKS_MAX bytes), so that a command's end mark is never lost.
 * When there is room again (the next chunk, or a retry every 250 ms)
 * one line is appended to <log>.gaps, then the kept marks to the log:
 *   {"format":1,"offset":O,"bytes":N,"from_ms":A,"to_ms":B,"marks":K}
 * O is the log's size where the gap is (the kept marks start there).
 */
#ifndef AITERM_LOGPIPE_H
#define AITERM_LOGPIPE_H

#include <stddef.h>
#include <stdint.h>

#define LOGPIPE_MARKS_MAX	8192

/* One gap, as read back from <log>.gaps. */
struct logpipe_gap {
	uint64_t	offset;
	uint64_t	bytes;
	long long	from_ms, to_ms;
};

/*
 * The running aiterm-mcp's path, for the mux's create (log_writer), or
 * NULL when this process is not aiterm-mcp or its path is unknown (the
 * plugin then appends with cat, without counting losses).
 */
const char *logpipe_writer(void);
/* Run the writer on stdin until its end; the process's exit status. */
int	logpipe_main(const char *log);
/*
 * The gaps of <log>.gaps whose offset is in [from, to), summed into
 * *sum (bytes added, the earliest from_ms and latest to_ms): how many.
 */
size_t	logpipe_gaps(const char *log, uint64_t from, uint64_t to,
	    struct logpipe_gap *sum);

#endif
