#!/bin/sh
# tests/integration/oot-harness.sh: harness plugins for third parties
# (AGT-LAUNCH, doc/harness.md).  Install the build into a scratch DESTDIR,
# build doc/examples/harness-mycli out of tree with nothing but the
# installed aiterm-plugin.pc, and check that the installed server loads
# it and drives its CLI (the example's mycli script) through MCP; and
# build plugins/harness-gemini the same way (issue 39):
# agent_launch with a prompt, the answer from the transcript, a second
# turn with pty_send, in a private tmux server; an image it cannot take
# (no attach_image) is refused; with AITERM_PLUGIN_LOG=debug the server
# shows the plugin's debug line.
set -eu

: "${top_srcdir:?}" "${top_builddir:?}"
for tool in pkg-config python3 tmux; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "oot-harness: $tool is not installed" >&2
		exit 99
	fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aiterm-ooth.XXXXXX")
sock=$tmp/state/tmux.sock
cleanup() {
	if test -S "$sock"; then
		pid=$(tmux -S "$sock" display -p '#{pid}' 2>/dev/null || :)
		test -z "$pid" || kill "$pid" 2>/dev/null || :
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

name=oot-harness
. "$top_srcdir/tests/integration/oot-install.sh"

mkdir -p "$tmp/plug" "$tmp/home" "$tmp/state" "$tmp/bin" "$tmp/work"
ex=$top_srcdir/doc/examples/harness-mycli
# shellcheck disable=SC2086
${CC:-cc} $cflags -std=c11 -Wall -Wextra -Werror -fPIC -shared \
	-o "$tmp/plug/harness_mycli.so" "$ex/mycli.c"
cp "$ex/harness-mycli.yaml" "$tmp/plug/"
cp "$ex/mycli" "$tmp/bin/mycli"
chmod +x "$tmp/bin/mycli"

# harness-gemini (issue 39) is written as a third party writes a harness:
# its sources build with the installed aiterm-plugin.pc alone, and the
# installed server loads that build (it shadows the installed one).
mkdir -p "$tmp/gplug"
# shellcheck disable=SC2086
${CC:-cc} $cflags -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -fPIC -shared \
	-o "$tmp/gplug/harness_gemini.so" "$top_srcdir"/plugins/harness-gemini/*.c
cp "$top_srcdir/plugins/harness-gemini/harness-gemini.yaml" "$tmp/gplug/"
AITERM_PLUGIN_PATH=$tmp/gplug AITERM_SYSTEM_PLUGINDIR=$plugdir HOME=$tmp/home \
    "$server" --list-plugins | python3 -c '
import json, sys
g = [p for p in json.load(sys.stdin)["plugins"] if p["name"] == "harness-gemini"
     and p["loaded"]]
assert len(g) == 1 and g[0]["manifest"].startswith(sys.argv[1]) \
    and g[0]["provides"] == ["gemini-cli"], g
print("oot-harness: harness-gemini built from the installed SDK alone and loaded")
' "$tmp/gplug"

AITERM_PLUGIN_PATH=$tmp/plug
AITERM_SYSTEM_PLUGINDIR=$plugdir
AITERM_STATE_DIR=$tmp/state
AITERM_SHELL_DIR=$top_srcdir/core/shell/integration
HOME=$tmp/home
TMUX_TMPDIR=$tmp
PATH=$tmp/bin:$PATH
export AITERM_PLUGIN_PATH AITERM_SYSTEM_PLUGINDIR AITERM_STATE_DIR \
	AITERM_SHELL_DIR HOME TMUX_TMPDIR PATH

python3 - "$server" "$tmp/work" "$tmp/server.err" <<'PY'
import json, os, re, subprocess, sys
# A plugin's debug lines on the server's stderr (issue 39).
p = subprocess.Popen([sys.argv[1]], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=open(sys.argv[3], "w"),
                     env=dict(os.environ, AITERM_PLUGIN_LOG="debug"))
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
# The model's view: no structuredContent asked for.
call("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                    "clientInfo": {"name": "oot-harness", "version": "1"}})
def tool(name, **args):
    r = call("tools/call", {"name": name, "arguments": args})["result"]
    text = r["content"][0]["text"]
    assert not r.get("isError"), text
    print("oot-harness:", name, "->", json.dumps(text))
    return text
t = tool("agent_launch", harness="my-cli", cwd=sys.argv[2], prompt="hello there")
assert re.search(r"^launched my-cli 1\.2\.3 in (\S+) ", t, re.M), t
assert re.search(r"^startup: ready$", t, re.M), t
sid = re.search(r" in (\S+) \(launch ", t).group(1)
a = tool("pty_read", session_id=sid, agent_transcript=True, wait=True, timeout=20)
assert re.match(r"You said: hello there\n\[turn 1 done", a), a
b = tool("pty_send", session_id=sid, text='and "quotes" too', wait=True, timeout=20)
assert re.match(r'You said: and "quotes" too\n\[turn 2 done', b), b
o = tool("pty_observe", session_id=sid)
assert "; screen input_ready/composer_empty;" in o, o
# AGT-IMAGE (ADR 0036): a harness without attach_image takes no image.
png = os.path.join(sys.argv[2], "x.png")
with open(png, "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + bytes(24))
for name, args in (("pty_send", {"session_id": sid, "text": "never"}),
                   ("agent_launch", {"harness": "my-cli", "cwd": sys.argv[2],
                                     "prompt": "never"})):
    r = call("tools/call", {"name": name, "arguments": dict(args, image=[png])})["result"]
    assert r.get("isError"), r
    assert re.search(r"MY_IMAGE_UNSUPPORTED: the my-cli harness takes no "
                     r"image \(its plugin has no attach_image\); nothing was "
                     r"(sent|launched)$", r["content"][0]["text"]), r
tool("pty_close", session_id=sid)
p.stdin.close()
p.wait(timeout=10)
PY
# The example logs its launch at debug: shown with AITERM_PLUGIN_LOG,
# with the launch id the core drew (32 lowercase hex digits).
grep -Eq '^aiterm-mcp: debug: harness-mycli: launch [0-9a-f]{32} in ' \
    "$tmp/server.err" || {
	cat "$tmp/server.err" >&2
	echo "oot-harness: no debug line of the plugin with AITERM_PLUGIN_LOG=debug" >&2
	exit 1
}

# CTL-CLI (ADR 0022): the installed aiterm launches the same agent, and
# the agent's pane has what it needs to find Aiterm and its own session.
aiterm=$(dirname "$server")/aiterm
"$aiterm" launch my-cli "$tmp/work" --name clil --prompt 'hi there' >/dev/null
pid=$(tmux -S "$sock" display -p -t clil '#{pane_pid}')
if test -r "/proc/$pid/environ"; then
	env=$(tr '\0' '\n' <"/proc/$pid/environ")
else
	env=$(tmux -S "$sock" show-environment -t clil)
fi
for want in AITERM_SESSION_ID=clil "AITERM_STATE_DIR=$tmp/state" \
    "AITERM_BIN=$aiterm"; do
	printf '%s\n' "$env" | grep -qx "$want" || {
		echo "oot-harness: the agent's pane lacks $want:" >&2
		printf '%s\n' "$env" | grep '^AITERM_' >&2
		exit 1
	}
done
answer=$("$aiterm" read clil --agent-transcript --wait --timeout 20)
case $answer in
"You said: hi there"*) ;;
*) echo "oot-harness: aiterm read: $answer" >&2; exit 1 ;;
esac
"$aiterm" close clil >/dev/null
echo "oot-harness: aiterm launch/read/close, and the pane's variables: ok"
