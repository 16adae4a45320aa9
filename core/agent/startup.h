/*
 * Bringing a launched agent CLI to its composer (AGT-START): every change
 * of the pane's output log (inotify) wakes a look at the screen; a known
 * start-up screen the launch may advance (workspace trust, the theme
 * picker, ...) gets its harness's keys, a login or account choice stops
 * with vendor_onboarding_required and types nothing, a CLI that exits
 * stops with its status.  A deadline bounds it; nothing blocks the loop.
 */
#ifndef AITERM_AGENT_STARTUP_H
#define AITERM_AGENT_STARTUP_H

#include "agent/screen.h"

#define STARTUP_DEFAULT_MS	30000

/* How a start-up ended; one name each (the receipt's "startup"). */
enum startup_state {
	STARTUP_READY,
	STARTUP_ONBOARDING,		/* vendor_onboarding_required */
	STARTUP_EXITED,
	STARTUP_NEEDS_USER,
	STARTUP_APPROVAL,
	STARTUP_RATE_LIMITED,
	/* The deadline passed, or a look or a key failed. */
	STARTUP_NOT_READY,
	/*
	 * Not looked at: a launch without a prompt and without trust_project
	 * (the first send checks it).  A start-up never ends with it.
	 */
	STARTUP_NOT_CHECKED,
	STARTUP_STATE_COUNT
};

const char	*startup_state_name(enum startup_state s);

struct startup_result {
	enum startup_state		 state;
	struct aiterm_screen_verdict	 verdict;	/* the last look */
	int				 exit_status;	/* exited; -1 unknown */
	char				 advanced[256];	/* dialogs passed */
	char				 screen_tail[1024]; /* exited: last lines */
	long long			 ms;
};

typedef void (*startup_cb)(void *arg, const struct startup_result *r);
struct startup;

/* cb is called once; the harness must outlive the start-up. */
struct startup *agent_startup_begin(const struct harness *h,
	    const char *session, int trust_project, unsigned timeout_ms,
	    startup_cb cb, void *arg);
/* Stop without calling cb (a cancelled call). */
void	agent_startup_cancel(struct startup *s);

#endif
