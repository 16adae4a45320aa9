#!/bin/sh
# tests/clients/run.sh: aiterm-mcp under the real Claude Code and Codex CLIs
# (the pinned npm packages in package-lock.json), each run against a
# scripted mock model server on 127.0.0.1 (tests/clients/*.test.cjs).
#
# ./quickstart check runs it (not make check) with top_srcdir,
# top_builddir, AITERM_PLUGIN_PATH, AITERM_SYSTEM_PLUGINDIR= and
# AITERM_SHELL_DIR set as tests/local.mk's AM_TESTS_ENVIRONMENT sets them.
# Run by hand, it computes the same from its own location: top_srcdir is
# the repository, top_builddir $top_srcdir/build, and the plugin path the
# build tree's plugin directories, in the order the make fragments add
# them to TEST_PLUGIN_PATH.
#
# The pinned packages are installed into $top_builddir/tests/clients by
# tests/npm-ci.sh (`npm ci --ignore-scripts`, skipped while node_modules
# matches the lock).  Claude
# Code's postinstall only hard-links the platform package's native binary
# over a stub; the rig runs that native binary itself (lib/claude.cjs), so
# no install script from the registry runs.
#
# CLIENTS_TESTS="model-view" runs those files only (<name>.test.cjs) and
# CLIENTS_PATTERN the tests whose name matches it (--test-name-pattern).
#
# Exit 99 for a broken set-up (no node, npm, tmux, server or CLI): never a
# silent skip.

set -eu

# Nothing the suite starts reads the caller's stdin (issue 37): a CLI
# that reads a pipe left open (Codex's exec does) would wait for ever.
exec </dev/null

here=$(cd "$(dirname "$0")" && pwd -P)
: "${top_srcdir:=$(cd "$here/../.." && pwd -P)}"
: "${top_builddir:=$top_srcdir/build}"
export top_srcdir top_builddir

fail() {
	echo "tests/clients: $*" >&2
	exit 99
}

command -v node >/dev/null 2>&1 || fail "node is not installed"
command -v tmux >/dev/null 2>&1 || fail "tmux is not installed"

src=$top_srcdir/tests/clients
dst=$top_builddir/tests/clients
server=${AITERM_MCP:-$top_builddir/aiterm-mcp}
test -x "$server" || fail "$server is missing; build it first"

# The plugin path as tests/local.mk builds it from TEST_PLUGIN_PATH: follow
# the includes of Makefile.am in order and collect each
# "TEST_PLUGIN_PATH += $(abs_top_builddir)/DIR".
if test -z "${AITERM_PLUGIN_PATH+set}"; then
	AITERM_PLUGIN_PATH=$(node -e '
		const fs = require("fs"), path = require("path");
		const [src, build] = process.argv.slice(1);
		const out = [];
		const walk = (file) => {
			for (const line of fs.readFileSync(file, "utf8").split("\n")) {
				let m = line.match(/^include \$\(srcdir\)\/(\S+)/);
				if (m)
					walk(path.join(src, m[1]));
				m = line.match(/^TEST_PLUGIN_PATH \+= \$\(abs_top_builddir\)\/(\S+)/);
				if (m)
					out.push(path.join(build, m[1]));
			}
		};
		walk(path.join(src, "Makefile.am"));
		process.stdout.write(out.join(":"));
	' "$top_srcdir" "$top_builddir") || fail "cannot compute the plugin path"
fi
: "${AITERM_SYSTEM_PLUGINDIR=}"
: "${AITERM_SHELL_DIR:=$top_srcdir/core/shell/integration}"
export AITERM_PLUGIN_PATH AITERM_SYSTEM_PLUGINDIR AITERM_SHELL_DIR

. "$top_srcdir/tests/npm-ci.sh"
npm_ci_locked tests/clients "$src" "$dst" @openai/codex @xai-official/grok \
    @anthropic-ai/claude-code gpt-tokenizer

NODE_PATH=$dst/node_modules
AITERM_MCP=$server
export NODE_PATH AITERM_MCP

# The installed CLIs must start: the same executables the rig runs, each
# with a throw-away HOME.
node -e '
	const { execFileSync } = require("child_process");
	const fs = require("fs"), os = require("os"), path = require("path");
	const [lib] = process.argv.slice(1);
	const home = fs.mkdtempSync(path.join(os.tmpdir(), "aiterm-clients-version-"));
	const env = { PATH: process.env.PATH, HOME: home, CODEX_HOME: home, LC_ALL: "C.UTF-8" };
	let rc = 0;
	const tryRun = (what, f) => {
		try {
			const [cmd, args] = f();
			const out = execFileSync(cmd, [...args, "--version"], { env, encoding: "utf8", timeout: 60000,
				stdio: ["ignore", "pipe", "pipe"] });
			console.log(`tests/clients: ${what}: ${out.trim()}`);
		} catch (e) {
			console.error(`tests/clients: ${what} does not start: ${e.message}`);
			rc = 99;
		}
	};
	tryRun("claude", () => [require(path.join(lib, "claude.cjs")).claudeBinary(), []]);
	tryRun("codex", () => { const c = require(path.join(lib, "codex.cjs")).codexCommand(); return [c.cmd, c.pre]; });
	fs.rmSync(home, { recursive: true, force: true });
	process.exit(rc);
' "$src/lib" || exit 99

. "$top_srcdir/tests/suite-files.sh"
suite_files "$src" "${CLIENTS_TESTS:-}"

# shellcheck disable=SC2086 # the file list is split on purpose
exec node --test --test-concurrency=1 --test-timeout=600000 \
	${CLIENTS_PATTERN:+--test-name-pattern="$CLIENTS_PATTERN"} \
	--test-reporter=spec $files
