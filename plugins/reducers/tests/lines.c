/* Helpers shared by the test-runner reducers (see tests.h). */
#include "tests.h"

bool
tx_code_frame(struct rl_line t)
{
	size_t i = 0;

	if (i < t.len && t.p[i] == '>')
		i++;
	while (i < t.len && t.p[i] == ' ')
		i++;
	while (i < t.len && t.p[i] >= '0' && t.p[i] <= '9')
		i++;
	while (i < t.len && t.p[i] == ' ')
		i++;
	return i < t.len && t.p[i] == '|' && (i + 1 == t.len ||
	    t.p[i + 1] == ' ');
}
