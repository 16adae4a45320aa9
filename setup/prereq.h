/*
 * What Aiterm itself needs, checked before anything else: the server to
 * register, the multiplexer (tmux, its version), the plugins installed
 * (`aiterm-mcp --list-plugins`), and which harness plugins have their CLI
 * here.  Nothing is installed; a missing part is named with how to get it.
 */
#ifndef AITERM_SETUP_PREREQ_H
#define AITERM_SETUP_PREREQ_H

#include "report.h"
#include "setup.h"

/* The absolute path of the server to register, or NULL (reported). */
char	*prereq_server(const char *given, struct report *rep);
int	 prereq_mux(struct report *rep);
int	 prereq_plugins(const struct setup_opts *o, struct report *rep);

#endif
