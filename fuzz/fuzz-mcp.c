/*
 * The MCP server in memory: the input is a whole byte stream from the
 * client, fed to the server's framer in chunks, dispatched as
 * aiterm-mcp dispatches it, with stdout going to a memory file.  Every
 * line that needs an answer gets exactly one (a parse error, an invalid
 * request, a request, a line too long), each a JSON-RPC 2.0 object on a
 * line of its own, and no call is left pending.  A request the client
 * cancels may go unanswered (MCP: the server need not answer it): each
 * notifications/cancelled allows one answer fewer.
 *
 * No plugin is loaded, so every terminal tool fails at once ("no
 * multiplexer plugin"): that covers argument checking and the replies
 * without starting a terminal.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common.h"
#include "mcp/jsonrpc.h"
#include "mcp/server-int.h"
#include "util/buf.h"

/* A small limit, so that the fuzzer reaches "message too large". */
#define SMALL_MAX	512

static int	out_fd = -1;

/* The answers the server owes, counted from the same lines. */
struct owed {
	size_t	answers;	/* lines that need one */
	size_t	cancels;	/* notifications/cancelled: one fewer may come */
};

static void
count_line(void *arg, const char *line, size_t len)
{
	struct owed *owed = arg;
	size_t i;
	struct jsonrpc_msg msg;
	json_t *root;

	for (i = 0; i < len && strchr(" \t\r", line[i]) != NULL; i++)
		;
	if (i == len)
		return;
	root = json_loadb(line, len, JSON_DECODE_ANY, NULL);
	if (root == NULL) {
		owed->answers++;
		return;
	}
	jsonrpc_classify(root, &msg);
	if (msg.kind == JSONRPC_INVALID || msg.kind == JSONRPC_REQUEST)
		owed->answers++;
	else if (msg.kind == JSONRPC_NOTIFICATION && msg.method != NULL &&
	    strcmp(msg.method, "notifications/cancelled") == 0)
		owed->cancels++;
	json_decref(root);
}

static void
count_too_large(void *arg, size_t total)
{
	struct owed *owed = arg;

	(void)total;
	owed->answers++;
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	out_fd = memfd_create("fuzz-mcp-stdout", MFD_CLOEXEC);
	if (out_fd == -1 || dup2(out_fd, STDOUT_FILENO) == -1) {
		perror("fuzz-mcp: stdout to a memory file");
		exit(1);
	}
	return 0;
}

/* The replies written to stdout: returns how many carry an id. */
static size_t
check_replies(void)
{
	struct aiterm_buf b = BUF_INIT;
	char chunk[65536];
	size_t pos = 0, answers = 0;
	const char *nl;
	ssize_t n;
	json_t *msg;

	lseek(STDOUT_FILENO, 0, SEEK_SET);
	while ((n = read(STDOUT_FILENO, chunk, sizeof chunk)) > 0)
		buf_add(&b, chunk, (size_t)n);
	while (pos < b.len) {
		nl = memchr(b.data + pos, '\n', b.len - pos);
		fuzz_require(nl != NULL, "mcp: every reply ends with a LF");
		msg = json_loadb(b.data + pos, (size_t)(nl - b.data) - pos, 0,
		    NULL);
		fuzz_require(json_is_object(msg), "mcp: a reply is an object");
		fuzz_require(json_is_string(json_object_get(msg, "jsonrpc")) &&
		    strcmp(json_string_value(json_object_get(msg, "jsonrpc")),
		    "2.0") == 0, "mcp: a reply is JSON-RPC 2.0");
		if (json_object_get(msg, "id") != NULL) {
			fuzz_require((json_object_get(msg, "result") != NULL) !=
			    (json_object_get(msg, "error") != NULL),
			    "mcp: a result or an error");
			answers++;
		}
		json_decref(msg);
		pos = (size_t)(nl - b.data) + 1;
	}
	buf_free(&b);
	return answers;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct server_options opts = { SERVER_DEFAULT_MAX_MESSAGE, false, false };
	static struct server s;
	struct framer counter;
	struct owed owed = { 0, 0 };
	size_t answers, chunk, off, n;
	int turns;

	if (size > 0 && (data[0] & 1) != 0)
		opts.max_message = SMALL_MAX;
	chunk = size > 0 ? 1 + (size_t)data[size - 1] * 16 : 1;
	if (ftruncate(STDOUT_FILENO, 0) == -1)
		abort();
	lseek(STDOUT_FILENO, 0, SEEK_SET);

	framer_init(&counter, opts.max_message, count_line, count_too_large,
	    &owed);
	framer_feed(&counter, (const char *)data, size);
	framer_finish(&counter);
	framer_free(&counter);

	server_init(&s, &opts, uv_default_loop());
	s.in_is_file = true;
	for (off = 0; off < size; off += n) {
		n = size - off < chunk ? size - off : chunk;
		framer_feed(&s.framer, (const char *)data + off, n);
	}
	framer_finish(&s.framer);
	/*
	 * Calls that need the multiplexer finish from its thread (ADR 0003):
	 * the loop runs until they have, a bounded number of turns.
	 */
	for (turns = 0; turns < 1000 && (turns == 0 || s.pending != NULL);
	    turns++)
		uv_run(s.loop, turns == 0 ? UV_RUN_NOWAIT : UV_RUN_ONCE);
	fuzz_require(s.pending == NULL, "mcp: no call left pending");
	fuzz_require(!s.stopping, "mcp: still serving");
	server_fini(&s);
	answers = check_replies();
	fuzz_require(answers <= owed.answers && answers + owed.cancels >=
	    owed.answers, "mcp: every line that needs an answer got one "
	    "(a cancelled request may not)");
	return 0;
}
