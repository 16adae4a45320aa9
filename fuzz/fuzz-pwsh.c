/*
 * The PowerShell line and Base64.  Property: the text that reaches the
 * shell equals the text sent.  The Base64 in the line is decoded here
 * (strictly: RFC 4648 alphabet, padding only at the end) and must give
 * the text byte for byte; the line is one line of printable ASCII; only
 * invalid UTF-8 is refused, at the offset the reducers' checker finds.
 */
#include <stdio.h>
#include <string.h>

#include "common.h"
#include "reduce/u8.h"
#include "shell/base64.h"
#include "shell/pwsh.h"

#define PWSH_HEAD	". ([scriptblock]::Create([Text.Encoding]::UTF8." \
			"GetString([Convert]::FromBase64String('"
#define PWSH_TAIL	"'))))"

static int
sextet(char c)
{
	static const char alphabet[] =
	    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	const char *p = c == '\0' ? NULL : strchr(alphabet, c);

	return p == NULL ? -1 : (int)(p - alphabet);
}

/* Decode s[0..len) strictly into out. */
static void
base64_decode(const char *s, size_t len, struct aiterm_buf *out)
{
	size_t i, pad = 0;
	int v[4], k;

	fuzz_require(len % 4 == 0, "base64: length a multiple of 4");
	for (i = 0; i < len; i += 4) {
		for (k = 0; k < 4; k++) {
			if (s[i + k] == '=' && i + 4 == len && k >= 2) {
				v[k] = 0;
				pad++;
				continue;
			}
			fuzz_require(pad == 0, "base64: '=' only at the end");
			v[k] = sextet(s[i + k]);
			fuzz_require(v[k] >= 0, "base64: the alphabet");
		}
		buf_addc(out, (char)(v[0] << 2 | v[1] >> 4));
		if (pad < 2)
			buf_addc(out, (char)((v[1] & 0xf) << 4 | v[2] >> 2));
		if (pad < 1)
			buf_addc(out, (char)((v[2] & 0x3) << 6 | v[3]));
	}
}

/* The offset of the first byte that starts no well-formed sequence. */
static size_t
first_bad(const char *s, size_t len)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + len;
	size_t n, bad;

	while (p < end && (n = red_u8_check(p, end, &bad)) > 0)
		p += n;
	return (size_t)(p - (const unsigned char *)s);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data;
	struct aiterm_buf enc = BUF_INIT, dec = BUF_INIT, line = BUF_INIT;
	struct aiterm_error err = ERROR_INIT;
	char want[64];
	size_t bad = first_bad(text, size), hl = strlen(PWSH_HEAD), i;

	base64_encode(text, size, &enc);
	fuzz_require(enc.len == base64_encoded_len(size),
	    "base64: base64_encoded_len");
	base64_decode(enc.data, enc.len, &dec);
	fuzz_require(fuzz_equal(dec.data, dec.len, text, size),
	    "base64: round trip");

	if (shell_eval_pwsh(text, size, &line, &err) == -1) {
		fuzz_require(bad < size, "pwsh: refused only invalid UTF-8");
		snprintf(want, sizeof want, "invalid UTF-8 at byte offset %zu",
		    bad);
		fuzz_require(strcmp(err.msg, want) == 0,
		    "pwsh: the offset of the first bad byte");
		fuzz_require(line.len == 0, "pwsh: nothing appended");
	} else {
		fuzz_require(bad == size, "pwsh: accepted only valid UTF-8");
		for (i = 0; i < line.len; i++)
			fuzz_require(line.data[i] >= 0x20 &&
			    line.data[i] < 0x7f, "pwsh: printable ASCII");
		fuzz_require(line.len == hl + enc.len + strlen(PWSH_TAIL) &&
		    memcmp(line.data, PWSH_HEAD, hl) == 0 &&
		    fuzz_equal(line.data + hl, enc.len, enc.data, enc.len) &&
		    strcmp(buf_str(&line) + hl + enc.len, PWSH_TAIL) == 0,
		    "pwsh: the wrapper around the text's Base64");
	}
	error_clear(&err);
	buf_free(&enc);
	buf_free(&dec);
	buf_free(&line);
	return 0;
}
