/* argv and environment to start a shell with integration (see launch.h). */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "shell/launch.h"
#include "shell/osc133.h"
#include "util/buf.h"
#include "util/xmalloc.h"

/* A NULL-terminated, growing string vector. */
struct strv {
	char	**v;
	size_t	  n;
};

static void
strv_init(struct strv *s)
{
	s->v = xcalloc(1, sizeof *s->v);
	s->n = 0;
}

static void
strv_add(struct strv *s, char *owned)
{
	s->v = xrealloc(s->v, (s->n + 2) * sizeof *s->v);
	s->v[s->n++] = owned;
	s->v[s->n] = NULL;
}

static void
launch_bash(const struct shell_integration_options *o, struct strv *argv,
    struct strv *env)
{
	strv_add(argv, xstrdup("--rcfile"));
	strv_add(argv, xasprintf("%s/aiterm.bash", o->dir));
}

static void
launch_zsh(const struct shell_integration_options *o, struct strv *argv,
    struct strv *env)
{
	strv_add(env, xasprintf("ZDOTDIR=%s/zsh", o->dir));
	if (o->user_zdotdir != NULL)
		strv_add(env, xasprintf("AITERM_USER_ZDOTDIR=%s",
		    o->user_zdotdir));
}

static void
launch_sh(const struct shell_integration_options *o, struct strv *argv,
    struct strv *env)
{
	strv_add(env, xasprintf("ENV=%s/aiterm.sh", o->dir));
	if (o->user_env != NULL)
		strv_add(env, xasprintf("AITERM_USER_ENV=%s", o->user_env));
}

static void
launch_fish(const struct shell_integration_options *o, struct strv *argv,
    struct strv *env)
{
	struct aiterm_buf b = BUF_INIT;
	const char *p;

	/* In fish's single quotes, only \\ and \' are escapes. */
	buf_adds(&b, "source '");
	for (p = o->dir; *p != '\0'; p++) {
		if (*p == '\\' || *p == '\'')
			buf_addc(&b, '\\');
		buf_addc(&b, *p);
	}
	buf_adds(&b, "/aiterm.fish'");
	strv_add(argv, xstrdup("--init-command"));
	strv_add(argv, buf_steal(&b, NULL));
}

/* Each shell, how to start it, and the script in the folder it reads. */
static const struct integration_entry {
	const char	*name;
	void		(*launch)(const struct shell_integration_options *,
			    struct strv *, struct strv *);
	const char	*script;
} integration_entries[] = {
	{ "bash",	launch_bash,	"aiterm.bash" },
	{ "zsh",	launch_zsh,	"zsh/.zshrc" },
	{ "dash",	launch_sh,	"aiterm.sh" },
	{ "sh",		launch_sh,	"aiterm.sh" },
	{ "fish",	launch_fish,	"aiterm.fish" },
};

/* The folder holds the shell's script: else the shell runs without. */
static bool
script_present(const struct shell_integration_options *o,
    const struct integration_entry *e)
{
	char *path = xasprintf("%s/%s", o->dir, e->script);
	bool ok = access(path, R_OK) == 0;

	free(path);
	return ok;
}

static const struct integration_entry *
find_entry(const char *shell)
{
	const char *base = strrchr(shell, '/');
	size_t i;

	base = base == NULL ? shell : base + 1;
	for (i = 0; i < sizeof integration_entries /
	    sizeof integration_entries[0]; i++) {
		if (strcmp(integration_entries[i].name, base) == 0)
			return &integration_entries[i];
	}
	return NULL;
}

static bool
token_valid(const char *token)
{
	size_t len = strlen(token);

	return len > 0 && len <= OSC133_TOKEN_MAX &&
	    strspn(token, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") == len;
}

int
shell_integration_argv(const struct shell_integration_options *o,
    struct shell_launch *out, struct aiterm_error *err)
{
	const struct integration_entry *e;
	struct strv argv, env;

	memset(out, 0, sizeof *out);
	if (o->shell == NULL || *o->shell == '\0')
		return error_set(err, "no shell to start");
	if (o->dir == NULL || *o->dir == '\0')
		return error_set(err, "no shell integration folder");
	if (o->token != NULL && !token_valid(o->token))
		return error_set(err, "invalid shell integration token: 1 to %d "
		    "characters from [A-Za-z0-9_.-] expected", OSC133_TOKEN_MAX);
	strv_init(&argv);
	strv_init(&env);
	strv_add(&argv, xstrdup(o->shell));
	e = find_entry(o->shell);
	if (e != NULL && o->require_scripts && !script_present(o, e))
		e = NULL;
	if (e != NULL) {
		e->launch(o, &argv, &env);
		if (o->token != NULL)
			strv_add(&env, xasprintf("AITERM_SHELL_TOKEN=%s",
			    o->token));
	}
	out->argv = argv.v;
	out->env = env.v;
	out->integrated = e != NULL;
	return 0;
}

static void
strv_free(char **v)
{
	size_t i;

	if (v == NULL)
		return;
	for (i = 0; v[i] != NULL; i++)
		free(v[i]);
	free(v);
}

void
shell_launch_free(struct shell_launch *launch)
{
	strv_free(launch->argv);
	strv_free(launch->env);
	memset(launch, 0, sizeof *launch);
}
