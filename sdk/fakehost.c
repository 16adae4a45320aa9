/*
 * The test kit's fake host (libaiterm-plugin-test): the host table a
 * plugin's unit tests pass to its ops, with buffers, errors and a log
 * that behave as the server's, and no server behind it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <aiterm/plugin-test.h>

struct aiterm_buf {
	char	*data;
	size_t	 len, cap;
};

struct aiterm_error {
	char	*msg;
};

static const char *const level_names[] = {
	[AITERM_LOG_DEBUG] = "debug",
	[AITERM_LOG_INFO] = "info",
	[AITERM_LOG_NOTICE] = "notice",
	[AITERM_LOG_WARNING] = "warning",
	[AITERM_LOG_ERROR] = "error",
};

static struct aiterm_buf logged, spawned;
static aiterm_test_run_fn run_fn;
static char state_dir[4096];

static void *
must(void *p)
{
	if (p == NULL) {
		fprintf(stderr, "aiterm-plugin-test: out of memory\n");
		abort();
	}
	return p;
}

static void
fake_buf_add(struct aiterm_buf *b, const void *data, size_t len)
{
	if (b->len + len + 1 > b->cap) {
		while (b->len + len + 1 > b->cap)
			b->cap = b->cap == 0 ? 64 : b->cap * 2;
		b->data = must(realloc(b->data, b->cap));
	}
	if (len > 0)
		memcpy(b->data + b->len, data, len);
	b->len += len;
	b->data[b->len] = '\0';
}

static void __attribute__((format(printf, 2, 0)))
buf_vprintf(struct aiterm_buf *b, const char *fmt, va_list ap)
{
	char *s;
	int n;

	if ((n = vasprintf(&s, fmt, ap)) < 0)
		must(NULL);
	fake_buf_add(b, s, (size_t)n);
	free(s);
}

static void __attribute__((format(printf, 2, 3)))
fake_buf_printf(struct aiterm_buf *b, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	buf_vprintf(b, fmt, ap);
	va_end(ap);
}

static const char *
fake_buf_data(const struct aiterm_buf *b)
{
	return b->data == NULL ? "" : b->data;
}

static size_t
fake_buf_len(const struct aiterm_buf *b)
{
	return b->len;
}

static struct aiterm_buf *
fake_buf_new(void)
{
	return must(calloc(1, sizeof(struct aiterm_buf)));
}

static void
fake_buf_free(struct aiterm_buf *b)
{
	if (b == NULL)
		return;
	free(b->data);
	free(b);
}

/* The level AITERM_PLUGIN_LOG names (as the server reads it), or -1. */
static int
env_level(void)
{
	const char *v = getenv("AITERM_PLUGIN_LOG");
	size_t i;

	for (i = 0; v != NULL && i < sizeof level_names / sizeof
	    level_names[0]; i++) {
		if (strcmp(v, level_names[i]) == 0)
			return (int)i;
	}
	return -1;
}

static void __attribute__((format(printf, 3, 4)))
fake_log(enum aiterm_log_level level, const char *plugin, const char *fmt, ...)
{
	size_t start = logged.len;
	int shown = env_level();
	va_list ap;

	if (level > AITERM_LOG_ERROR)
		return;
	fake_buf_printf(&logged, "%s: %s: ", level_names[level],
	    plugin == NULL ? "core" : plugin);
	va_start(ap, fmt);
	buf_vprintf(&logged, fmt, ap);
	va_end(ap);
	fake_buf_add(&logged, "\n", 1);
	if (shown >= 0 && (int)level >= shown)
		fprintf(stderr, "aiterm-plugin-test: %s", logged.data + start);
}

static int __attribute__((format(printf, 2, 3)))
fake_error(struct aiterm_error *err, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (err == NULL)
		return -1;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		must(NULL);
	va_end(ap);
	free(err->msg);
	err->msg = s;
	return -1;
}

static int
fake_run(const char *const argv[], struct aiterm_buf *out,
    struct aiterm_buf *errout, struct aiterm_error *err)
{
	if (run_fn != NULL)
		return run_fn(argv, out, errout, err);
	return fake_error(err, "aiterm-plugin-test: host->run(%s) has no "
	    "program behind it (aiterm_test_set_run sets one)", argv[0]);
}

static int
rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path);
}

