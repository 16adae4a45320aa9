#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "remote/relay.h"
#include "remote/waitcmd.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* The options of the waiter's ssh: never a prompt, a dead link noticed. */
static const char *const ssh_opts[] = {
	"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o",
	"ServerAliveInterval=15",
};

/* The far argv as one command line for the far login shell. */
static char *
far_line(json_t *argv)
{
	struct aiterm_buf b = BUF_INIT;
	size_t i;
	json_t *a;

	json_array_foreach(argv, i, a) {
		if (!json_is_string(a)) {
			buf_free(&b);
			return NULL;
		}
		if (i > 0)
			buf_addc(&b, ' ');
		buf_add_word(&b, json_string_value(a));
	}
	return buf_steal(&b, NULL);
}

/* Replace the first old in every text item of content by new. */
static void
rewrite_texts(json_t *content, const char *old, const char *new)
{
	struct aiterm_buf b = BUF_INIT;
	const char *text, *at;
	size_t i;
	json_t *item;

	json_array_foreach(content, i, item) {
		text = json_string_value(json_object_get(item, "text"));
		if (text == NULL || (at = strstr(text, old)) == NULL)
			continue;
		buf_reset(&b);
		buf_add(&b, text, (size_t)(at - text));
		buf_adds(&b, new);
		buf_adds(&b, at + strlen(old));
		json_object_set_new(item, "text", json_string(buf_str(&b)));
	}
	buf_free(&b);
}

void
remote_wait_rewrite(const char *host, json_t *result)
{
	json_t *sc = json_object_get(result, "structuredContent");
	json_t *argv = json_object_get(json_object_get(sc, "wait_process"),
	    "argv"), *ssh, *w;
	const char *old = json_string_value(json_object_get(sc,
	    "wait_command")), *config = getenv("AITERM_SSH_CONFIG");
	struct aiterm_buf cmd = BUF_INIT;
	char *line, *dest, port[16];
	size_t i;

	if (!json_is_array(argv) || json_array_size(argv) == 0 ||
	    (line = far_line(argv)) == NULL)
		return;
	remote_ssh_dest(host, &dest, port, sizeof port);
	ssh = json_array();
	json_array_append_new(ssh, json_string("ssh"));
	for (i = 0; i < sizeof ssh_opts / sizeof ssh_opts[0]; i++)
		json_array_append_new(ssh, json_string(ssh_opts[i]));
	if (port[0] != '\0') {
		json_array_append_new(ssh, json_string("-p"));
		json_array_append_new(ssh, json_string(port));
	}
	if (config != NULL && *config != '\0') {
		json_array_append_new(ssh, json_string("-F"));
		json_array_append_new(ssh, json_string(config));
	}
	json_array_append_new(ssh, json_string("--"));
	json_array_append_new(ssh, json_string(dest));
	json_array_append_new(ssh, json_string(line));
	json_array_foreach(ssh, i, w) {
		if (i > 0)
			buf_addc(&cmd, ' ');
		buf_add_word(&cmd, json_string_value(w));
	}
	json_object_set_new(json_object_get(sc, "wait_process"), "argv", ssh);
	if (old != NULL) {
		rewrite_texts(json_object_get(result, "content"), old,
		    buf_str(&cmd));
		json_object_set_new(sc, "wait_command",
		    json_string(buf_str(&cmd)));
	}
	buf_free(&cmd);
	free(line);
	free(dest);
}
