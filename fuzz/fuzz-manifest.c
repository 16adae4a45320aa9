/*
 * Plugin manifests: any bytes are either a manifest whose required fields
 * are all set, or an error "<path>:..." with the struct left zeroed.
 */
#include <string.h>

#include "common.h"
#include "plugin/manifest.h"

#define PATH	"fuzz.yaml"

static bool
zeroed(const struct manifest *m)
{
	static const struct manifest zero;

	return memcmp(m, &zero, sizeof zero) == 0;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aiterm_error err = ERROR_INIT;
	struct manifest m;
	size_t i;

	if (manifest_load_data(PATH, (const char *)data, size, &m, &err) == 0) {
		fuzz_require(err.msg == NULL, "manifest: no error");
		fuzz_require(m.manifest == 1 && m.name != NULL &&
		    m.module != NULL && m.version != NULL &&
		    strcmp(m.path, PATH) == 0, "manifest: required fields");
		fuzz_require(plugin_kind_name(m.kind) != NULL,
		    "manifest: a known kind");
		fuzz_require((m.kind == AITERM_KIND_REDUCER) ==
		    (m.nreducers > 0), "manifest: reducers iff kind reducer");
		for (i = 0; i < m.nreducers; i++)
			fuzz_require(m.reducers[i].commands != NULL &&
			    m.reducers[i].commands[0] != NULL,
			    "manifest: each reducer claims a command");
		manifest_free(&m);
	} else {
		fuzz_require(err.msg != NULL &&
		    strncmp(err.msg, PATH ":", strlen(PATH) + 1) == 0,
		    "manifest: the error names the file");
		fuzz_require(zeroed(&m), "manifest: zeroed on failure");
	}
	fuzz_require(zeroed(&m), "manifest: zeroed after manifest_free");
	error_clear(&err);
	return 0;
}
