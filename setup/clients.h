/*
 * The AI clients setup knows: how each is found, how Aiterm is
 * registered in its user config, read back through the client, and
 * removed.  One row per client (clients.c); JSON-file clients share
 * config.c, CLI clients run the client's own `mcp` commands.
 */
#ifndef AITERM_SETUP_CLIENTS_H
#define AITERM_SETUP_CLIENTS_H

#include <jansson.h>

#include "setup.h"

#define SETUP_NAME	"aiterm"	/* the server's name in each config */

struct client;

struct setup_ctx {
	const struct setup_opts	*opts;
	json_t			*env;		/* the server's environment */
	json_t			*owned;		/* what setup added, by client */
};

size_t		 clients_count(void);
const struct client *client_at(size_t i);
const char	*client_id(const struct client *c);
/* The harness this client is driven by ("claude-code"), for plugins. */
const char	*client_harness(const struct client *c);
/* Found here?  Fills o->binary, o->version; else o skipped. */
bool		 client_detect(const struct client *c, struct setup_outcome *o);
int		 client_register(const struct client *c, struct setup_ctx *x,
		    struct setup_outcome *o);
int		 client_unregister(const struct client *c, struct setup_ctx *x,
		    struct setup_outcome *o);

#endif
