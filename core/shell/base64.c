/* Base64 encoding, RFC 4648. */
#include "shell/base64.h"

static const char base64_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t
base64_encoded_len(size_t len)
{
	return (len + 2) / 3 * 4;
}

void
base64_encode(const void *data, size_t len, struct aiterm_buf *out)
{
	const unsigned char *p = data;
	unsigned long group;
	char quad[4];
	size_t i, take;

	for (i = 0; i < len; i += 3) {
		take = len - i < 3 ? len - i : 3;
		group = (unsigned long)p[i] << 16;
		if (take > 1)
			group |= (unsigned long)p[i + 1] << 8;
		if (take > 2)
			group |= p[i + 2];
		quad[0] = base64_alphabet[(group >> 18) & 63];
		quad[1] = base64_alphabet[(group >> 12) & 63];
		quad[2] = take > 1 ? base64_alphabet[(group >> 6) & 63] : '=';
		quad[3] = take > 2 ? base64_alphabet[group & 63] : '=';
		buf_add(out, quad, sizeof quad);
	}
}