static void
rm_state(void)
{
	if (state_dir[0] != '\0')
		nftw(state_dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static const char *
fake_state_root(void)
{
	const char *tmp = getenv("TMPDIR");

	if (state_dir[0] != '\0')
		return state_dir;
	snprintf(state_dir, sizeof state_dir, "%s/aiterm-plugin-test.XXXXXX",
	    tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
	if (mkdtemp(state_dir) == NULL) {
		fprintf(stderr, "aiterm-plugin-test: %s: %s\n", state_dir,
		    strerror(errno));
		abort();
	}
	atexit(rm_state);
	return state_dir;
}

/*
 * As the server's host: relative, no empty, "." or ".." component, no
 * trailing '/'.
 */
static bool
relpath_valid(const char *rel)
{
	const char *p = rel;
	size_t n;

	if (rel == NULL || *rel == '\0' || *rel == '/')
		return false;
	while (*p != '\0') {
		n = strcspn(p, "/");
		if (n == 0 || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += n;
		if (*p == '/' && *++p == '\0')
			return false;
	}
	return true;
}

/* The folders of relpath under the state root, 0700. */
static void
make_dirs(char *path, size_t root_len)
{
	char *p;

	for (p = path + root_len + 1; (p = strchr(p, '/')) != NULL; p++) {
		*p = '\0';
		mkdir(path, 0700);
		*p = '/';
	}
}

static int
fake_write_state(const char *relpath, const void *data, size_t len,
    struct aiterm_error *err)
{
	const char *root = fake_state_root();
	char path[8192], tmp[8200];
	ssize_t n;
	int fd;

	if (!relpath_valid(relpath))
		return fake_error(err, "not a path below the state root: '%s'",
		    relpath != NULL ? relpath : "(null)");
	snprintf(path, sizeof path, "%s/%s", root, relpath);
	make_dirs(path, strlen(root));
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	if ((fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC, 0600)) < 0)
		return fake_error(err, "%s: %s", tmp, strerror(errno));
	n = write(fd, data, len);
	close(fd);
	if (n != (ssize_t)len || rename(tmp, path) != 0)
		return fake_error(err, "%s: %s", path, strerror(errno));
	return 0;
}

static int
fake_spawn_program(const char *const argv[], struct aiterm_error *err)
{
	size_t i;

	(void)err;
	for (i = 0; argv[i] != NULL; i++)
		fake_buf_printf(&spawned, "%s%s", i > 0 ? " " : "", argv[i]);
	fake_buf_add(&spawned, "\n", 1);
	return 0;
}

static const struct aiterm_host host = {
	.abi_major = AITERM_ABI_MAJOR,
	.abi_minor = AITERM_ABI_MINOR,
	.log = fake_log,
	.error = fake_error,
	.buf_add = fake_buf_add,
	.buf_printf = fake_buf_printf,
	.buf_data = fake_buf_data,
	.buf_len = fake_buf_len,
	.run = fake_run,
	.state_root = fake_state_root,
	.buf_new = fake_buf_new,
	.buf_free = fake_buf_free,
	.write_state = fake_write_state,
	.spawn_program = fake_spawn_program,
};

const struct aiterm_host *
aiterm_test_host(void)
{
	return &host;
}

struct aiterm_buf *
aiterm_test_buf(void)
{
	return fake_buf_new();
}

const char *
aiterm_test_buf_str(const struct aiterm_buf *b)
{
	return fake_buf_data(b);
}

size_t
aiterm_test_buf_len(const struct aiterm_buf *b)
{
	return b->len;
}

void
aiterm_test_buf_reset(struct aiterm_buf *b)
{
	b->len = 0;
	if (b->data != NULL)
		b->data[0] = '\0';
}

void
aiterm_test_buf_free(struct aiterm_buf *b)
{
	fake_buf_free(b);
}

struct aiterm_error *
aiterm_test_error(void)
{
	return must(calloc(1, sizeof(struct aiterm_error)));
}

const char *
aiterm_test_error_msg(const struct aiterm_error *err)
{
	return err->msg;
}

void
aiterm_test_error_clear(struct aiterm_error *err)
{
	free(err->msg);
	err->msg = NULL;
}

void
aiterm_test_error_free(struct aiterm_error *err)
{
	if (err == NULL)
		return;
	free(err->msg);
	free(err);
}

const char *
aiterm_test_log(void)
{
	return fake_buf_data(&logged);
}

void
aiterm_test_log_clear(void)
{
	aiterm_test_buf_reset(&logged);
}

void
aiterm_test_set_run(aiterm_test_run_fn fn)
{
	run_fn = fn;
}

const char *
aiterm_test_spawned(void)
{
	return fake_buf_data(&spawned);
}
