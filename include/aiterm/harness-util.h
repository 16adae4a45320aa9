/*
 * Helpers for harness plugins, header only (static inline): a plugin
 * that includes this links nothing more, and what it compiled in does
 * not change under it.
 */
#ifndef AITERM_HARNESS_UTIL_H
#define AITERM_HARNESS_UTIL_H

#include <stdio.h>

/*
 * A CLI session id made of a launch id (struct aiterm_launch_request's
 * and struct aiterm_transcript_query's launch_id: 32 lowercase hex digits
 * the core draws at random for each launch): its first 32 hex digits
 * (others skipped, fewer padded with 0), lowercased, made a version-4
 * UUID, "xxxxxxxx-xxxx-4xxx-[89ab]xxx-xxxxxxxxxxxx".  The same launch id
 * always gives the same UUID, so launch (--session-id) and
 * transcript_claim (the file's name or first record) agree on it.
 */
static inline void
aiterm_session_uuid(const char *launch_id, char out[37])
{
	static const char digits[] = "0123456789abcdef";
	char hex[33];
	size_t i, n = 0;
	int v;

	for (i = 0; launch_id != NULL && launch_id[i] != '\0' && n < 32;
	    i++) {
		char c = launch_id[i];

		if (c >= '0' && c <= '9')
			hex[n++] = c;
		else if (c >= 'a' && c <= 'f')
			hex[n++] = c;
		else if (c >= 'A' && c <= 'F')
			hex[n++] = (char)(c - 'A' + 'a');
	}
	while (n < 32)
		hex[n++] = '0';
	hex[32] = '\0';
	hex[12] = '4';
	v = hex[16] <= '9' ? hex[16] - '0' : hex[16] - 'a' + 10;
	hex[16] = digits[8 + (v & 3)];
	snprintf(out, 37, "%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12,
	    hex + 16, hex + 20);
}

#endif
