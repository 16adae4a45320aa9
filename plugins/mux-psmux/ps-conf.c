/*
 * The psmux binary, its version and the private server's namespace.
 *
 * The binary is $AITERM_PSMUX (an absolute path) or the first psmux on
 * PATH.  Each state root gets its own psmux namespace (-L), named from a
 * hash of the root, so two Aiterm state roots never share sessions and
 * the user's own psmux sessions are never seen.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mux-psmux.h"

#ifdef _WIN32
#define PS_PATH_SEP	';'
#define PS_EXE		"psmux.exe"
#define PS_DIR_SEP	"\\"
#else
#define PS_PATH_SEP	':'
#define PS_EXE		"psmux"
#define PS_DIR_SEP	"/"
#endif

static int
ps_is_absolute(const char *p)
{
#ifdef _WIN32
	return (((p[0] >= 'A' && p[0] <= 'Z') || (p[0] >= 'a' && p[0] <= 'z')) &&
	    p[1] == ':' && (p[2] == '\\' || p[2] == '/')) ||
	    (p[0] == '\\' && p[1] == '\\');
#else
	return p[0] == '/';
#endif
}

static int
ps_is_executable(const char *p)
{
#ifdef _WIN32
	return access(p, 0) == 0;
#else
	return access(p, X_OK) == 0;
#endif
}

/* The first PS_EXE in PATH into out; 0, or -1. */
static int
ps_path_search(char *out, size_t len)
{
	const char *path = getenv("PATH"), *dir, *end;
	int n;

	for (dir = path; dir != NULL && *dir != '\0'; dir = end + 1) {
		end = strchr(dir, PS_PATH_SEP);
		if (end == NULL)
			end = dir + strlen(dir);
		n = snprintf(out, len, "%.*s" PS_DIR_SEP PS_EXE,
		    (int)(end - dir), dir);
		if (end > dir && n > 0 && (size_t)n < len &&
		    ps_is_absolute(out) && ps_is_executable(out))
			return 0;
		if (*end == '\0')
			break;
	}
	return -1;
}

/* FNV-1a, 64 bits: a short stable name for a state root. */
static uint64_t
ps_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s != '\0'; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

int
ps_server_get(const struct aiterm_host *host, struct ps_server *srv,
    struct aiterm_error *err)
{
	const char *env = getenv("AITERM_PSMUX"), *root;

	if (env != NULL && *env != '\0') {
		if (!ps_is_absolute(env) || strlen(env) >= sizeof srv->binary ||
		    !ps_is_executable(env))
			return host->error(err, "AITERM_PSMUX must be the "
			    "absolute path of an executable psmux: %s", env);
		snprintf(srv->binary, sizeof srv->binary, "%s", env);
	} else if (ps_path_search(srv->binary, sizeof srv->binary) != 0)
		return host->error(err, PS_EXE " was not found in PATH; "
		    "install psmux " PS_MIN_TEXT " or later or set "
		    "AITERM_PSMUX to its absolute path");
	root = host->state_root();
	if (root == NULL)
		return host->error(err, "no state root");
	snprintf(srv->ns, sizeof srv->ns, "aiterm-%016llx",
	    (unsigned long long)ps_hash(root));
	return 0;
}

int
ps_version_parse(const char *text, char *name, size_t name_len, int num[3])
{
	const char *p = text;
	size_t n = strcspn(p, " \t\r\n");
	char *end;
	int i;

	if (n == 0 || n >= name_len)
		return -1;
	memcpy(name, p, n);
	name[n] = '\0';
	p += n + strspn(p + n, " \t");
	num[0] = num[1] = num[2] = 0;
	for (i = 0; i < 3; i++) {
		if (*p < '0' || *p > '9')
			return i >= 2 ? 0 : -1;
		num[i] = (int)strtol(p, &end, 10);
		p = end;
		if (*p != '.')
			return i >= 1 ? 0 : -1;
		p++;
	}
	return 0;
}

static int
ps_at_least(const int num[3])
{
	const int min[3] = { PS_MIN_MAJOR, PS_MIN_MINOR, PS_MIN_PATCH };
	int i;

	for (i = 0; i < 3; i++) {
		if (num[i] != min[i])
			return num[i] > min[i];
	}
	return 1;
}

int
ps_version(const struct aiterm_host *host, const struct ps_server *srv,
    char *version, size_t len, struct aiterm_error *err)
{
	const char *const words[] = { srv->binary, "-V", NULL };
	const char *allow = getenv("AITERM_PSMUX_ALLOW_TMUX");
	struct aiterm_buf *out = host->buf_new();
	char name[32], line[128];
	int num[3], status, rc = -1;

	status = host->run(words, out, NULL, err);
	if (status == -1)
		goto out;
	snprintf(line, sizeof line, "%.*s", (int)host->buf_len(out),
	    host->buf_data(out));
	line[strcspn(line, "\r\n")] = '\0';
	if (status != 0 || ps_version_parse(line, name, sizeof name, num) != 0) {
		host->error(err, "'%s -V' did not print a version (exit %d: "
		    "'%s')", srv->binary, status, line);
		goto out;
	}
	if (strcmp(name, "tmux") == 0 && allow != NULL &&
	    strcmp(allow, "1") == 0)
		rc = 0;
	else if (strcmp(name, "psmux") != 0)
		host->error(err, "%s is not psmux (it says '%s'); Aiterm on "
		    "Windows needs psmux " PS_MIN_TEXT " or later",
		    srv->binary, line);
	else if (!ps_at_least(num))
		host->error(err, "psmux %d.%d.%d is too old: Aiterm needs "
		    PS_MIN_TEXT " or later", num[0], num[1], num[2]);
	else
		rc = 0;
	if (rc == 0)
		snprintf(version, len, "%d.%d.%d", num[0], num[1], num[2]);
out:
	host->buf_free(out);
	return rc;
}
