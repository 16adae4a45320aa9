/* Native process identity: see identity.h. */
#include <string.h>

#include "observe/identity.h"
#include "util/buf.h"
#include "util/sha256.h"

int
obs_identity_of(const struct proc_stat *ps, struct obs_identity *id)
{
	struct aiterm_buf argv = BUF_INIT;
	char start[PROC_START_ID_MAX];
	int rc = -1;

	memset(id, 0, sizeof *id);
	if (ps->state == PROC_ZOMBIE || ps->start_id[0] == '\0' ||
	    proc_argv(ps->pid, &argv) != 0)
		goto out;
	/* Read after argv: the argv was this process's, not a successor's. */
	if (proc_start_id(ps->pid, start, sizeof start) != 0 ||
	    strcmp(start, ps->start_id) != 0)
		goto out;
	id->pid = ps->pid;
	memcpy(id->start_id, ps->start_id, sizeof id->start_id);
	sha256_hex(argv.data, argv.len, id->argv_digest, OBS_DIGEST_HEX);
	rc = 0;
out:
	buf_free(&argv);
	return rc;
}

json_t *
obs_identity_json(const struct obs_identity *id)
{
	if (id == NULL)
		return json_null();
	return json_pack("{s:I, s:s, s:s}", "pid", (json_int_t)id->pid,
	    "start_id", id->start_id, "argv_digest", id->argv_digest);
}
