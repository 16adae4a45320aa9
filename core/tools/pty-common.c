#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "plugin/host.h"
#include "pty/logpipe.h"
#include "pty/output.h"
#include "pty/secretpage.h"
#include "shell/utf8.h"
#include "state/errtally.h"
#include "tools/pty-common.h"
#include "util/buf.h"
#include "util/xmalloc.h"

struct pending_wait {
	struct tool_call	*call;
	struct waiter		*waiter;
	char			*session;
	char			*typed;		/* to a REPL: its echo goes */
	char			*prefix;	/* pty_sanitized's line */
	json_t			*sanitized;	/* and its object */
	bool			 raw;
	bool			 off_shell;	/* sent past the shell (nested, direct) */
	double			 timeout;
	char			*head;		/* the open's lines (pty_open command) */
	json_t			*head_sc;	/* and its fields */
	struct session_meta	 meta;
	struct session_command	 cmd;
	bool			 have_cmd;
	struct send_job		*hold;	/* the send's turn, given back at the end */
	/*
	 * A secret prompt's result held while the client is asked to send
	 * the person to the page (issue 36): its text and fields.
	 */
	struct tool_elicit_wait	*elicit;
	char			*held_text;
	json_t			*held_result;
	char			*held_url;
	char			*held_attach;
};

int
pty_wait_args(json_t *args, struct pty_wait *w, struct aiterm_error *err)
{
	json_t *t = json_object_get(args, "timeout");

	w->until = json_string_value(json_object_get(args, "until"));
	w->until_regex = json_is_true(json_object_get(args, "until_regex"));
	w->wait = json_is_true(json_object_get(args, "wait")) ||
	    w->until != NULL;
	w->timeout = t == NULL ? PTY_DEFAULT_TIMEOUT : json_number_value(t);
	w->head = NULL;
	w->head_sc = NULL;
	if (w->until != NULL && w->until_regex &&
	    waiter_check_regex(w->until, err) != 0)
		return -1;
	return 0;
}

/*
 * The status line after the output.  Success is silent: a command that
 * printed something and ended with exit 0 gets none (ADR 0009), so that
 * what the model reads is never longer than what the command printed;
 * so does output that the caller's until matched (ADR 0040: a REPL's
 * every send ended "[until matched]", 4 tokens, and its prompt is there
 * to see); every other end, and a success that printed nothing, says
 * itself.
 * The common end, a command's exit code, is the bare "exit N" (3 tokens,
 * ADR 0029); the others stay in brackets, they are the unusual ends.
 * printed: the result holds output before the status line.
 */
static void
status_line(struct aiterm_buf *b, const struct waiter_result *r,
    double timeout, bool printed)
{
	char dur[32] = "";

	if (printed && ((r->via == VIA_SENTINEL && r->exit_code == 0) ||
	    r->via == VIA_UNTIL))
		return;
	if (r->duration_ms >= 1000)
		snprintf(dur, sizeof dur, " · %.1fs", r->duration_ms / 1000);
	switch (r->via) {
	case VIA_SENTINEL:
		buf_printf(b, "exit %d%s", r->exit_code, dur);
		break;
	case VIA_EXIT:
		if (r->exit_code >= 0)
			buf_printf(b, "[process exited, status %d%s]",
			    r->exit_code, dur);
		else
			buf_printf(b, "[process exited, status unknown%s]",
			    dur);
		break;
	case VIA_UNTIL:
		buf_printf(b, "[until matched%s]", dur);
		break;
	case VIA_QUIESCENT:
		buf_printf(b, "[quiet, shell idle%s]", dur);
		break;
	case VIA_NESTED:
		buf_printf(b, "[no completion evidence: a program other than "
		    "the shell is in the foreground; pass until=... to wait "
		    "for its prompt%s]", dur);
		break;
	case VIA_INPUT:
		/* The session changed hands: say to whom (issue 34). */
		buf_printf(b, "[%s waits for input%s]", r->program[0] != '\0' ?
		    r->program : "the program", dur);
		break;
	case VIA_SECRET:
		/* Never the model's to answer (issue 36). */
		buf_printf(b, "[waiting for a secret: %s%s%s%s]", r->prompt,
		    r->program[0] != '\0' ? " (" : "", r->program,
		    r->program[0] != '\0' ? ")" : "");
		break;
	case VIA_TIMEOUT:
		buf_printf(b, "[still running after %gs; pty_read wait=true "
		    "keeps waiting]", timeout);
		break;
	case VIA_LOST:
		buf_printf(b, "[session lost]");
		break;
	}
}

