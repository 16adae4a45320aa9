/*
 * The command line and the input every hook program shares (hook.h),
 * as aiterm-hook read them when it held every harness's hooks itself.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "deliver/waiter.h"
#include "hook/hook.h"
#include "state/stateroot.h"
#include "util/stdfd.h"

static int
usage_to(FILE *to, const char *usage)
{
	fputs(usage, to);
	return to == stdout ? 0 : 1;
}

static json_t *
read_input(void)
{
	json_error_t je;

	return json_loadf(stdin, JSON_DISABLE_EOF_CHECK, &je);
}

int
hook_main(int argc, char **argv, const struct hook_verb *verbs,
    size_t nverbs, const char *usage)
{
	struct aiterm_error err = ERROR_INIT;
	const char *dir = NULL, *id = NULL;
	json_t *in;
	size_t i;
	int rc, k = 2;

	stdfd_guard();
	if (argc < 2)
		return usage_to(stderr, usage);
	if (argc == 2 && strcmp(argv[1], "--help") == 0)
		return usage_to(stdout, usage);
	if (k + 1 < argc && strcmp(argv[k], "--state-dir") == 0) {
		dir = argv[k + 1];
		k += 2;
	}
	if (k < argc)
		id = argv[k++];
	if (k != argc)
		return usage_to(stderr, usage);
	if (state_root_init(dir, &err) != 0) {
		fprintf(stderr, "aiterm-hook: %s\n", error_msg(&err));
		error_clear(&err);
		return 1;
	}
	for (i = 0; i < nverbs; i++) {
		if (strcmp(argv[1], verbs[i].name) == 0)
			break;
	}
	if (i < nverbs && verbs[i].run_id != NULL)
		return id != NULL && delivery_id_valid(id) ?
		    verbs[i].run_id(id) : usage_to(stderr, usage);
	if (i == nverbs || id != NULL) {
		fprintf(stderr, "aiterm-hook: unknown hook '%s'\n", argv[1]);
		return usage_to(stderr, usage);
	}
	if ((in = read_input()) == NULL || !json_is_object(in)) {
		fprintf(stderr, "aiterm-hook: %s: the hook input is not a JSON "
		    "object\n", argv[1]);
		json_decref(in);
		return 1;
	}
	rc = verbs[i].run(in);
	json_decref(in);
	return rc;
}
