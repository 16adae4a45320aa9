/*
 * The test kit's fixture runner (libaiterm-plugin-test, issue 39) on a
 * real CLI's recordings: loads a built harness plugin (argv[1], its .la
 * or .so) as the server would, and replays each folder's expect file
 * (argv[2] ...) with aiterm_test_fixtures.  Exits 0 when every check
 * passed, 1 when one failed, 99 when the plugin cannot be loaded.
 */
#include <ltdl.h>
#include <stdio.h>

#include <aiterm/plugin-test.h>

int
main(int argc, char **argv)
{
	const struct aiterm_plugin *(*describe)(void);
	lt_dlhandle h;
	int i, rc, failed = 0;

	if (argc < 3) {
		fprintf(stderr, "usage: sdk_fixtures plugin dir ...\n");
		return 99;
	}
	if (lt_dlinit() != 0 || (h = lt_dlopen(argv[1])) == NULL) {
		fprintf(stderr, "sdk_fixtures: %s: %s\n", argv[1],
		    lt_dlerror());
		return 99;
	}
	describe = (const struct aiterm_plugin *(*)(void))lt_dlsym(h,
	    AITERM_PLUGIN_SYMBOL);
	if (describe == NULL) {
		fprintf(stderr, "sdk_fixtures: %s: no %s\n", argv[1],
		    AITERM_PLUGIN_SYMBOL);
		return 99;
	}
	for (i = 2; i < argc; i++) {
		if ((rc = aiterm_test_fixtures(describe(), argv[i])) != 0)
			failed++;
	}
	return failed > 0;
}
