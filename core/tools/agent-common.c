#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/record.h"
#include "plugin/host.h"
#include "pty/paneenv.h"
#include "pty/logpipe.h"
#include "tools/agent-common.h"
#include "util/buf.h"
#include "util/xmalloc.h"

extern char **environ;

int
agent_session_name(const char *name, char id[SESSION_ID_MAX + 1],
    struct aiterm_error *err)
{
	const struct aiterm_mux_ops *mux = session_mux(err);
	struct aiterm_pane_info pane;

	if (mux == NULL)
		return -1;
	if (name != NULL && !session_id_valid(name))
		return error_set(err, "invalid name '%.80s': use 1-64 of A-Z "
		    "a-z 0-9 _ - (not starting with -)", name);
	if (name != NULL) {
		snprintf(id, SESSION_ID_MAX + 1, "%s", name);
	} else {
		memcpy(id, "agent-", 6);
		session_random_hex(id + 6, 6);
		id[12] = '\0';
	}
	memset(&pane, 0, sizeof pane);
	if (session_exists_on_disk(id) || (mux->pane_info(host_get(), id,
	    &pane, err) == 0 && pane.exists))
		return error_set(err, "session '%s' already exists; pty_close "
		    "it first or choose another name", id);
	error_clear(err);
	return 0;
}

/* NUL-separated elements of b as a NULL-terminated array into b's data. */
static const char **
split(struct aiterm_buf *b, size_t extra)
{
	size_t n = 0, i, k = 0;
	const char **v;

	for (i = 0; i < b->len; i++)
		n += b->data[i] == '\0';
	v = xcalloc(n + extra + 1, sizeof *v);
	for (i = 0; i < b->len; i += strlen(b->data + i) + 1)
		v[k++] = b->data + i;
	return v;
}

static int
write_records(const struct agent_spawn *sp, const char *launch_id,
    const char *const *env, struct aiterm_error *err)
{
	struct session_meta meta;
	struct agent_record rec;
	const char *home = getenv("HOME");
	size_t i;
	int rc;

	memset(&meta, 0, sizeof meta);
	snprintf(meta.id, sizeof meta.id, "%s", sp->id);
	snprintf(meta.shell, sizeof meta.shell, "%s", sp->binary);
	meta.dialect = SHELL_UNKNOWN;
	snprintf(meta.cwd, sizeof meta.cwd, "%s", sp->cwd);
	meta.cols = AGENT_COLS;
	meta.rows = AGENT_ROWS;
	session_random_hex(meta.token, SESSION_TOKEN_LEN);
	meta.created_ms = session_now_ms();
	if (session_meta_write(&meta, err) != 0)
		return -1;
	memset(&rec, 0, sizeof rec);
	snprintf(rec.harness, sizeof rec.harness, "%s", sp->h->id);
	snprintf(rec.launch_id, sizeof rec.launch_id, "%s", launch_id);
	snprintf(rec.binary, sizeof rec.binary, "%s", sp->binary);
	snprintf(rec.version, sizeof rec.version, "%s", sp->version);
	snprintf(rec.model, sizeof rec.model, "%s", sp->model != NULL ?
	    sp->model : "");
	snprintf(rec.cwd, sizeof rec.cwd, "%s", sp->cwd);
	snprintf(rec.home, sizeof rec.home, "%s", home != NULL ? home : "");
	rec.started_ms = meta.created_ms;
	rec.startup_check_ms = sp->startup_check_ms;
	for (i = 0; env[i] != NULL && i < AGENT_ENV_MAX; i++)
		rec.env[i] = (char *)env[i];
	rc = agent_record_write(sp->id, &rec, err);
	return rc;
}

int
agent_session_spawn(struct agent_spawn *sp, struct aiterm_error *err)
{
	const struct aiterm_mux_ops *mux = session_mux(err);
	struct aiterm_buf argv = BUF_INIT, env = BUF_INIT;
	struct aiterm_launch_request req;
	struct aiterm_launch_plan plan = { &argv, &env };
	struct aiterm_mux_create mc;
	const char **av = NULL, **ev = NULL;
	char *log = NULL, launch_id[33];
	size_t n, mine;
	int rc = -1;

	if (mux == NULL)
		return -1;
	memset(&req, 0, sizeof req);
	req.binary = sp->binary;
	req.model = sp->model;
	req.cwd = sp->cwd;
	req.home = getenv("HOME");
	req.env = (const char *const *)environ;
	req.trust_project = sp->trust;
	/* 32 hex digits: a harness may make its own session id of them. */
	session_random_hex(launch_id, 32);
	launch_id[32] = '\0';
	req.launch_id = launch_id;
	if (sp->h->ops->launch(host_get(), &req, &plan, err) != 0)
		goto out;
	if (argv.len == 0) {
		error_set(err, "the %s plugin gave no command", sp->h->id);
		goto out;
	}
	av = split(&argv, 0);
	ev = split(&env, PANE_ENV_VARS + 2);
	if (session_create_log(sp->id, err) != 0)
		goto out;
	sp->created = true;
	if (write_records(sp, launch_id, ev, err) != 0)
		goto out;
	for (n = 0; ev[n] != NULL; n++)
		;
	mine = n;
	pane_env_add(ev, &n, sp->id);
	ev[n++] = xasprintf("AITERM_LAUNCH_ID=%s", launch_id);
	/* Carried, never read: Throughline owns the file (AGT-LAUNCH). */
	if (sp->supplement != NULL)
		ev[n++] = xasprintf("THROUGHLINE_SUPPLEMENT=%s",
		    sp->supplement);
	log = session_path(sp->id, "output.log");
	memset(&mc, 0, sizeof mc);
	mc.session = sp->id;
	mc.cwd = sp->cwd;
	mc.env = ev;
	mc.argv = av;
	mc.cols = AGENT_COLS;
	mc.rows = AGENT_ROWS;
	mc.log_path = log;
	mc.log_writer = logpipe_writer();
	rc = mux->create(host_get(), &mc, err);
	/* Best effort: a session without it is closed by what tmux says. */
	if (rc == 0)
		session_pane_record(sp->id, NULL);
	while (n > mine)
		free((char *)ev[--n]);
out:
	free(av);
	free(ev);
	free(log);
	buf_free(&argv);
	buf_free(&env);
	return rc;
}

void
agent_session_discard(const char *id)
{
	const struct aiterm_mux_ops *mux = session_mux(NULL);

	if (mux != NULL)
		mux->kill(host_get(), id, NULL);
	session_remove(id, NULL);
}

char *
agent_attach_command(const char *id)
{
	const struct aiterm_mux_ops *mux = session_mux(NULL);
	struct aiterm_mux_info info;

	memset(&info, 0, sizeof info);
	if (mux != NULL)
		mux->probe(host_get(), &info, NULL);
	return xasprintf("tmux -S %s attach -t %s", info.socket, id);
}
