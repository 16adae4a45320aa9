#include <stdlib.h>

#include "tools/agent-images.h"
#include "util/xmalloc.h"

int
tool_images(json_t *args, const struct harness *h, const char *nothing,
    struct agent_images *im, struct aiterm_error *err)
{
	json_t *v = json_object_get(args, "image");
	size_t i, n;

	im->path = im->word = NULL;
	im->n = 0;
	if (v == NULL)
		return 0;
	if (agent_image_supported(h, nothing, err) != 0)
		return -1;
	n = json_array_size(v);
	for (i = 0; i < n; i++) {
		if (agent_image_check(json_string_value(json_array_get(v, i)),
		    nothing, err) != 0)
			return -1;
	}
	im->path = xcalloc(n, sizeof *im->path);
	for (i = 0; i < n; i++)
		im->path[im->n++] = xstrdup(json_string_value(json_array_get(v,
		    i)));
	return 0;
}
