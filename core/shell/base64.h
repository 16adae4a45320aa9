/* Base64 (RFC 4648 section 4, standard alphabet, with '=' padding). */
#ifndef AITERM_SHELL_BASE64_H
#define AITERM_SHELL_BASE64_H

#include <stddef.h>

#include "util/buf.h"

/* The length of the encoding of len bytes: 4 * ceil(len / 3). */
size_t	base64_encoded_len(size_t len);

/* Append the encoding of data[0..len) to out. */
void	base64_encode(const void *data, size_t len, struct aiterm_buf *out);

#endif
