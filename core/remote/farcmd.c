#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "remote/farcmd.h"
#include "remote/relay.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* The options of the waiter's ssh: never a prompt, a dead link noticed. */
static const char *const waiter_opts[] = {
	"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o",
	"ServerAliveInterval=15", NULL,
};
/* A person's: a terminal, and whatever ssh asks them. */
static const char *const watch_opts[] = { "-t", NULL };

/* The far argv as one command line for host's login shell. */
static char *
far_line(const char *host, json_t *argv)
{
	size_t i, n = json_array_size(argv);
	const char **words = xcalloc(n + 1, sizeof *words);
	char *line = NULL;

	for (i = 0; i < n; i++) {
		if ((words[i] = json_string_value(json_array_get(argv, i)))
		    == NULL)
			goto out;
	}
	line = remote_family_line(remote_host_family(host), words, n);
out:
	free(words);
	return line;
}

/* ssh with opts to host running line there; its shell line in *cmd. */
static json_t *
ssh_argv(const char *host, const char *const *opts, const char *line,
    struct aiterm_buf *cmd)
{
	const char *config = getenv("AITERM_SSH_CONFIG");
	json_t *argv = json_array(), *w;
	char *dest, port[16];
	size_t i;

	remote_ssh_dest(host, &dest, port, sizeof port);
	json_array_append_new(argv, json_string("ssh"));
	for (i = 0; opts[i] != NULL; i++)
		json_array_append_new(argv, json_string(opts[i]));
	if (port[0] != '\0') {
		json_array_append_new(argv, json_string("-p"));
		json_array_append_new(argv, json_string(port));
	}
	if (config != NULL && *config != '\0') {
		json_array_append_new(argv, json_string("-F"));
		json_array_append_new(argv, json_string(config));
	}
	json_array_append_new(argv, json_string("--"));
	json_array_append_new(argv, json_string(dest));
	json_array_append_new(argv, json_string(line));
	json_array_foreach(argv, i, w) {
		if (i > 0)
			buf_addc(cmd, ' ');
		buf_add_word(cmd, json_string_value(w));
	}
	free(dest);
	return argv;
}

/* Replace the first "<lead><old>" in every text item of content. */
static void
rewrite_texts(json_t *content, const char *lead, const char *old,
    const char *new)
{
	struct aiterm_buf b = BUF_INIT, key = BUF_INIT;
	const char *text, *at;
	size_t i;
	json_t *item;

	buf_adds(&key, lead);
	buf_adds(&key, old);
	json_array_foreach(content, i, item) {
		text = json_string_value(json_object_get(item, "text"));
		if (text == NULL || (at = strstr(text, buf_str(&key))) == NULL)
			continue;
		buf_reset(&b);
		buf_add(&b, text, (size_t)(at - text) + strlen(lead));
		buf_adds(&b, new);
		buf_adds(&b, at + key.len);
		json_object_set_new(item, "text", json_string(buf_str(&b)));
	}
	buf_free(&b);
	buf_free(&key);
}

static void
rewrite_waiter(const char *host, json_t *result, json_t *sc)
{
	json_t *wp = json_object_get(sc, "wait_process");
	json_t *argv = json_object_get(wp, "argv");
	const char *old = json_string_value(json_object_get(sc,
	    "wait_command"));
	struct aiterm_buf cmd = BUF_INIT;
	char *line;

	if (!json_is_array(argv) || json_array_size(argv) == 0 ||
	    (line = far_line(host, argv)) == NULL)
		return;
	json_object_set_new(wp, "argv", ssh_argv(host, waiter_opts, line,
	    &cmd));
	if (old != NULL) {
		rewrite_texts(json_object_get(result, "content"), "", old,
		    buf_str(&cmd));
		json_object_set_new(sc, "wait_command",
		    json_string(buf_str(&cmd)));
	}
	buf_free(&cmd);
	free(line);
}

static void
rewrite_watch(const char *host, json_t *result, json_t *sc)
{
	const char *old = json_string_value(json_object_get(sc, "attach"));
	struct aiterm_buf cmd = BUF_INIT;

	if (old == NULL || *old == '\0')
		return;
	json_decref(ssh_argv(host, watch_opts, old, &cmd));
	rewrite_texts(json_object_get(result, "content"), "watch: ", old,
	    buf_str(&cmd));
	json_object_set_new(sc, "attach", json_string(buf_str(&cmd)));
	buf_free(&cmd);
}

/* "answer: pty_read ..." names the call that reads it: there, too. */
static void
rewrite_answer(const char *host, json_t *result)
{
	struct aiterm_buf word = BUF_INIT;

	buf_adds(&word, "remote=");
	buf_add_word(&word, host);
	buf_addc(&word, ' ');
	rewrite_texts(json_object_get(result, "content"), "answer: pty_read ",
	    "", buf_str(&word));
	buf_free(&word);
}

void
remote_far_commands(const char *host, json_t *result)
{
	json_t *sc = json_object_get(result, "structuredContent");

	if (!json_is_object(sc))
		return;
	rewrite_waiter(host, result, sc);
	rewrite_watch(host, result, sc);
	rewrite_answer(host, result);
}
