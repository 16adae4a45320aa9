/*
 * The secret page (issue 36, ADR 0037): where the person, not the model,
 * types a password a pane waits for.  Served by aiterm-mcp itself on the
 * event loop, on 127.0.0.1 only (an ephemeral port, open while an offer
 * stands), at a one-time URL http://127.0.0.1:PORT/s/TOKEN whose token
 * is 256 bits from the OS's random source.  An offer is bound to its
 * session, the pane's process (pid and start identity) and the prompt's
 * line; it ends at its first POST or after SECRET_PAGE_TTL_MS.
 *
 * GET shows which session, command and prompt it is for and a form; POST
 * (the token again in the form, Host and Origin exactly ours, from
 * 127.0.0.1) types the secret into the pane with the multiplexer's
 * literal send and Enter, only while the pane still waits at that same
 * prompt, and wipes it (mem_wipe) from every buffer that held it.
 * The secret is never written, logged or returned.
 */
#ifndef AITERM_PTY_SECRETPAGE_H
#define AITERM_PTY_SECRETPAGE_H

#include <stdbool.h>
#include <stddef.h>

#include "proc/proc.h"
#include "pty/secret.h"
#include "util/error.h"

#define SECRET_PAGE_TTL_MS	(5 * 60 * 1000)
#define SECRET_PAGE_URL_MAX	128
#define SECRET_PAGE_ID_MAX	33

struct secret_where {
	const char	*session;
	long		 pid;		/* the pane's process */
	const char	*start_id;	/* and its start identity */
	const char	*prompt;	/* the prompt's line */
	const char	*program;	/* what the multiplexer calls it */
};

/*
 * The page for where: the same URL while an offer for that session, pane
 * and prompt stands, else a new offer (replacing the session's older
 * one).  url gets the URL, id the offer's id (for elicitation: not the
 * token).  -1 with err when the page cannot listen.
 */
int	secret_page_offer(const struct secret_where *where,
	    char url[SECRET_PAGE_URL_MAX], char id[SECRET_PAGE_ID_MAX],
	    struct aiterm_error *err);

/* Called on the loop with an offer's id when its secret was typed. */
void	secret_page_on_typed(void (*cb)(const char *id));

/* An offer stands or a request is being answered. */
bool	secret_page_pending(void);

/* Drop every offer and close the listener (shutdown, tests). */
void	secret_page_close(void);

#endif
