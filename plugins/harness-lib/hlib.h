/*
 * Helpers the harness plugins share (a convenience library linked into
 * each of them): looking at screens, reading JSONL transcripts, versions
 * and environments.  Pure functions; nothing here does I/O.
 */
#ifndef AITERM_HLIB_H
#define AITERM_HLIB_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include <aiterm/plugin.h>

/* A list of input steps, e.g. HL_KEYS(yes, { AITERM_INPUT_KEY, "y" }). */
#define HL_KEYS(name, ...) \
	static const struct aiterm_input_step name[] = { __VA_ARGS__, \
	    { AITERM_INPUT_END, NULL } }

/* Enter alone, and Escape alone (confirm the selected item; cancel). */
extern const struct aiterm_input_step hl_enter_keys[];
extern const struct aiterm_input_step hl_escape_keys[];

/*
 * One known screen: needle (and also, when not NULL) on it means state
 * with reason, and dialog for a start-up screen the plugin can pass.
 */
struct hl_known {
	const char			*needle, *also;
	enum aiterm_screen_state	 state;
	const char			*reason, *dialog;
};

/* The first entry of table[n] the screen matches into v; false when none. */
bool	hl_match_known(const struct aiterm_screen *s,
	    const struct hl_known *table, size_t n,
	    struct aiterm_screen_verdict *v);

/* needle somewhere on the screen. */
bool	hl_has(const struct aiterm_screen *s, const char *needle);
/*
 * The last line that is not blank: *line and *len (no LF); false when the
 * screen is blank.
 */
bool	hl_last_line(const struct aiterm_screen *s, const char **line,
	    size_t *len);
/* needle in [line, line + len). */
bool	hl_line_has(const char *line, size_t len, const char *needle);
/*
 * The last line of the screen that, after leading spaces, starts with prefix:
 * its rest (after the prefix, spaces skipped) in *rest and *rest_len.
 */
bool	hl_line_starting(const struct aiterm_screen *s, const char *prefix,
	    const char **rest, size_t *rest_len);
/*
 * The text of a one-line input box drawn as "<prefix> text   │" (the last
 * line starting with prefix): *text and *len without the box's right
 * border "│" and the padding around it; false when there is none.
 */
bool	hl_box_text(const struct aiterm_screen *s, const char *prefix,
	    const char **text, size_t *len);
/*
 * A notice as the conversation's last block (hlib-block.c: a usage
 * limit's words, a hook's refusal): the last line above the last
 * composer line (a line starting with composer) that starts with one of
 * marks (NULL-ended: the prompt, answer and error glyphs, each with its
 * space) begins with one of notices; *line and *len get it (from the
 * notice on).  An older notice with a prompt or answer under it is no
 * notice.
 */
bool	hl_last_block(const struct aiterm_screen *s, const char *composer,
	    const char *const *marks, const char *const *notices,
	    const char **line, size_t *len);
/*
 * 0 when model is NULL or made of letters, digits and - . _ : /; else -1
 * with err naming cli and an example name.
 */
int	hl_check_model(const struct aiterm_host *host, const char *model,
	    const char *cli, const char *example, struct aiterm_error *err);
/*
 * A model against a catalog a CLI printed (model_check, ABI 2.2): id_of
 * finds the model id of one line (its length, 0 for a line that names
 * none).  1 listed; 0 not, err naming what is; -1 no id at all, err
 * quoting the output.
 */
int	hl_catalog(const struct aiterm_host *host, const char *out, size_t len,
	    const char *model, const char *cli,
	    size_t (*id_of)(const char *line, size_t n, const char **id),
	    struct aiterm_error *err);
/*
 * A CLI session id from a launch id: aiterm_session_uuid of the installed
 * <aiterm/harness-util.h>, which third-party plugins use.
 */
void	hl_session_uuid(const char *launch_id, char out[37]);
/* Append s and its NUL to b (an argv or env list of a launch plan). */
void	hl_arg(const struct aiterm_host *host, struct aiterm_buf *b,
	    const char *s);
