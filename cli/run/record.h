/*
 * Run records (SUP-RUN, ADR 0023): one folder per run of a one-shot CLI,
 * <state_root>/runs/<run_id>/, with record.json (what the supervisor
 * knows: state, PIDs, times, how it ended), stdout.log and stderr.log
 * (every byte the run wrote).  The supervisor that started the run owns
 * the record and rewrites it at each change of state.
 */
#ifndef AITERM_RUN_RECORD_H
#define AITERM_RUN_RECORD_H

#include <jansson.h>
#include <stdbool.h>

#include "proc/proc.h"
#include "util/error.h"

#define RUN_RECORD_VERSION	1
#define RUN_ID_MAX		32
#define RUN_SCOPE_MAX		128

enum run_state {
	RUN_STARTING,	/* record written, not spawned yet */
	RUN_RUNNING,	/* spawned */
	RUN_EXITING,	/* being ended: TERM sent, KILL may follow */
	RUN_EXITED,	/* the process and every descendant are gone */
};

enum run_reason {
	RUN_REASON_NONE,
	RUN_REASON_EXIT,		/* it exited by itself */
	RUN_REASON_SIGNAL,		/* a signal not ours ended it */
	RUN_REASON_OVERALL_TIMEOUT,
	RUN_REASON_NO_OUTPUT_TIMEOUT,
	RUN_REASON_MANUAL_CANCEL,	/* the supervisor was told to stop */
	RUN_REASON_REPLACED,		/* a new run took its scope */
	RUN_REASON_SPAWN_ERROR,
};

struct run_record {
	char			 run_id[RUN_ID_MAX + 1];
	char			 backend[64];
	char			 scope[RUN_SCOPE_MAX + 1];	/* "" none */
	char			 session_id[128];		/* "" none */
	char			 mode[8];			/* "child" */
	json_t			*argv;				/* owned */
	char			*cwd;				/* owned */
	enum run_state		 state;
	long			 pid, pgid;			/* 0 none */
	char			 start_id[PROC_START_ID_MAX];
	long			 supervisor_pid;
	char			 supervisor_start_id[PROC_START_ID_MAX];
	long long		 started_ms, last_output_ms, ended_ms;
	long long		 timeout_ms, no_output_timeout_ms;
	enum run_reason		 reason;
	int			 exit_code;	/* valid when has_exit_code */
	bool			 has_exit_code;
	int			 exit_signal;	/* 0 none */
	unsigned		 leftovers_killed;
	char			 error[256];	/* spawn-error: why */
};

const char	*run_state_name(enum run_state s);
const char	*run_reason_name(enum run_reason r);

json_t		*run_record_to_json(const struct run_record *r);
int		 run_record_from_json(json_t *j, struct run_record *r,
		    struct aiterm_error *err);
void		 run_record_free(struct run_record *r);

/* <state_root>/runs/<id>/<name> (name NULL: the folder).  Malloc'd. */
char		*run_path(const char *run_id, const char *name);
/* Make the run's folder (0700). */
int		 run_dir_create(const char *run_id, struct aiterm_error *err);
/*
 * Write record.json: durably for starting and exited (what a crash must
 * not lose), only renamed into place for the states between.
 */
int		 run_record_write(const struct run_record *r,
		    struct aiterm_error *err);
int		 run_record_read(const char *run_id, struct run_record *r,
		    struct aiterm_error *err);

/*
 * Call fn for every run record of scope that is not exited (ids in
 * folder order); fn returns non-zero to stop.
 */
void		 run_scope_each(const char *scope,
		    int (*fn)(const struct run_record *r, void *arg), void *arg);

/* Whether pid is still the process recorded with start_id. */
bool		 run_same_process(long pid, const char *start_id);

/*
 * The no-output timeout from the overall one (seed 001's watchdog):
 * overall * ratio clamped to [min, max]; fresh runs 0.8 in [180 s, 600 s],
 * resumed runs 0.3 in [60 s, 180 s].  Never longer than overall.
 */
long long	 run_watchdog_ms(long long overall_ms, bool resume);

#endif
