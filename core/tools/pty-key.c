/* pty_key (PTY-KEYS): send one named key. */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "plugin/host.h"
#include "pty/send.h"
#include "tools/on-mux.h"
#include "tools/tool.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* Friendly names; tmux's own names are accepted as they are. */
static const struct {
	const char	*alias;
	const char	*key;
} aliases[] = {
	{ "enter", "Enter" }, { "return", "Enter" }, { "esc", "Escape" },
	{ "escape", "Escape" }, { "tab", "Tab" }, { "shift-tab", "BTab" },
	{ "backspace", "BSpace" }, { "space", "Space" }, { "up", "Up" },
	{ "down", "Down" }, { "left", "Left" }, { "right", "Right" },
	{ "home", "Home" }, { "end", "End" }, { "pageup", "PageUp" },
	{ "pagedown", "PageDown" }, { "delete", "DC" }, { "del", "DC" },
	{ "insert", "IC" },
};

/* "ctrl-c", "ctrl+c", "c-c" -> "C-c"; "alt-x" -> "M-x"; "f5" -> "F5". */
static bool
modifier_key(const char *in, char *out, size_t size)
{
	static const struct {
		const char	*prefix;
		const char	*tmux;
	} mods[] = {
		{ "ctrl-", "C-" }, { "ctrl+", "C-" }, { "c-", "C-" },
		{ "alt-", "M-" }, { "alt+", "M-" }, { "meta-", "M-" },
		{ "m-", "M-" },
	};
	size_t i, n;

	for (i = 0; i < sizeof mods / sizeof mods[0]; i++) {
		n = strlen(mods[i].prefix);
		if (strncasecmp(in, mods[i].prefix, n) == 0 &&
		    strlen(in + n) == 1) {
			snprintf(out, size, "%s%c", mods[i].tmux,
			    tolower((unsigned char)in[n]));
			return true;
		}
	}
	if ((in[0] == 'f' || in[0] == 'F') && isdigit((unsigned char)in[1])) {
		snprintf(out, size, "F%s", in + 1);
		return true;
	}
	return false;
}

static const char *
resolve(const char *in, const char *const *valid, char *buf, size_t size)
{
	size_t i;

	for (i = 0; valid != NULL && valid[i] != NULL; i++) {
		if (strcmp(valid[i], in) == 0)
			return valid[i];
	}
	/* One printable character is its own key (q, y, /, ...). */
	if (in[0] != '\0' && in[1] == '\0' && isprint((unsigned char)in[0]) &&
	    in[0] != ' ') {
		snprintf(buf, size, "%s", in);
		return buf;
	}
	for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++) {
		if (strcasecmp(aliases[i].alias, in) == 0)
			return aliases[i].key;
	}
	if (!modifier_key(in, buf, size))
		return NULL;
	for (i = 0; valid != NULL && valid[i] != NULL; i++) {
		if (strcmp(valid[i], buf) == 0)
			return valid[i];
	}
	return NULL;
}

/* On the multiplexer's thread: the session checked, the key pressed. */
static void
key_work(json_t *args, struct mux_result *r)
{
	const char *id = json_string_value(json_object_get(args,
	    "session_id"));
	const char *key = json_string_value(json_object_get(args, "key"));
	const struct aiterm_mux_ops *mux;
	struct aiterm_pane_info info;
	struct session_meta meta;
	struct aiterm_buf names = BUF_INIT;
	const char *const *valid;
	const char *tmux_key;
	char buf[32];
	size_t i;

	if (send_check_session(id, &meta, &info, &r->err) != 0 ||
	    (mux = session_mux(&r->err)) == NULL)
		return;
	valid = mux->key_names();
	tmux_key = resolve(key, valid, buf, sizeof buf);
	if (tmux_key == NULL) {
		for (i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
			buf_printf(&names, "%s, ", aliases[i].alias);
		buf_adds(&names, "ctrl-<letter>, alt-<letter>, f1-f12, one "
		    "printable character, or a tmux key name: ");
		for (i = 0; valid != NULL && valid[i] != NULL; i++)
			buf_printf(&names, "%s%s", i == 0 ? "" : " ", valid[i]);
		error_set(&r->err, "unknown key '%.40s'; valid keys: %s", key,
		    buf_str(&names));
		buf_free(&names);
		return;
	}
	if (mux->send_key(host_get(), id, tmux_key, &r->err) != 0)
		return;
	r->text = xasprintf("sent %s", tmux_key);
	r->structured = json_pack("{s:s, s:s}", "session_id", id, "key",
	    tmux_key);
}

static void
pty_key_call(struct tool_call *call)
{
	tool_call_on_mux(call, "pty_key", key_work);
}

const struct tool_entry tool_pty_key = {
	.name = "pty_key",
	.title = "Press a key",
	.description = "Press one key: enter, esc, tab, up/down/left/right, "
	    "ctrl-c, ctrl-d, backspace, f1-f12, a character (q, y), or a tmux "
	    "key name (C-x, M-x).",
	.input_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},"
	    "\"key\":{\"type\":\"string\",\"minLength\":1,\"maxLength\":32}},"
	    "\"required\":[\"session_id\",\"key\"],"
	    "\"additionalProperties\":false}",
	.output_schema = "{\"type\":\"object\",\"properties\":{"
	    "\"session_id\":{\"type\":\"string\"},\"key\":{\"type\":"
	    "\"string\"}},\"required\":[\"session_id\",\"key\"]}",
	.hints = TOOL_DESTRUCTIVE | TOOL_OPEN_WORLD,
	.call = pty_key_call,
	.relayable = true,
	.session_target = true,
	.always_load = true,
};
