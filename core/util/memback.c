#include "config.h"

#ifdef HAVE_MALLOC_H
#include <malloc.h>
#endif

#include "util/memback.h"

void
memback_trim(void)
{
#ifdef HAVE_MALLOC_TRIM
	malloc_trim(0);
#endif
}
