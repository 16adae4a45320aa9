#include <string.h>

#include "mcp/framing.h"
#include "util/memback.h"

void
framer_init(struct framer *f, size_t max,
    void (*on_line)(void *, const char *, size_t),
    void (*on_too_large)(void *, size_t), void *arg)
{
	memset(f, 0, sizeof *f);
	f->max = max;
	f->on_line = on_line;
	f->on_too_large = on_too_large;
	f->arg = arg;
}

static void
deliver(struct framer *f)
{
	size_t len = f->line.len;

	if (f->discarding) {
		f->on_too_large(f->arg, f->discarded);
		f->discarding = false;
		f->discarded = 0;
		memback_trim();		/* what it grew before the limit */
		return;
	}
	if (len > 0 && f->line.data[len - 1] == '\r')
		len--;
	f->on_line(f->arg, buf_str(&f->line), len);
	/* A large message's memory is given back, not kept for good. */
	if (f->line.cap > FRAMER_KEEP) {
		buf_free(&f->line);
		memback_trim();
	} else {
		buf_reset(&f->line);
	}
}

void
framer_feed(struct framer *f, const char *data, size_t len)
{
	const char *nl;
	size_t take;

	while (len > 0) {
		nl = memchr(data, '\n', len);
		take = nl == NULL ? len : (size_t)(nl - data);
		if (f->discarding) {
			f->discarded += take;
		} else if (f->line.len + take > f->max) {
			f->discarding = true;
			f->discarded = f->line.len + take;
			buf_free(&f->line);
		} else {
			buf_add(&f->line, data, take);
		}
		if (nl == NULL)
			return;
		deliver(f);
		data = nl + 1;
		len -= take + 1;
	}
}

void
framer_finish(struct framer *f)
{
	if (f->line.len > 0 || f->discarding)
		deliver(f);
}

void
framer_free(struct framer *f)
{
	buf_free(&f->line);
}