/*
 * The status of a read that did not wait: the exit code when the command's
 * end passed in this read (none for exit 0 after output: success is
 * silent), else whether it is still running.
 */
static void
read_status(struct aiterm_buf *b, const struct pending_wait *pw,
    const struct output_text *out)
{
	/* Text typed into a program has no end mark to wait for. */
	bool running = pw->have_cmd && !pw->cmd.done &&
	    pw->cmd.mark != MARK_NONE;

	if (out->done_seen && pw->have_cmd && pw->cmd.done) {
		if (pw->cmd.exit_code != 0 || out->text.len == 0)
			buf_printf(b, "exit %d", pw->cmd.exit_code);
	}
	else if (running && out->text.len == 0)
		buf_adds(b, "[no new output; still running]");
	else if (running)
		buf_adds(b, "[still running]");
	else if (out->text.len == 0)
		buf_adds(b, "[no new output]");
}

static json_t *
result_json(const char *session, const struct waiter_result *r,
    const struct output_text *o, const char *mode)
{
	json_t *j = json_pack("{s:s, s:I, s:I, s:I, s:s}", "session_id",
	    session, "cursor", (json_int_t)o->to, "line", (json_int_t)o->line,
	    "bytes", (json_int_t)(o->to - o->from), "mode", mode);

	if (r == NULL) {
		json_object_set_new(j, "complete", json_null());
		json_object_set_new(j, "via", json_null());
		json_object_set_new(j, "exit_code", json_null());
		json_object_set_new(j, "duration_ms", json_null());
	} else {
		json_object_set_new(j, "complete", json_boolean(r->complete));
		json_object_set_new(j, "via",
		    json_string(waiter_via_name(r->via)));
		json_object_set_new(j, "exit_code", r->exit_code >= 0 &&
		    (r->via == VIA_SENTINEL || r->via == VIA_EXIT) ?
		    json_integer(r->exit_code) : json_null());
		json_object_set_new(j, "duration_ms",
		    json_real(r->duration_ms));
		if (r->via == VIA_SECRET)
			json_object_set_new(j, "secret", json_pack("{s:s, s:s}",
			    "prompt", r->prompt, "program", r->program));
	}
	json_object_set_new(j, "reducer", o->reducer[0] != '\0' ?
	    json_sprintf("%s %s", o->reducer, o->reducer_version) :
	    json_null());
	json_object_set_new(j, "omitted", o->omitted_last > 0 ?
	    json_pack("[I, I]", (json_int_t)o->omitted_first,
	    (json_int_t)o->omitted_last) : json_null());
	return j;
}

