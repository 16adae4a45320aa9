/*
 * Images with a prompt (AGT-IMAGE; ADR 0036): the image files a launch's
 * prompt or a send carries are checked before anything is typed (an
 * absolute path naming a readable regular file whose first bytes are a
 * PNG, JPEG, GIF or WebP image), then attached the way the harness reads
 * them: its attach_image steps (ABI 2.3), once per image, before the
 * steps that type the text.
 */
#ifndef AITERM_AGENT_IMAGE_H
#define AITERM_AGENT_IMAGE_H

#include <stddef.h>

#include "agent/harness.h"
#include "util/error.h"

/*
 * The image paths of one prompt, as given, and as pasted (the path as a
 * shell word: a backslash before a space or another character a shell
 * would take apart, the form a terminal's drag and drop pastes and all
 * four CLIs read; set by agent_images_copy); none when n is 0.
 */
struct agent_images {
	char	**path;
	char	**word;
	size_t	  n;
};

/*
 * Whether the harness takes images: 0, or -1 with err ("<HARNESS>_IMAGE_
 * UNSUPPORTED: ... ; <nothing>").
 */
int	agent_image_supported(const struct harness *h, const char *nothing,
	    struct aiterm_error *err);

/*
 * One image file: 0, or -1 with err naming the path and why (relative,
 * missing, not a regular file, unreadable, not one of the four types),
 * ending "; <nothing>" (what was not done: "nothing was sent").
 */
int	agent_image_check(const char *path, const char *nothing,
	    struct aiterm_error *err);

/* src copied with each path's word (n may be 0); agent_images_free frees it. */
void	agent_images_copy(struct agent_images *dst,
	    const struct agent_images *src);
void	agent_images_free(struct agent_images *im);

/*
 * The harness's attach steps once per image, each NULL argument made that
 * image's word (borrowed from im), then the steps of then, in one newly
 * allocated list (free it); NULL when there is no image to attach.
 */
struct aiterm_input_step *agent_image_steps(const struct harness *h,
	    const struct agent_images *im,
	    const struct aiterm_input_step *then);

#endif
