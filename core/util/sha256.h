/*
 * SHA-256 (FIPS 180-4), for digests that stand in for text Aiterm must not
 * return: argv digests and screen digests (pty_observe).
 */
#ifndef AITERM_SHA256_H
#define AITERM_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_LEN	32

struct sha256 {
	uint32_t	h[8];
	uint64_t	bytes;
	unsigned char	block[64];
	size_t		used;
};

void	sha256_init(struct sha256 *s);
void	sha256_update(struct sha256 *s, const void *data, size_t len);
void	sha256_final(struct sha256 *s, unsigned char out[SHA256_LEN]);
/*
 * The first hexlen hex digits (even, at most 64) of the digest of data,
 * NUL-terminated in hex (which holds hexlen + 1 bytes).
 */
void	sha256_hex(const void *data, size_t len, char *hex, size_t hexlen);

#endif
