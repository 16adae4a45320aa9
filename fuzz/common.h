/*
 * What the fuzz harnesses share: the libFuzzer entry points, and checks
 * that abort (so libFuzzer keeps the input as a crash) when a property
 * does not hold.
 */
#ifndef AITERM_FUZZ_COMMON_H
#define AITERM_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int	LLVMFuzzerInitialize(int *argc, char ***argv);

/* Abort with "property failed: what" unless ok. */
void	fuzz_require(bool ok, const char *what);
/*
 * True when s[0..len) is well-formed UTF-8 holding no C0 control but LF
 * and TAB, no DEL and no C1 control: what the reducers promise to write.
 */
bool	fuzz_clean_text(const char *s, size_t len);
/* True when s[0..len) is well-formed UTF-8. */
bool	fuzz_valid_utf8(const char *s, size_t len);
/* a[0..alen) and b[0..blen) hold the same bytes (either may be NULL when empty). */
bool	fuzz_equal(const char *a, size_t alen, const char *b, size_t blen);
/* s[0..len) holds byte c (s may be NULL when len is 0). */
bool	fuzz_has(const char *s, size_t len, char c);
/* The number of LF bytes in s[0..len). */
size_t	fuzz_count_lines(const char *s, size_t len);

#endif
