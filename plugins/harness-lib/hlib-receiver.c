/* What every receiver plugin asks of a call: see hlib.h. */
#include <string.h>

#include "hlib.h"

bool
hl_client_is(const char *name, const char *product)
{
	size_t n = strlen(product);

	return name != NULL && strncmp(name, product, n) == 0 &&
	    (name[n] == '\0' || name[n] == ' ');
}

bool
hl_ref_valid(const char *ref)
{
	size_t n = ref != NULL ? strlen(ref) : 0;

	return n > 0 && n <= 64 && strspn(ref, "abcdefghijklmnopqrstuvwxyz"
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

bool
hl_meta_ref(const char *meta_json, const char *const *path, char *out,
    size_t size)
{
	json_t *meta = json_loads(meta_json, 0, NULL), *v = meta;
	const char *s;
	bool ok;

	for (; *path != NULL && v != NULL; path++)
		v = json_object_get(v, *path);
	s = json_string_value(v);
	ok = hl_ref_valid(s) && strlen(s) < size;
	if (ok)
		memcpy(out, s, strlen(s) + 1);
	json_decref(meta);
	return ok;
}