/* The first dotted number ("2.1.197") of out into buf; 0, or -1. */
int	hl_version(const char *out, size_t len, char *buf, size_t size);
/* The value of key in a KEY=VALUE list, or NULL. */
const char *hl_env(const char *const *env, const char *key);
/*
 * Calls cb with every line of a JSONL text that is a JSON object (others
 * are skipped) and its index; stops when cb returns nonzero.
 */
void	hl_jsonl_each(const char *bytes, size_t len,
	    int (*cb)(json_t *obj, size_t index, void *arg), void *arg);
/* The string at key of o (a path of keys separated by '.'), or NULL. */
const char *hl_str(json_t *o, const char *path);
/* Text of a content value: a string, or the "text" of its text blocks. */
void	hl_content_text(const struct aiterm_host *host, json_t *content,
	    struct aiterm_buf *out);

/*
 * Model pickers (hlib-model.c; agent_configure, ABI 2.3).  The keys that
 * move through a list.
 */
extern const struct aiterm_input_step hl_up_keys[];
extern const struct aiterm_input_step hl_down_keys[];
extern const struct aiterm_input_step hl_left_keys[];
extern const struct aiterm_input_step hl_right_keys[];
/*
 * A name as a comparable key: ASCII letters and digits lowercased, every
 * run of other ASCII bytes one '-', other bytes dropped ("GPT-6.1 Terra"
 * and "gpt-6.1-terra" are both "gpt-6-1-terra").
 */
void	hl_norm(const char *s, size_t n, char *out, size_t size);
/*
 * Whether shown (n bytes) names model, compared by hl_norm; with prefix,
 * also when model is prefix-shown ("claude-sonnet-5-5" for "Sonnet 5.5").
 */
bool	hl_names_model(const char *shown, size_t n, const char *model,
	    const char *prefix);
/* Whether shown is model or of its family ("Sonnet 5.5" for "sonnet"). */
bool	hl_names_family(const char *shown, size_t n, const char *model);
/* One row of a numbered list: "[marker] N. Label (remark)  description". */
struct hl_item {
	const char	*label, *desc;
	size_t		 label_len, desc_len;
	bool		 selected;	/* the row carries the marker */
};
/*
 * The rows of the numbered list below the last line holding heading, at
 * most max: the count (0 when no heading is on the screen).
 */
size_t	hl_list(const struct aiterm_screen *s, const char *heading,
	    const char *marker, struct hl_item *items, size_t max);
/*
 * The row that names model, by label, then (by_desc) by the part of its
 * description before " · "; -1 none.
 */
int	hl_list_find(const struct hl_item *items, size_t n, const char *model,
	    const char *prefix, bool by_desc);
/* The selected row, or -1. */
int	hl_list_selected(const struct hl_item *items, size_t n);
/* Up or Down toward row target from the selected one; NULL when on it. */
const struct aiterm_input_step *hl_list_toward(const struct hl_item *items,
	    size_t n, int target);
/*
 * One step to take row target of a list whose Enter takes the selected
 * row: Up or Down toward it, else Enter with the taken bits set in
 * m->state.
 */
void	hl_list_take(const struct hl_item *items, size_t n, int target,
	    unsigned taken, struct aiterm_model_move *m);
/* "Label, Label, ..." of the rows into out. */
void	hl_list_names(const struct hl_item *items, size_t n, char *out,
	    size_t size);

/*
 * Receivers (hlib-receiver.c).  A client named product, or product, a
 * space and a suffix ("claude-code", "cursor-vscode 1.2").
 */
bool	hl_client_is(const char *name, const char *product);
/* An id a parent gave (tool_use_id, thread): 1-64 of [A-Za-z0-9_-]. */
bool	hl_ref_valid(const char *ref);
/* The string at a key path (NULL-ended) of the _meta JSON text, if valid. */
bool	hl_meta_ref(const char *meta_json, const char *const *path, char *out,
	    size_t size);

#endif
