/*
 * The output log's writer and the reader of its gaps (logpipe.h).
 *
 * The writer never stops on a failed write: tmux closes the pipe when its
 * reader ends, and a session whose pipe is closed is deaf for good.  It
 * reads until the pane's output ends.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <uv.h>

#include <jansson.h>

#include "pty/logpipe.h"
#include "util/xmalloc.h"

#define LOGPIPE_CHUNK	65536
#define LOGPIPE_RETRY_MS	250
/* The longest OSC 133 sequence kept whole; longer ones are not marks. */
#define LOGPIPE_SEQ_MAX	512

struct logpipe {
	int		 log, gaps;
	/* The gap being counted (bytes 0: none). */
	uint64_t	 lost;
	long long	 from_ms, to_ms;
	char		 marks[LOGPIPE_MARKS_MAX];
	size_t		 nmarks;
	unsigned	 kept;		/* marks kept in this gap */
	/* Where the gap is in the log: its size when the log took bytes
	 * again (-1: not yet). */
	long long	 offset;
	/* The OSC 133 scanner: the sequence so far, across chunks. */
	char		 seq[LOGPIPE_SEQ_MAX];
	size_t		 nseq;
};

static long long
logpipe_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Write all of data; 0, or -1 when the log took only part (or none). */
static int
logpipe_write(int fd, const char *data, size_t len, size_t *done)
{
	ssize_t n;

	*done = 0;
	while (*done < len) {
		n = write(fd, data + *done, len - *done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		*done += (size_t)n;
	}
	return 0;
}

/*
 * Keep the OSC 133 sequences (ESC ] 1 3 3 ; ... BEL or ESC \) of bytes
 * that are lost.  The scanner runs over lost bytes only; a sequence cut
 * by the start of a gap is not kept.
 */
static void
logpipe_scan(struct logpipe *lp, const char *p, size_t len)
{
	static const char head[] = "\033]133;";
	size_t i;
	char c;

	for (i = 0; i < len; i++) {
		c = p[i];
		if (lp->nseq < sizeof head - 1) {
			if (c == head[lp->nseq])
				lp->seq[lp->nseq++] = c;
			else
				lp->nseq = c == head[0] ? (lp->seq[0] = c, 1) : 0;
			continue;
		}
		if (lp->nseq >= sizeof lp->seq) {
			lp->nseq = 0;
			continue;
		}
		/* ESC ends an OSC: as ST (ESC \\), or by starting another. */
		if (lp->seq[lp->nseq - 1] == '\033' && c != '\\') {
			lp->seq[0] = '\033';
			lp->nseq = 1;
			i--;	/* this byte again, after that ESC */
			continue;
		}
		lp->seq[lp->nseq++] = c;
		if (c == '\a' || (c == '\\' &&
		    lp->seq[lp->nseq - 2] == '\033')) {
			if (lp->nmarks + lp->nseq <= sizeof lp->marks) {
				memcpy(lp->marks + lp->nmarks, lp->seq,
				    lp->nseq);
				lp->nmarks += lp->nseq;
				lp->kept++;
			}
			lp->nseq = 0;
		}
	}
}

static void
logpipe_lose(struct logpipe *lp, const char *p, size_t len)
{
	long long now = logpipe_now_ms();

	if (len == 0)
		return;
	if (lp->lost == 0) {
		lp->from_ms = now;
		lp->offset = -1;
	}
	lp->to_ms = now;
	lp->lost += len;
	logpipe_scan(lp, p, len);
}

/* Append the gap's record to <log>.gaps, whole or not at all; 0 or -1. */
static int
logpipe_record(struct logpipe *lp)
{
	struct stat gs;
	char line[256];
	size_t done;
	int n;

	if (fstat(lp->gaps, &gs) != 0)
		return -1;
	n = snprintf(line, sizeof line, "{\"format\":1,\"offset\":%lld,"
	    "\"bytes\":%" PRIu64 ",\"from_ms\":%lld,\"to_ms\":%lld,"
	    "\"marks\":%u}\n", lp->offset, lp->lost, lp->from_ms, lp->to_ms,
	    lp->kept);
	if (logpipe_write(lp->gaps, line, (size_t)n, &done) != 0) {
		if (done > 0 && ftruncate(lp->gaps, gs.st_size) != 0)
			(void)write(lp->gaps, "\n", 1);
		return -1;
	}
	lp->lost = 0;
	lp->kept = 0;
	lp->offset = -1;
	return 0;
}

/*
 * Take a chunk (len may be 0: a retry).  During a gap its record goes
 * first (so a reader woken by the bytes that follow finds it; it is on
 * the same file system, so its write succeeding means there is room),
 * then the kept marks, then the chunk.  What fails after the record
 * starts a new gap.  final: the pane's output has ended.
 */
static void
logpipe_take(struct logpipe *lp, const char *p, size_t len, bool final)
{
	struct stat st;
	size_t done = 0, mdone = 0;

	(void)final;
	if (lp->lost > 0) {
		if (fstat(lp->log, &st) != 0) {
			logpipe_lose(lp, p, len);
			return;
		}
		lp->offset = (long long)st.st_size;
		if (logpipe_record(lp) != 0) {
			logpipe_lose(lp, p, len);
			return;
		}
	}
	if (lp->nmarks > 0 &&
	    logpipe_write(lp->log, lp->marks, lp->nmarks, &mdone) != 0) {
		memmove(lp->marks, lp->marks + mdone, lp->nmarks - mdone);
		lp->nmarks -= mdone;
		logpipe_lose(lp, p, len);
		return;
	}
	lp->nmarks = 0;
	if (len > 0 && logpipe_write(lp->log, p, len, &done) != 0) {
		/* Bytes that landed end the scan: a mark cut by them is lost. */
		if (done > 0)
			lp->nseq = 0;
		logpipe_lose(lp, p + done, len - done);
	} else if (len > 0)
		lp->nseq = 0;
}

int
logpipe_main(const char *log)
{
	static char buf[LOGPIPE_CHUNK];
	struct logpipe *lp = xcalloc(1, sizeof *lp);
	char *gaps = xasprintf("%s.gaps", log);
	struct pollfd pfd = { .fd = STDIN_FILENO, .events = POLLIN };
	ssize_t n;
	int rc = 0;

	lp->offset = -1;
	lp->log = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	lp->gaps = open(gaps, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
	if (lp->log < 0 || lp->gaps < 0) {
		fprintf(stderr, "aiterm-mcp --log-pipe: cannot open %s: %s\n",
		    lp->log < 0 ? log : gaps, strerror(errno));
		rc = 1;
		goto out;
	}
	for (;;) {
		/*
		 * Kept marks are tried again every LOGPIPE_RETRY_MS, so a
		 * command's end mark reaches the log once there is room even
		 * if the pane prints nothing more.
		 */
		if ((lp->lost > 0 || lp->nmarks > 0) &&
		    poll(&pfd, 1, LOGPIPE_RETRY_MS) == 0) {
			logpipe_take(lp, NULL, 0, false);
			continue;
		}
		n = read(STDIN_FILENO, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		logpipe_take(lp, buf, (size_t)n, false);
	}
	/* The pane's output ended during a gap: record it if at all possible. */
	if (lp->lost > 0 || lp->nmarks > 0)
		logpipe_take(lp, NULL, 0, true);
out:
	if (lp->log >= 0)
		close(lp->log);
	if (lp->gaps >= 0)
		close(lp->gaps);
	free(gaps);
	free(lp);
	return rc;
}

static char logpipe_self[4096];
static uv_once_t logpipe_once = UV_ONCE_INIT;

static void
logpipe_look(void)
{
	const char *base;
	ssize_t n;

	n = readlink("/proc/self/exe", logpipe_self, sizeof logpipe_self - 1);
	logpipe_self[n > 0 ? n : 0] = '\0';
	base = strrchr(logpipe_self, '/');
	/* Only aiterm-mcp has --log-pipe (not a test linking the core). */
	if (base == NULL || strcmp(base + 1, "aiterm-mcp") != 0)
		logpipe_self[0] = '\0';
}

/* Any thread: pty_open and agent_launch create panes on the mux worker. */
const char *
logpipe_writer(void)
{
	uv_once(&logpipe_once, logpipe_look);
	return logpipe_self[0] != '\0' ? logpipe_self : NULL;
}

size_t
logpipe_gaps(const char *log, uint64_t from, uint64_t to,
    struct logpipe_gap *sum)
{
	char *path = xasprintf("%s.gaps", log), line[512];
	FILE *f = fopen(path, "re");
	json_t *o;
	uint64_t off;
	long long a, b;
	size_t count = 0;

	memset(sum, 0, sizeof *sum);
	while (f != NULL && fgets(line, sizeof line, f) != NULL) {
		o = json_loads(line, 0, NULL);
		off = (uint64_t)json_integer_value(json_object_get(o,
		    "offset"));
		a = json_integer_value(json_object_get(o, "from_ms"));
		b = json_integer_value(json_object_get(o, "to_ms"));
		if (o != NULL && off >= from && off < to) {
			sum->bytes += (uint64_t)json_integer_value(
			    json_object_get(o, "bytes"));
			if (count == 0 || a < sum->from_ms)
				sum->from_ms = a;
			if (count == 0 || b > sum->to_ms)
				sum->to_ms = b;
			sum->offset = count == 0 ? off : sum->offset;
			count++;
		}
		json_decref(o);
	}
	if (f != NULL)
		fclose(f);
	free(path);
	return count;
}
