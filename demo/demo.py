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

    def tool(self, name, **args):
        reply = self.request("tools/call", {"name": name, "arguments": args})
        result = reply.get("result", {})
        text = "".join(c.get("text", "") for c in result.get("content", []))
        flag = " (isError)" if result.get("isError") else ""
        print(f"\033[32m← what the AI reads{flag}:\033[0m\n{text}")
        return result

    def close(self):
        self.proc.stdin.close()
        self.proc.wait(timeout=10)


def main():
    binary = sys.argv[1]
    root = tempfile.mkdtemp(prefix="aiterm-demo.")
    build = os.path.dirname(os.path.abspath(binary))
    plugin_dirs = sorted(os.path.join(build, "plugins", d)
                         for d in os.listdir(os.path.join(build, "plugins"))
                         if not d.startswith("."))
    env = dict(os.environ, AITERM_STATE_DIR=os.path.join(root, "state"),
               AITERM_PLUGIN_PATH=":".join(plugin_dirs))
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
        demo_pty = os.path.join(os.path.dirname(__file__), "demo_pty.py")
        if any(t["name"] == "pty_open" for t in tools) and \
                os.path.exists(demo_pty):
            sys.path.insert(0, os.path.dirname(__file__))
            import demo_pty
            demo_pty.run(client)
    finally:
        client.close()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
