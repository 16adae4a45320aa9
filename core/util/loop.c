#include "util/loop.h"

static uv_loop_t *the_loop;

uv_loop_t *
core_loop(void)
{
	return the_loop != NULL ? the_loop : uv_default_loop();
}

void
core_loop_set(uv_loop_t *loop)
{
	the_loop = loop;
}
