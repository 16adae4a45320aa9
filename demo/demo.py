#!/usr/bin/env python3
"""Live demo: drive the real aiterm-mcp over stdio, as an MCP client would.

Usage: demo.py PATH-TO-aiterm-mcp

It keeps its state (and its private tmux server) under a temporary
directory, so it never touches your own sessions.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


class Client:
    def __init__(self, argv, env):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, env=env)
        self.next_id = 1

    def request(self, method, params=None):
        msg = {"jsonrpc": "2.0", "id": self.next_id, "method": method}
        if params is not None:
            msg["params"] = params
        self.next_id += 1
        line = json.dumps(msg)
        print(f"\n\033[36m→ {line[:300]}\033[0m")
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()
        while True:
            reply = json.loads(self.proc.stdout.readline())
            if reply.get("id") == msg["id"]:
                return reply
            print(f"\033[33m← (notification) {json.dumps(reply)[:200]}\033[0m")

    def notify(self, method, params=None):
        msg = {"jsonrpc": "2.0", "method": method}
        if params is not None:
            msg["params"] = params
        self.proc.stdin.write(json.dumps(msg).encode() + b"\n")
        self.proc.stdin.flush()

    def tool(self, tool_name, **args):
        reply = self.request("tools/call",
                             {"name": tool_name, "arguments": args})
        result = reply.get("result", {})
        text = "".join(c.get("text", "") for c in result.get("content", []))
        flag = " (isError)" if result.get("isError") else ""
        print(f"\033[32m← what the AI reads{flag}:\033[0m\n{text}")
        return result

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def plugin_dirs(build):
    """Every build folder holding a plugin manifest (plugins/*, plugins/*/*)."""
    found = []
    for top, dirs, files in os.walk(os.path.join(build, "plugins")):
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        if any(f.endswith(".yaml") for f in files):
            found.append(top)
    return sorted(found)


def step(title):
    print(f"\n\033[1m=== {title}\033[0m")


SCRIPT = r"""cat > notes.txt <<'EOF'
it's "quoted", $NOT_EXPANDED, a \backslash
EOF
for i in 1 2 3; do printf 'line %s\n' "$i"; done
wc -l < notes.txt"""


def run_pty(client, work):
    step("open a persistent terminal (a shell in a private tmux server)")
    opened = client.tool("pty_open", name="demo", cwd=work)
    # The model reads text only (ADR 0006): "opened <id> (...)".
    sid = opened["content"][0]["text"].split()[1]

    step("cd and export persist between commands (one call each: "
         "send, wait, output)")
    client.tool("pty_send", session_id=sid, wait=True,
                text="mkdir -p project && cd project && export GREETING=hello")
    client.tool("pty_send", session_id=sid, text='pwd; echo "$GREETING"',
                wait=True)

    step("a multi-line script runs as one unit: heredoc, quotes, a loop")
    client.tool("pty_send", session_id=sid, wait=True, text=SCRIPT)

    step("a failing command: its exit code comes back")
    client.tool("pty_send", session_id=sid, text="ls /nonexistent",
                wait=True)

    step("long output: head and tail, and the line_range to read the rest")
    client.tool("pty_send", session_id=sid, text="seq 1 100000", wait=True)

    if shutil.which("git"):
        step("a command reducer: git status, summarised (RED-CMD)")
        client.tool("pty_send", session_id=sid, wait=True, text=(
            "git init -q . && git -c user.email=demo@example.com "
            "-c user.name=demo commit -q --allow-empty -m init && "
            "touch a.c b.c && git add a.c && echo change >> notes.txt"))
        client.tool("pty_send", session_id=sid, text="git status",
                    wait=True)

    step("sessions outlive the server; a person can attach with the "
         "command pty_open printed")
    client.tool("pty_list")
    client.tool("pty_close", session_id=sid)


def main():
    binary = sys.argv[1]
    root = tempfile.mkdtemp(prefix="aiterm-demo.")
    build = os.path.dirname(os.path.abspath(binary))
    work = os.path.join(root, "work")
    home = os.path.join(root, "home")
    os.makedirs(work)
    os.makedirs(home)
    env = dict(os.environ, AITERM_STATE_DIR=os.path.join(root, "state"),
               AITERM_PLUGIN_PATH=":".join(plugin_dirs(build)),
               AITERM_SYSTEM_PLUGINDIR="", HOME=home)
    client = Client([binary], env)
    try:
        t0 = time.monotonic()
        reply = client.request("initialize", {
            "protocolVersion": "2025-11-25", "capabilities": {},
            "clientInfo": {"name": "aiterm-demo", "version": "1"}})
        ms = (time.monotonic() - t0) * 1000
        info = reply["result"]["serverInfo"]
        print(f"← initialized {info['name']} {info['version']}, protocol "
              f"{reply['result']['protocolVersion']} in {ms:.1f} ms")
        client.notify("notifications/initialized")
        tools = client.request("tools/list")["result"]["tools"]
        print("← tools: " + ", ".join(t["name"] for t in tools))
        client.tool("diagnostics")
        run_pty(client, work)
    finally:
        client.close()
        # The private tmux server outlives the MCP server by design (that
        # is how sessions survive restarts); this demo's state goes, so
        # its tmux server goes too: ours alone, by its own socket.
        sock = os.path.join(root, "state", "tmux.sock")
        if os.path.exists(sock) and shutil.which("tmux"):
            subprocess.run(["tmux", "-S", sock, "kill-server"],
                           stderr=subprocess.DEVNULL, check=False)
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
