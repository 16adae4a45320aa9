/* One YAML document read strictly (see yamldoc.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/xmalloc.h"
#include "util/yamldoc.h"

static const char *const null_words[] = { "", "~", "null", "Null", "NULL" };

bool
yamldoc_null_word(const char *s)
{
	size_t i;

	for (i = 0; i < sizeof null_words / sizeof null_words[0]; i++) {
		if (strcmp(s, null_words[i]) == 0)
			return true;
	}
	return false;
}

int
yamldoc_fail(struct aiterm_error *err, const char *path, yaml_mark_t mark,
    const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = xvasprintf(fmt, ap);
	va_end(ap);
	error_set(err, "%s:%zu:%zu: %s", path, mark.line + 1,
	    mark.column + 1, msg);
	free(msg);
	return -1;
}

/*
 * A libyaml failure.  Reader errors (bad encoding, control characters)
 * carry a byte offset instead of a mark, so the line and column are
 * counted here from the data.
 */
static int
failed(struct aiterm_error *err, const char *path,
    const yaml_parser_t *parser, const char *data)
{
	const char *problem, *context;
	yaml_mark_t mark = parser->problem_mark;
	size_t i;

	if (parser->error == YAML_READER_ERROR) {
		memset(&mark, 0, sizeof mark);
		for (i = 0; i < parser->problem_offset; i++) {
			if (data[i] == '\n') {
				mark.line++;
				mark.column = 0;
			} else if (((unsigned char)data[i] & 0xc0) != 0x80)
				mark.column++;
		}
	}
	problem = parser->problem != NULL ? parser->problem :
	    parser->error == YAML_MEMORY_ERROR ? "out of memory" :
	    "unknown error";
	context = parser->context != NULL ? parser->context : "";
	return yamldoc_fail(err, path, mark, "YAML error: %s%s%s", problem,
	    *context != '\0' ? " " : "", context);
}

/* The first pass over the events: no node nested deeper than depth. */
static int
check_depth(const char *path, const char *data, size_t len, unsigned max,
    struct aiterm_error *err)
{
	yaml_parser_t parser;
	yaml_event_t event;
	yaml_event_type_t type;
	yaml_mark_t mark;
	unsigned depth = 0;
	int rc = -1;

	if (!yaml_parser_initialize(&parser))
		return error_set(err, "%s: YAML error: out of memory", path);
	yaml_parser_set_input_string(&parser, (const unsigned char *)data,
	    len);
	for (;;) {
		if (!yaml_parser_parse(&parser, &event)) {
			failed(err, path, &parser, data);
			break;
		}
		type = event.type;
		mark = event.start_mark;
		yaml_event_delete(&event);
		if (type == YAML_STREAM_END_EVENT) {
			rc = 0;
			break;
		}
		if (type == YAML_MAPPING_START_EVENT ||
		    type == YAML_SEQUENCE_START_EVENT) {
			if (++depth > max) {
				yamldoc_fail(err, path, mark, "nested deeper "
				    "than %u levels", max);
				break;
			}
		} else if (type == YAML_MAPPING_END_EVENT ||
		    type == YAML_SEQUENCE_END_EVENT)
			depth--;
	}
	yaml_parser_delete(&parser);
	return rc;
}

/* Nothing but the end of the stream after the document. */
static int
stream_end(const char *path, yaml_parser_t *parser, const char *data,
    struct aiterm_error *err)
{
	yaml_document_t next;
	int rc = 0;

	if (!yaml_parser_load(parser, &next))
		return failed(err, path, parser, data);
	if (yaml_document_get_root_node(&next) != NULL)
		rc = yamldoc_fail(err, path, next.start_mark,
		    "more than one YAML document");
	yaml_document_delete(&next);
	return rc;
}

int
yamldoc_load_data(const char *path, const char *data, size_t len,
    const struct yamldoc_limits *lim, yaml_document_t *doc,
    struct aiterm_error *err)
{
	yaml_parser_t parser;
	int rc = -1;

	if (len > lim->max)
		return error_set(err, "%s: larger than %zu bytes", path,
		    lim->max);
	if (check_depth(path, data, len, lim->depth, err) != 0)
		return -1;
	if (!yaml_parser_initialize(&parser))
		return error_set(err, "%s: YAML error: out of memory", path);
	yaml_parser_set_input_string(&parser, (const unsigned char *)data,
	    len);
	if (!yaml_parser_load(&parser, doc))
		failed(err, path, &parser, data);
	else if (stream_end(path, &parser, data, err) != 0)
		yaml_document_delete(doc);
	else
		rc = 0;
	yaml_parser_delete(&parser);
	return rc;
}

/* The whole file, at most max bytes (one more is read to tell). */
static int
read_file(const char *path, size_t max, char **data, size_t *len,
    struct aiterm_error *err)
{
	char *buf;
	size_t got = 0;
	ssize_t n;
	int fd, rc = -1;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd == -1)
		return error_set(err, "%s: cannot open: %s", path,
		    strerror(errno));
	buf = xmalloc(max + 2);
	for (;;) {
		n = read(fd, buf + got, max + 1 - got);
		if (n == -1 && errno == EINTR)
			continue;
		if (n == -1) {
			error_set(err, "%s: cannot read: %s", path,
			    strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		got += (size_t)n;
		if (got > max) {
			error_set(err, "%s: larger than %zu bytes", path, max);
			goto out;
		}
	}
	buf[got] = '\0';
	*data = buf;
	*len = got;
	buf = NULL;
	rc = 0;
out:
	free(buf);
	close(fd);
	return rc;
}

int
yamldoc_load(const char *path, const struct yamldoc_limits *lim,
    yaml_document_t *doc, struct aiterm_error *err)
{
	char *data = NULL;
	size_t len = 0;
	int rc;

	if (read_file(path, lim->max, &data, &len, err) != 0)
		return -1;
	rc = yamldoc_load_data(path, data, len, lim, doc, err);
	free(data);
	return rc;
}
