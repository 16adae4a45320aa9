/*
 * Loading one plugin module described by a manifest, with libltdl.  The
 * ABI rule: refuse a different major or a newer minor than the core's; the
 * module's kind and name must match its manifest.
 */
#ifndef AITERM_LOADER_H
#define AITERM_LOADER_H

#include "aiterm/plugin.h"
#include "plugin/manifest.h"
#include "util/error.h"

/* Check an ABI version against the core's; -1 with err when refused. */
int	loader_check_abi(unsigned major, unsigned minor, const char *what,
	    struct aiterm_error *err);
/*
 * Load the module named by m (looked up beside the manifest), check its
 * descriptor and run its init.  Returns the descriptor or NULL with err.
 */
const struct aiterm_plugin *loader_load(const struct manifest *m,
	    struct aiterm_error *err);

#endif
