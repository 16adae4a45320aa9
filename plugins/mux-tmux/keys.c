/*
 * The key names send_key accepts: a static table of names tmux knows
 * (checked against tmux by the integration test with bind-key, which
 * rejects an unknown name; send-keys would type it as text instead).
 */
#include <stddef.h>
#include <string.h>

#include "mux-tmux.h"

static const char *const tx_keys[] = {
	/* Editing and movement. */
	"Enter", "Escape", "Tab", "BTab", "BSpace", "Space", "Up", "Down",
	"Left", "Right", "Home", "End", "PageUp", "PageDown", "PPage",
	"NPage", "PgUp", "PgDn", "IC", "DC", "Insert", "Delete",
	/* Function keys. */
	"F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8", "F9", "F10", "F11",
	"F12",
	/* Control keys; C-[ is Escape and C-i is Tab. */
	"C-a", "C-b", "C-c", "C-d", "C-e", "C-f", "C-g", "C-h", "C-i", "C-j",
	"C-k", "C-l", "C-m", "C-n", "C-o", "C-p", "C-q", "C-r", "C-s", "C-t",
	"C-u", "C-v", "C-w", "C-x", "C-y", "C-z", "C-@", "C-Space", "C-\\",
	"C-]", "C-^", "C-_",
	/* Meta (Alt) keys. */
	"M-a", "M-b", "M-c", "M-d", "M-e", "M-f", "M-g", "M-h", "M-i", "M-j",
	"M-k", "M-l", "M-m", "M-n", "M-o", "M-p", "M-q", "M-r", "M-s", "M-t",
	"M-u", "M-v", "M-w", "M-x", "M-y", "M-z", "M-Enter", "M-BSpace",
	"M-Escape",
	/* Modified arrows and ends. */
	"C-Up", "C-Down", "C-Left", "C-Right", "M-Up", "M-Down", "M-Left",
	"M-Right", "S-Up", "S-Down", "S-Left", "S-Right", "C-Home", "C-End",
	"S-Home", "S-End",
	NULL,
};

const char *const *
tx_key_names(void)
{
	return tx_keys;
}

int
tx_key_valid(const char *key)
{
	size_t i;
	int found = 0;

	for (i = 0; key != NULL && tx_keys[i] != NULL && !found; i++)
		found = strcmp(tx_keys[i], key) == 0;
	return found;
}