/* "HH:MM:SS" (UTC) of a time in ms, and the whole ISO form into iso. */
static void
lost_time(long long ms, char hms[16], char iso[32])
{
	time_t t = (time_t)(ms / 1000);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(hms, 16, "%H:%M:%S", &tm);
	strftime(iso, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/*
 * Output the log could not take (a full disk) inside the bytes this read
 * covers: said in the text with what the screen shows now, and as
 * "lost" in the structured result (core/pty/logpipe.h).
 */
static void
lost_report(const char *session, const struct output_text *out,
    struct aiterm_buf *text, json_t *result)
{
	struct aiterm_error err = ERROR_INIT;
	const struct aiterm_mux_ops *mux;
	struct aiterm_buf screen = BUF_INIT, clean = BUF_INIT;
	struct logpipe_gap gap;
	char *log = session_path(session, "output.log");
	char from[16], to[16], from_iso[32], to_iso[32];

	if (log == NULL || logpipe_gaps(log, out->from, out->to, &gap) == 0)
		goto out;
	errtally_note(ERRTALLY_LOG_WRITE_FAILED);
	lost_time(gap.from_ms, from, from_iso);
	lost_time(gap.to_ms, to, to_iso);
	mux = session_mux(&err);
	if (mux == NULL || mux->capture(host_get(), session, &screen,
	    &err) != 0)
		error_clear(&err);
	else
		utf8_clean(buf_str(&screen), screen.len, &clean);
	buf_printf(text, "[%" PRIu64 " bytes of output were lost from %s to "
	    "%s UTC: the state root's disk was full. The screen now "
	    "shows:]\n%s", gap.bytes, from, to,
	    clean.len > 0 ? buf_str(&clean) : "(the screen could not be read)\n");
	if (text->len > 0 && text->data[text->len - 1] != '\n')
		buf_addc(text, '\n');
	json_object_set_new(result, "lost", json_pack("{s:I, s:s, s:s, s:s}",
	    "bytes", (json_int_t)gap.bytes, "from", from_iso, "to", to_iso,
	    "screen", clean.len > 0 ? buf_str(&clean) : ""));
out:
	buf_free(&screen);
	buf_free(&clean);
	free(log);
}

static const char *const elicit_names[] = {
	[TOOL_ELICIT_NONE] = "none", [TOOL_ELICIT_FORM] = "form",
	[TOOL_ELICIT_URL] = "url",
};

/* The line for the model: where the person types it, and to wait. */
static void
secret_tell(struct aiterm_buf *text, const char *why, const char *url,
    const char *attach)
{
	buf_printf(text, "\n[%stell the person: open %s to type it (works "
	    "once, for %d minutes), or type it in the terminal: %s. Do not "
	    "ask them for it; wait for them: pty_read wait=true]", why, url,
	    SECRET_PAGE_TTL_MS / 60000, attach);
}

static void pending_free(struct pending_wait *pw);

/* The client answered the elicitation (or did not in time). */
static void
secret_answered(void *arg, const char *action)
{
	struct pending_wait *pw = arg;
	struct aiterm_buf text = BUF_INIT;
	char why[96];

	pw->elicit = NULL;
	buf_adds(&text, pw->held_text);
	json_object_set_new(json_object_get(pw->held_result, "secret"),
	    "elicitation_answer", json_string(action));
	if (strcmp(action, "accept") == 0)
		buf_printf(&text, "\n[the person was asked through the client "
		    "and opened the secret page; or they type it in the "
		    "terminal: %s. Do not ask them for it; wait for them: "
		    "pty_read wait=true]", pw->held_attach);
	else {
		snprintf(why, sizeof why, "the client's elicitation ended: "
		    "%s; ", action);
		secret_tell(&text, why, pw->held_url, pw->held_attach);
	}
	tool_call_reply(pw->call, buf_steal(&text, NULL), pw->held_result);
	pw->held_result = NULL;
	pending_free(pw);
}

/*
 * A pane that waits for a secret (issue 36, ADR 0037): the page where the
 * person types it, asked for through the client where it can (the reply
 * then waits for its answer: true, text and result taken), else told in
 * the text for the model to pass on.  Never the model's to answer.
 */
static bool
secret_offer(struct pending_wait *pw, const struct waiter_result *r,
    struct aiterm_buf *text, json_t *result)
{
	struct secret_where where = {
		.session = pw->session, .pid = r->pane_pid,
		.start_id = r->start_id, .prompt = r->prompt,
		.program = r->program,
	};
	struct aiterm_error err = ERROR_INIT;
	char url[SECRET_PAGE_URL_MAX], id[SECRET_PAGE_ID_MAX];
	char *attach, *message;
	json_t *sc = json_object_get(result, "secret");
	enum tool_elicit how;

	/* The socket was asked on the multiplexer's worker (waiter.c). */
	attach = xasprintf("tmux -S %s attach -t %s", r->mux_socket,
	    pw->session);
	json_object_set_new(sc, "attach", json_string(attach));
	if (secret_page_offer(&where, url, id, &err) != 0) {
		buf_printf(text, "\n[%s; the person types it in the terminal: "
		    "%s. Do not ask them for it; pty_read wait=true after]",
		    error_msg(&err), attach);
		json_object_set_new(sc, "elicitation", json_string("none"));
		error_clear(&err);
		free(attach);
		return false;
	}
	json_object_set_new(sc, "url", json_string(url));
	message = xasprintf("Aiterm session %s (%s) waits for a secret at "
	    "\"%s\". Open the page to type it: it goes into that terminal "
	    "only, never to the AI.", pw->session, r->program, r->prompt);
	how = tool_call_elicit_url(pw->call, message, url, id,
	    secret_answered, pw, &pw->elicit);
	free(message);
	json_object_set_new(sc, "elicitation", json_string(elicit_names[how]));
	if (how == TOOL_ELICIT_URL) {
		pw->held_text = buf_steal(text, NULL);
		pw->held_result = result;
		pw->held_url = xstrdup(url);
		pw->held_attach = attach;
		return true;
	}
	secret_tell(text, how == TOOL_ELICIT_FORM ? "this client elicits by "
	    "forms only, never for secrets; " : "", url, attach);
	free(attach);
	return false;
}

/* false when the reply was made, true when it waits (secret_offer). */
static bool
reply(struct pending_wait *pw, const struct waiter_result *r)
{
	struct output_request req = {
		.session = pw->session, .meta = &pw->meta,
		.nonce = pw->have_cmd && pw->cmd.nonce[0] != '\0' ?
		    pw->cmd.nonce : NULL,
		.typed = pw->typed,
		/*
		 * A nested command's result ends at its end mark: the prompt
		 * after it is the next command's to drop (issue 34).
		 */
		.to = r == NULL ? UINT64_MAX : r->mark_end > 0 ? r->mark_end :
		    r->scanned,
		.raw = pw->raw, .advance = true,
		/* on_done has marked the command done when its end was seen. */
		.command = pw->have_cmd ? &pw->cmd : NULL,
		.command_done = pw->have_cmd && pw->cmd.done,
		.exit_code = pw->have_cmd && pw->cmd.done ? pw->cmd.exit_code : -1,
		.client_cut = tool_call_shown_bytes(pw->call),
	};
	struct aiterm_error err = ERROR_INIT;
	struct output_text out;
	struct aiterm_buf text = BUF_INIT;
	json_t *result;
	bool held = false;

	if (output_collect(&req, &out, &err) != 0) {
		tool_call_fail(pw->call, "%s", error_msg(&err));
		error_clear(&err);
		return false;
	}
	if (r == NULL && out.done_seen && pw->have_cmd && !pw->cmd.done &&
	    pw->cmd.ahead == 0) {
		/* A plain read passed the command's end mark. */
		pw->cmd.done = true;
		pw->cmd.exit_code = out.done_exit;
		session_command_write(pw->session, &pw->cmd, &err);
		error_clear(&err);
	}
	if (pw->head != NULL)
		buf_adds(&text, pw->head);
	if (pw->prefix != NULL)
		buf_adds(&text, pw->prefix);
	buf_add(&text, out.text.data == NULL ? "" : out.text.data,
	    out.text.len);
	if (text.len > 0 && text.data[text.len - 1] != '\n')
		buf_addc(&text, '\n');
	result = result_json(pw->session, r, &out, "output");
	if (pw->head_sc != NULL)
		json_object_update_missing(result, pw->head_sc);
	if (pw->sanitized != NULL)
		json_object_set(result, "sanitized", pw->sanitized);
	lost_report(pw->session, &out, &text, result);
	/* Typed past the shell, ended by the shell's own mark: it is back. */
	if (r != NULL && r->via == VIA_SENTINEL && r->by_shell &&
	    pw->off_shell)
		buf_adds(&text, "[back at the shell]\n");
	if (r != NULL)
		status_line(&text, r, pw->timeout, out.text.len > 0);
	if (r != NULL && r->via == VIA_SECRET)
		held = secret_offer(pw, r, &text, result);
	else if (r == NULL)
		read_status(&text, pw, &out);
	if (text.len > 0 && text.data[text.len - 1] == '\n')
		text.data[--text.len] = '\0';
	/*
	 * The result is whole and the read cursor written: a turn this send
	 * held goes back now, before the caller hears of it, so the caller
	 * never finds the session still taken by its own finished send.
	 */
	send_release(pw->hold);
	pw->hold = NULL;
	if (held) {
		/* secret_answered replies; the send's turn is back already. */
		output_text_free(&out);
		return true;
	}
	if (r != NULL && r->via == VIA_LOST) {
		errtally_note(ERRTALLY_MUX_LOST);
		tool_call_fail(pw->call, "session '%s' lost: its terminal no "
		    "longer exists in the multiplexer; pty_close it and "
		    "pty_open a new one", pw->session);
	} else {
		tool_call_reply(pw->call, buf_steal(&text, NULL), result);
		result = NULL;
	}
	json_decref(result);
	buf_free(&text);
	output_text_free(&out);
	return false;
}

static void
pending_free(struct pending_wait *pw)
{
	send_release(pw->hold);
	free(pw->session);
	free(pw->typed);
	free(pw->prefix);
	free(pw->head);
	json_decref(pw->head_sc);
	json_decref(pw->sanitized);
	tool_elicit_cancel(pw->elicit);
	free(pw->held_text);
	json_decref(pw->held_result);
	free(pw->held_url);
	free(pw->held_attach);
	free(pw);
}

/* The session's record still names the command this call waited for. */
static bool
still_ours(const struct pending_wait *pw)
{
	struct session_command now;

	return session_command_read(pw->session, &now) == 0 &&
	    now.offset == pw->cmd.offset && now.sent_ms == pw->cmd.sent_ms;
}

static void
on_done(void *arg, const struct waiter_result *r)
{
	struct pending_wait *pw = arg;
	struct aiterm_error err = ERROR_INIT;

	if (pw->have_cmd && r->complete && (r->via == VIA_SENTINEL ||
	    r->via == VIA_EXIT) && still_ours(pw)) {
		pw->cmd.done = true;
		pw->cmd.exit_code = r->exit_code;
		pw->cmd.end = r->end;
		session_command_write(pw->session, &pw->cmd, &err);
		error_clear(&err);
	}
	/* The waiter frees itself once done: a cancel must not touch it. */
	pw->waiter = NULL;
	if (!reply(pw, r))
		pending_free(pw);
}

static void
on_progress(void *arg, double elapsed_ms)
{
	struct pending_wait *pw = arg;

	tool_call_progress(pw->call, elapsed_ms / 1000, pw->timeout,
	    "waiting for completion");
}

static void
on_cancel(struct tool_call *call)
{
	struct pending_wait *pw = tool_call_data(call);

	if (pw->waiter != NULL)
		waiter_cancel(pw->waiter);
	tool_call_fail(call, "cancelled");
	pending_free(pw);
}

/* The kinds of struct shell_removed: their key and their words. */
static const struct {
	const char	*key;	/* in structuredContent's "sanitized" */
	const char	*one;	/* in the text */
	const char	*many;
} removed_kinds[SANITIZE_KINDS] = {
	[SANITIZE_CONTROL] = { "controls", "control character",
	    "control characters" },
	[SANITIZE_C1] = { "c1_controls", "C1 control", "C1 controls" },
	[SANITIZE_ESCAPE] = { "escape_sequences", "escape sequence",
	    "escape sequences" },
};

/*
 * Issue 37: control bytes went from a send's text without a word, and
 * "echo start\u0003echo after" ran as "echo startecho after".
 */
char *
pty_sanitized(const struct shell_removed *r, json_t **sc)
{
	struct aiterm_buf b = BUF_INIT;
	const char *sep = "";
	size_t i, n;

	*sc = NULL;
	if (r->bytes == 0)
		return NULL;
	*sc = json_pack("{s:I, s:s}", "bytes", (json_int_t)r->bytes, "first",
	    r->first);
	buf_adds(&b, "[text sanitized: removed ");
	for (i = 0; i < SANITIZE_KINDS; i++) {
		n = r->count[i];
		json_object_set_new(*sc, removed_kinds[i].key,
		    json_integer((json_int_t)n));
		if (n == 0)
			continue;
		buf_printf(&b, "%s%zu %s", sep, n, n == 1 ?
		    removed_kinds[i].one : removed_kinds[i].many);
		sep = ", ";
	}
	buf_printf(&b, " (first %s); pty_key sends keys, raw=true sends "
	    "text as is]\n", r->first);
	return buf_steal(&b, NULL);
}

void
pty_wait_and_reply(struct tool_call *call, const char *session,
    const struct pty_wait *w, const struct send_outcome *sent, bool raw)
{
	struct pending_wait *pw = xcalloc(1, sizeof *pw);
	struct aiterm_error err = ERROR_INIT;
	struct session_cursor cur;
	struct waiter_opts o;

	pw->call = call;
	pw->session = xstrdup(session);
	pw->typed = sent != NULL && sent->typed != NULL ?
	    xstrdup(sent->typed) : NULL;
	pw->hold = sent != NULL ? sent->hold : NULL;
	if (sent != NULL)
		pw->prefix = pty_sanitized(&sent->removed, &pw->sanitized);
	pw->raw = raw;
	pw->off_shell = sent != NULL && sent->route != SEND_SHELL;
	pw->timeout = w->timeout;
	pw->head = w->head != NULL ? xstrdup(w->head) : NULL;
	pw->head_sc = json_incref(w->head_sc);
	if (session_meta_read(session, &pw->meta, &err) != 0) {
		tool_call_fail(call, "%s", error_msg(&err));
		goto out_free;
	}
	/* A send waits for its own command, whatever came after it. */
	if (sent != NULL) {
		pw->cmd = sent->cmd;
		pw->have_cmd = true;
	} else
		pw->have_cmd = session_command_read(session, &pw->cmd) == 0;
	if (!w->wait) {
		reply(pw, NULL);
		goto out_free;
	}
	session_cursor_read(session, &cur);
	memset(&o, 0, sizeof o);
	o.session = session;
	o.from = cur.offset;
	o.region = (enum render_region)cur.region;
	o.expect_mark = pw->have_cmd && !pw->cmd.done &&
	    pw->cmd.mark != MARK_NONE;
	o.mark_after = pw->have_cmd ? pw->cmd.offset : 0;
	o.marks_ahead = pw->have_cmd && !pw->cmd.done ? pw->cmd.ahead : 0;
	o.drop_prompt = pw->meta.start_marks;
	o.token = pw->meta.token;
	o.nonce = pw->have_cmd && pw->cmd.nonce[0] != '\0' ? pw->cmd.nonce :
	    NULL;
	o.until = w->until;
	o.until_regex = w->until_regex;
	/* A send's until matches its own output, not what came before. */
	o.until_from = sent != NULL ? sent->cmd.offset : 0;
	/* A program the shell started and that now waits ends the wait. */
	o.input_end = sent != NULL && sent->route == SEND_SHELL;
	/* Typed to a program at its prompt: its next prompt ends the wait. */
	o.expect_prompt = sent != NULL && sent->route == SEND_DIRECT &&
	    sent->prompting;
	o.timeout_s = w->timeout;
	o.quiet_ms = PTY_QUIET_MS;
	/* The send found the pane alive just now: no second query. */
	o.pane_pid = sent != NULL ? sent->shell_pid : 0;
	o.done = on_done;
	o.progress = on_progress;
	o.arg = pw;
	pw->waiter = waiter_start(&o, &err);
	if (pw->waiter == NULL) {
		tool_call_fail(call, "%s", error_msg(&err));
		goto out_free;
	}
	tool_call_set_data(call, pw, on_cancel);
	return;
out_free:
	error_clear(&err);
	pending_free(pw);
}

void
pty_reply_plain(struct tool_call *call, const char *session,
    const char *mode, char *text, const struct output_text *lines)
{
	struct output_text o;

	memset(&o, 0, sizeof o);
	if (lines != NULL) {
		o.from = lines->from;
		o.to = lines->to;
		o.line = lines->line;
		o.omitted_first = lines->omitted_first;
		o.omitted_last = lines->omitted_last;
	}
	tool_call_reply(call, text, result_json(session, NULL, &o, mode));
}
