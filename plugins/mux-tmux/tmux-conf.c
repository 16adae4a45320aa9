/*
 * The private tmux server of a state root: which tmux, its socket, its
 * config file and its version.
 *
 * One server per state root, on <state_root>/tmux.sock.  Its protection
 * is the directory: the state root is 0700 and owned by the user, so no
 * other user can reach the socket whatever mode tmux gives it (tmux
 * creates it 0660 and adds execute bits while a client is attached).  The
 * server reads <state_root>/tmux.conf (0600, written here) and nothing
 * else, so the user's ~/.tmux.conf cannot change how sessions behave; a
 * person can still watch with "tmux -S <socket> attach -t <id>".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mux-tmux.h"

/* The config, one line per entry; %s is the default terminal. */
static const char *const tx_config_lines[] = {
	"# Written by the aiterm mux-tmux plugin; rewritten when it differs.",
	"# This server reads this file alone (tmux -f), never ~/.tmux.conf.",
	"set -g escape-time 0",
	"set -g exit-empty off",
	"set -g exit-unattached off",
	"set -g remain-on-exit on",
	"set -g history-limit 50000",
	"set -g allow-rename off",
	"set -g automatic-rename off",
	"set -g default-terminal \"%s\"",
	"set -g status on",
	"set -g status-left \"[aiterm #{session_name}] \"",
	"set -g status-left-length 40",
	"set -g status-right \"\"",
	"# window-size manual is set on each new window by create, not here:",
	"# tmux up to 3.6a crashes creating a detached session while the",
	"# global window-size is manual.",
	NULL,
};

/* Where ncurses looks for terminfo entries, after $TERMINFO and ~/.terminfo. */
static const char *const tx_terminfo_dirs[] = {
	"/etc/terminfo",
	"/lib/terminfo",
	"/usr/share/terminfo",
	"/usr/lib/terminfo",
	"/usr/share/lib/terminfo",
	"/usr/local/share/terminfo",
	"/opt/homebrew/share/terminfo",
	"/opt/local/share/terminfo",
	NULL,
};

/* The version seen for the last binary asked about. */
static struct {
	char	binary[512];
	char	version[64];
} tx_version_cache;

static int
tx_is_executable(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) &&
	    access(path, X_OK) == 0;
}

/* Search PATH's absolute entries for tmux. */
static int
tx_path_search(char *out, size_t len)
{
	const char *path = getenv("PATH"), *p, *end;
	int found = 0, n;

	for (p = path; p != NULL && *p != '\0' && !found; p = end) {
		end = strchr(p, ':');
		if (end == NULL)
			end = p + strlen(p);
		n = snprintf(out, len, "%.*s/tmux", (int)(end - p), p);
		found = *p == '/' && n > 0 && (size_t)n < len &&
		    tx_is_executable(out);
		if (*end == ':')
			end++;
	}
	return found ? 0 : -1;
}

static int
tx_find_binary(const struct aiterm_host *host, char *out, size_t len,
    struct aiterm_error *err)
{
	const char *env = getenv("AITERM_TMUX");
	int rc = 0;

	if (env != NULL && *env != '\0') {
		if (*env != '/' || strlen(env) >= len || !tx_is_executable(env))
			rc = host->error(err, "AITERM_TMUX must be the absolute "
			    "path of an executable tmux: %s", env);
		else
			snprintf(out, len, "%s", env);
	} else if (tx_path_search(out, len) != 0)
		rc = host->error(err, "tmux was not found in PATH; install "
		    "tmux 3.x or set AITERM_TMUX to its absolute path");
	return rc;
}

int
tx_server_get(const struct aiterm_host *host, struct tx_server *srv,
    struct aiterm_error *err)
{
	struct sockaddr_un sun;
	const char *root = host->state_root();
	size_t limit = sizeof sun.sun_path - 1;
	int rc = -1;

	if (root == NULL || *root != '/') {
		host->error(err, "tmux: the state root is not set");
		goto out;
	}
	if (tx_find_binary(host, srv->binary, sizeof srv->binary, err) != 0)
		goto out;
	snprintf(srv->socket, sizeof srv->socket, "%s/tmux.sock", root);
	snprintf(srv->config, sizeof srv->config, "%s/tmux.conf", root);
	snprintf(srv->lock, sizeof srv->lock, "%s/tmux.lock", root);
	if (strlen(root) + sizeof "/tmux.sock" - 1 > limit) {
		host->error(err, "tmux socket path %s/tmux.sock is %zu bytes, "
		    "longer than the %zu a Unix socket allows; set "
		    "AITERM_STATE_DIR to a shorter directory", root,
		    strlen(root) + sizeof "/tmux.sock" - 1, limit);
		goto out;
	}
	rc = 0;
out:
	return rc;
}

static int
tx_terminfo_in(const char *dir, const char *name)
{
	char path[1024];
	int n, found;

	/* Linux trees use "t/", macOS trees the hex of the letter, "74/". */
	n = snprintf(path, sizeof path, "%s/%c/%s", dir, name[0], name);
	found = n > 0 && (size_t)n < sizeof path && access(path, R_OK) == 0;
	if (!found) {
		n = snprintf(path, sizeof path, "%s/%02x/%s", dir,
		    (unsigned char)name[0], name);
		found = n > 0 && (size_t)n < sizeof path &&
		    access(path, R_OK) == 0;
	}
	return found;
}

