#!/bin/sh
# tests/integration/oot-plugin.sh: RED-CMD for third parties.  Install the
# build into a scratch DESTDIR, build doc/examples/reducer-seq out of tree
# with nothing but the installed aiterm-plugin.pc, and check that the
# installed server loads it (--list-plugins) and runs it on real output
# (pty_send "seq 1 5000" through MCP, in a private tmux server).
set -eu

: "${top_srcdir:?}" "${top_builddir:?}"
for tool in pkg-config python3 tmux; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		# A skip fails unless AITERM_ALLOW_SKIPS allows it (tests/skips.sh).
		. "$top_srcdir/tests/skips.sh"
		reasons=$(mktemp)
		echo "no-$tool: $tool is not installed; oot-plugin did not run" >"$reasons"
		rc=77
		skips_check oot-plugin "$reasons" || rc=1
		rm -f "$reasons"
		exit "$rc"
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aiterm-oot.XXXXXX")
sock=$tmp/state/tmux.sock
cleanup() {
	if test -S "$sock"; then tmux -S "$sock" kill-server 2>/dev/null || :; fi
	rm -rf "$tmp"
}
trap cleanup EXIT

name=oot-plugin
. "$top_srcdir/tests/integration/oot-install.sh"

mkdir -p "$tmp/plug" "$tmp/home" "$tmp/state"
ex=$top_srcdir/doc/examples/reducer-seq
# shellcheck disable=SC2086
${CC:-cc} $cflags -std=c11 -Wall -Wextra -Werror -fPIC -shared \
	-o "$tmp/plug/example_seq.so" "$ex/seq-range.c"
cp "$ex/example-seq.yaml" "$tmp/plug/"

AITERM_PLUGIN_PATH=$tmp/plug
AITERM_SYSTEM_PLUGINDIR=$plugdir
AITERM_STATE_DIR=$tmp/state
AITERM_SHELL_DIR=$top_srcdir/core/shell/integration
HOME=$tmp/home
TMUX_TMPDIR=$tmp
export AITERM_PLUGIN_PATH AITERM_SYSTEM_PLUGINDIR AITERM_STATE_DIR \
	AITERM_SHELL_DIR HOME TMUX_TMPDIR

"$server" --list-plugins >"$tmp/list.json"
python3 - "$tmp/list.json" <<'PY'
import json, sys
plugins = json.load(open(sys.argv[1]))["plugins"]
by = {p.get("name"): p for p in plugins}
ex = by.get("example-seq")
assert ex and ex["loaded"], f"example-seq not loaded: {plugins}"
assert ex["reducers"] == [{"name": "seq-range", "version": "1.0.0",
                           "commands": ["seq"]}], ex
assert by.get("mux-tmux", {}).get("loaded"), f"installed mux-tmux: {plugins}"
print("oot-plugin: --list-plugins: example-seq loaded with its claims")
PY

python3 - "$server" <<'PY'
import json, subprocess, sys
p = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE,
                     stdout=subprocess.PIPE)
n = 0
def call(method, params):
    global n
    n += 1
    p.stdin.write((json.dumps({"jsonrpc": "2.0", "id": n, "method": method,
                               "params": params}) + "\n").encode())
    p.stdin.flush()
    while True:
        r = json.loads(p.stdout.readline())
        if r.get("id") == n:
            return r
# A program: it asks for structuredContent (ADR 0006).
call("initialize", {"protocolVersion": "2025-11-25", "capabilities":
                    {"experimental": {"aiterm/structuredContent": {}}},
                    "clientInfo": {"name": "oot-test", "version": "1"}})
def tool(tool_name, **args):
    r = call("tools/call", {"name": tool_name, "arguments": args})["result"]
    assert not r.get("isError"), r
    return r
sid = tool("pty_open", name="oot", shell="bash")["structuredContent"]["session_id"]
r = tool("pty_send", session_id=sid, text="seq 1 5000", wait=True, timeout=30)
text = r["content"][0]["text"]
sc = r["structuredContent"]
tool("pty_close", session_id=sid)
p.stdin.close()
p.wait(timeout=10)
assert sc["complete"] and sc["exit_code"] == 0, r
assert sc["reducer"] == "seq-range 1.0.0", r
assert text.startswith("1\n[… 4998 more numbers]\n5000\n"), text
assert "[seq-range reducer; all of it: line_range=[" in text, text
print("oot-plugin: pty_send seq 1 5000 ->", json.dumps(text))
PY
