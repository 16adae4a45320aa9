/* PowerShell: Base64 script block, dot-sourced (see pwsh.h). */
#include "shell/base64.h"
#include "shell/pwsh.h"
#include "shell/utf8.h"

#define PWSH_HEAD	". ([scriptblock]::Create([Text.Encoding]::UTF8." \
			"GetString([Convert]::FromBase64String('"
#define PWSH_TAIL	"'))))"

int
shell_eval_pwsh(const char *text, size_t len, struct aiterm_buf *out,
    struct aiterm_error *err)
{
	size_t bad;

	if (!utf8_valid(text, len, &bad))
		return error_set(err, "invalid UTF-8 at byte offset %zu", bad);
	buf_adds(out, PWSH_HEAD);
	base64_encode(text, len, out);
	buf_adds(out, PWSH_TAIL);
	return 0;
}