const char *
tx_default_terminal(void)
{
	static const char name[] = "tmux-256color";
	const char *terminfo = getenv("TERMINFO"), *home = getenv("HOME");
	char dir[1024];
	int found = 0, i;

	if (terminfo != NULL && *terminfo != '\0')
		found = tx_terminfo_in(terminfo, name);
	if (!found && home != NULL && *home != '\0' &&
	    (size_t)snprintf(dir, sizeof dir, "%s/.terminfo", home) <
	    sizeof dir)
		found = tx_terminfo_in(dir, name);
	for (i = 0; tx_terminfo_dirs[i] != NULL && !found; i++)
		found = tx_terminfo_in(tx_terminfo_dirs[i], name);
	return found ? name : "screen-256color";
}

char *
tx_config_text(const char *default_terminal)
{
	struct tx_str text = TX_STR_INIT;
	const char *line, *mark;
	int i;

	for (i = 0; tx_config_lines[i] != NULL; i++) {
		line = tx_config_lines[i];
		mark = strstr(line, "%s");
		if (mark == NULL)
			tx_str_adds(&text, line);
		else {
			tx_str_add(&text, line, (size_t)(mark - line));
			tx_str_adds(&text, default_terminal);
			tx_str_adds(&text, mark + 2);
		}
		tx_str_adds(&text, "\n");
	}
	return text.data;
}

/* Nonzero when path already holds exactly text. */
static int
tx_file_equals(const char *path, const char *text)
{
	size_t len = strlen(text);
	char *have = tx_alloc(len + 1);
	FILE *f = fopen(path, "r");
	int same = 0;

	if (f != NULL) {
		same = fread(have, 1, len + 1, f) == len &&
		    memcmp(have, text, len) == 0;
		fclose(f);
	}
	free(have);
	return same;
}

int
tx_config_write(const struct aiterm_host *host, const struct tx_server *srv,
    struct aiterm_error *err)
{
	char *text = tx_config_text(tx_default_terminal());
	char tmp[600];
	size_t len = strlen(text);
	int fd = -1, rc = 0;

	if (tx_file_equals(srv->config, text))
		goto out;
	snprintf(tmp, sizeof tmp, "%s.%ld.tmp", srv->config, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || fchmod(fd, 0600) != 0 ||
	    write(fd, text, len) != (ssize_t)len) {
		rc = host->error(err, "cannot write %s: %s", tmp,
		    strerror(errno));
		goto out_unlink;
	}
	if (close(fd) != 0 || rename(tmp, srv->config) != 0) {
		fd = -1;
		rc = host->error(err, "cannot write %s: %s", srv->config,
		    strerror(errno));
		goto out_unlink;
	}
	fd = -1;
	goto out;
out_unlink:
	if (fd >= 0)
		close(fd);
	unlink(tmp);
out:
	free(text);
	return rc;
}

int
tx_version_at_least(const char *version, int major, int minor)
{
	const char *p = version;
	long have_major, have_minor = 0;
	char *end;
	int ok = 1;

	/*
	 * Skip a prefix such as "next-" or "openbsd-"; a version with no
	 * number at all ("master") is taken as new.
	 */
	while (*p != '\0' && (*p < '0' || *p > '9'))
		p++;
	if (*p != '\0') {
		have_major = strtol(p, &end, 10);
		if (*end == '.')
			have_minor = strtol(end + 1, NULL, 10);
		ok = have_major > major ||
		    (have_major == major && have_minor >= minor);
	}
	return ok;
}

int
tx_version(const struct aiterm_host *host, const struct tx_server *srv,
    char *version, size_t len, int *has_env_flag, struct aiterm_error *err)
{
	const char *argv[] = { srv->binary, "-V", NULL };
	struct tx_result res = TX_RESULT_INIT;
	const char *text;
	int rc = 0;

	if (strcmp(tx_version_cache.binary, srv->binary) != 0) {
		if (tx_host_run(host, argv, &res, err) != 0) {
			rc = -1;
			goto out;
		}
		text = tx_str_get(&res.out);
		if (res.status != 0 || strncmp(text, "tmux ", 5) != 0) {
			rc = host->error(err, "%s -V did not print a tmux "
			    "version (exit status %d): %.80s", srv->binary,
			    res.status, text);
			goto out;
		}
		snprintf(tx_version_cache.version,
		    sizeof tx_version_cache.version, "%.*s",
		    (int)strcspn(text + 5, "\r\n"), text + 5);
		snprintf(tx_version_cache.binary,
		    sizeof tx_version_cache.binary, "%s", srv->binary);
	}
	snprintf(version, len, "%s", tx_version_cache.version);
	*has_env_flag = tx_version_at_least(tx_version_cache.version, 3, 2);
out:
	tx_result_free(&res);
	return rc;
}
