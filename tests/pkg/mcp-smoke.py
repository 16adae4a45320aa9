#!/usr/bin/env python3
"""tests/pkg/mcp-smoke.py SERVER STATE_DIR: the packaged server works.

Speaks MCP to SERVER over stdio: initialize, then open a terminal, run a
command in it and read its output back, then close it.  Exits 0 when the
output came back, 1 otherwise.  The private tmux server lives under
STATE_DIR; the caller ends it (by its socket) and removes the folder.
"""
import json
import subprocess
import sys


def main():
    server, state = sys.argv[1], sys.argv[2]
    proc = subprocess.Popen([server, "--state-dir", state],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    ids = iter(range(1, 100))

    def call(method, params):
        msg = {"jsonrpc": "2.0", "id": next(ids), "method": method,
               "params": params}
        proc.stdin.write(json.dumps(msg).encode() + b"\n")
        proc.stdin.flush()
        while True:
            line = proc.stdout.readline()
            if not line:
                raise SystemExit("mcp-smoke: the server closed stdout")
            reply = json.loads(line)
            if reply.get("id") == msg["id"]:
                return reply

    def tool(tool_name, **args):
        result = call("tools/call", {"name": tool_name, "arguments": args})
        result = result.get("result", {})
        text = "".join(c.get("text", "") for c in result.get("content", []))
        if result.get("isError"):
            raise SystemExit(f"mcp-smoke: {tool_name} failed: {text}")
        return text

    try:
        call("initialize", {"protocolVersion": "2025-11-25",
                            "capabilities": {},
                            "clientInfo": {"name": "pkg-check",
                                           "version": "1"}})
        proc.stdin.write(b'{"jsonrpc":"2.0","method":'
                         b'"notifications/initialized"}\n')
        opened = tool("pty_open", name="pkg", shell="/bin/bash", cwd=state)
        sid = opened.split()[1]
        out = tool("pty_send", session_id=sid, text="echo pkg-$((6*7))",
                   wait=True)
        tool("pty_close", session_id=sid)
    finally:
        proc.stdin.close()
        proc.wait(timeout=10)
    if "pkg-42" not in out:
        print(f"mcp-smoke: the command's output did not come back: {out!r}")
        return 1
    print("mcp-smoke: pty_open, pty_send (echo pkg-42) and pty_close work")
    return 0


if __name__ == "__main__":
    sys.exit(main())
