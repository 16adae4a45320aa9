/*
 * The "image" argument of agent_launch and pty_send (AGT-IMAGE; ADR
 * 0036): absolute paths of image files attached to the prompt, each
 * checked before anything is launched or typed.
 */
#ifndef AITERM_TOOLS_AGENT_IMAGES_H
#define AITERM_TOOLS_AGENT_IMAGES_H

#include <jansson.h>

#include "agent/image.h"

/* The input schema's property: 1 to 8 paths. */
#define AGENT_IMAGE_PROP \
	"\"image\":{\"type\":\"array\",\"minItems\":1,\"maxItems\":8," \
	"\"items\":{\"type\":\"string\",\"minLength\":1}," \
	"\"description\":\"Absolute paths of PNG, JPEG, GIF or WebP files " \
	"to attach.\"}"

/*
 * The call's "image" into im (none when absent): 0, or -1 with err when
 * the harness takes no image or a file is not one it can attach; err
 * ends "; <nothing>".  im is freed by agent_images_free.
 */
int	tool_images(json_t *args, const struct harness *h, const char *nothing,
	    struct agent_images *im, struct aiterm_error *err);

#endif
