#!/usr/bin/env python3
"""Write the seed corpora of fuzz/corpus/ (run once; the seeds are kept).

  fuzz/make-seeds.py [FIXTURES_DIR]

Reducer seeds are a few fixture outputs cut to 4 KB, plus hand-made
hostile inputs (invalid UTF-8, huge CSI parameters, an unterminated OSC,
a 1 MB line, a megabyte of escape sequences).  The other targets get a
few valid inputs and a few broken ones.  libFuzzer adds what it finds to
the folder it is given; fuzz/run.sh gives it a scratch copy, so only
these seeds are in the repository.
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)
fixtures = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
    root, "tests", "fixtures")
CUT = 4096

FIXTURE_CASES = [
    "git-status-mixed-color", "dd-status-progress-cr", "jest-failures-tty",
    "npm-install-spinner-ebadengine", "apt-get-install-python3-pytest",
    "pytest-mixed-results-color", "make-c-warnings-error", "git-log-default",
    "cargo-test-failures-color", "journalctl-unit-crashloop",
]

# Development cases of the unseen corpus's "traces" kind (issue 35: the
# valgrind, strace, ltrace and tcpdump reducers); never held-out ones.
TRACE_CASES = [
    "valgrind-drd-race", "valgrind-memcheck-leaks", "ltrace-cfgcheck-bad-value",
    "strace-f-cfgcheck-all", "tcpdump-A-http-422", "tcpdump-X-http-health",
]

HOSTILE = {
    "invalid-utf8": b"ok \xff\xfe \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 "
                    b"\xe2\x82 cut \xc3\n\x80\x80\x80 end\n",
    "huge-csi": b"a\x1b[99999999999999999999999999Gb\x1b[4294967296;"
                b"4294967296Hc\x1b[" + b"9" * 4000 + b"Ad\x1b[" + b";" * 3000 +
                b"m e\n",
    "unterminated-osc": b"before\x1b]0;title without end\nafter\n"
                        b"\x1b]8;;http://x/\x1b\\link\x1b]8;;\x07\n\x1bPq#0;"
                        b"never ends",
    "csi-cut": b"progress\x1b[",
    "cursor-dance": b"".join(b"line %d\n" % i for i in range(40)) +
                    b"\x1b[30A\x1b[2Kredrawn\x1b[999B\x1b[5;1H\x1b7\x1b[1;"
                    b"24r\x1b[24;1Hstatus\x1b8\x1b[J\x1b[3J\x1b[@\x1b[P\x1b"
                    b"[X\r\x08\x08\tdone\n",
    "controls": bytes(range(0, 32)) + b"\x7f\xc2\x80\xc2\x9f\x9b31m\n",
}


def write(target, name, data):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def fixture(case, what="out"):
    path = os.path.join(fixtures, "reduce", case, what)
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError:
        return None


def reducer_seeds():
    big = {
        "long-line-1mb": b"x" * (1 << 20) + b"\r\nafter\r\n",
        "escapes-1mb": (b"\x1b[1A\x1b[2K\x1b[38;5;1m\r\x1b[65535G\x1b]8;;u\x07"
                        b"\xc3\xa9\x1b[4096@\n") * ((1 << 20) // 37),
    }
    for target in ("strip", "repeat", "headtail", "generic"):
        for case in FIXTURE_CASES:
            out = fixture(case)
            if out is None:
                continue
            data = out[:CUT]
            if target == "headtail":
                data = bytes([20, 0x32, 16, 0x13]) + data
            write(target, case, data)
        for name, data in HOSTILE.items():
            if target == "headtail":
                data = bytes([8, 0x21, 8, 0x02]) + data
            write(target, name, data)
    for target in ("strip", "generic"):
        for name, data in big.items():
            write(target, name, data)
    write("repeat", "runs", b"same\n" * 20 + b"".join(
        b"12:00:%02d tick %d\n" % (i, i) for i in range(30)) +
        b"error: exit 1\n" * 3 + b"no final newline")


def cmd_seeds():
    lines = [
        b"git status", b"sudo -E env A=1 nice -n 5 /usr/bin/git log --oneline",
        b"cd src && make -j4 2>&1 | tail -n 50", b"python3 -m pytest -x 'a b'",
        b"npx jest --ci; echo done", b"echo \"unbalanced", b"cat <<EOF",
        b"(cd x; ls)", b"a\\ b 'c'\"d\"$e", b"timeout 5s uv run pytest",
        b"FOO=bar BAZ='q u x' cargo test -- --nocapture | grep -v ok",
    ]
    for i, line in enumerate(lines):
        write("cmd-argv", "line-%02d" % i, line)
    for case in FIXTURE_CASES:
        out = fixture(case)
        cmd = fixture(case, "cmd")
        if out is None or cmd is None:
            continue
        write("cmd-reduce", case, cmd.strip() + b"\n" + out[:CUT])
    for case in TRACE_CASES:
        d = os.path.join(fixtures, "unseen", case)
        with open(os.path.join(d, "cmd"), "rb") as f:
            cmd = f.read()
        with open(os.path.join(d, "out"), "rb") as f:
            out = f.read()
        write("cmd-reduce", case, cmd.strip() + b"\n" + out[:CUT])
    # A trace whose calls fail, resume and interleave the program's output.
    write("cmd-reduce", "strace-f-unfinished", b"strace -f ./a\n" +
          b"".join(b"[pid %d] read(3, \"k%d = v\\n\"..., 256) = 256\n"
                   % (7 + i % 2, i) for i in range(40)) +
          b"[pid 7] write(2, \"a: bad\\n\", 7 <unfinished ...>\na: bad\n"
          b"[pid 8] <... read resumed>) = -1 EINTR (Interrupted)\n"
          b"[pid 7] <... write resumed>) = 7\n+++ exited with 1 +++\n")
    write("cmd-reduce", "valgrind-dup-reports", b"valgrind --tool=helgrind ./a\n" +
          b"".join(b"==9== Possible data race during write of size 8 at 0x%x "
                   b"by thread #%d\n==9==    at 0x1: f (a.c:5)\n==9==    by 0x2:"
                   b" ??? (in /lib/x.so)\n==9== \n" % (16 * (i % 3), i)
                   for i in range(12)) + b"==9== ERROR SUMMARY: 12 errors\n")
    write("cmd-reduce", "tcpdump-X-short-rows", b"tcpdump -X -r a.pcap\n" +
          b"".join(b"1.%d IP 1.1.1.1.80 > 2.2.2.2.9: Flags [P.], length 9\n"
                   b"\t0x0000:  4500 00\n\t0x0010:  4854 5450 2f31 2e30 2034 3232"
                   b"  HTTP/1.0.422\n" % i for i in range(20)) +
          b"1.9 IP 2.2.2.2.9 > 1.1.1.1.80: Flags [R], length 0\n")
    write("cmd-reduce", "no-command", b"\nsome output\n")
    # du beyond its listing budget (RED_CMD_MAX_LINES x 4 rows).
    write("cmd-reduce", "du-far", b"du -h /r\n" +
          b"du: cannot read directory '/r/x': Permission denied\n" +
          b"".join(b"%dK\t/r/d%d/f%d\n" % (i % 97 + 1, i // 50, i)
                   for i in range(500)) +
          b"".join(b"%d.%dM\t/r/d%d\n" % (d, d % 10, d) for d in range(10)) +
          b"1.2G\t/r\n")
    # tar -tv (issue 35): a dev case's start, one beyond the listing
    # budget, and rows of every kind with tar's own lines among them.
    d = os.path.join(fixtures, "unseen", "tar-tvzf-assets")
    with open(os.path.join(d, "out"), "rb") as f:
        write("cmd-reduce", "tar-tvzf-assets", b"tar -tvzf assets.tar.gz\n" +
              f.read()[:CUT])
    write("cmd-reduce", "tar-far", b"tar -tvf a.tar\n" +
          b"".join(b"-rw-r--r-- u/g %d 2026-01-01 10:00 d%d/f-%d.png\n"
                   % (i, i // 50, i) for i in range(600)))
    write("cmd-reduce", "tar-kinds", b"tar tvf a.tar\n"
          b"drwxr-xr-x root/root 0 2026-01-01 10:00 a/\n"
          b"crw-rw-rw- root/root 1,3 2026-01-01 10:00 a/null\n"
          b"lrwxrwxrwx root/root 0 2026-01-01 10:00 a/l -> x y\n"
          b"hrw-r--r-- root/root 0 2026-01-01 10:00 a/h link to a/x\n"
          b"-rw-r--r-- me/staff 12 2026-01-01 10:00:59 a/b c\n"
          b"tar: a/z: Cannot open: No such file or directory\n"
          b"-rw-r--r-- root/root 0 2026-01-01 10:00 \n"
          b"tar: Exiting with failure status due to previous errors\n")
    write("cmd-reduce", "diff-ru", b"diff -ru old new\n" +
          b"Only in old: gone.txt\n" +
          b"".join(b"diff -ru old/f%d new/f%d\n--- old/f%d\t2026-12-01\n"
                   b"+++ new/f%d\t2026-12-02\n@@ -1,5 +1,5 @@\n a\n b\n"
                   b"--- c\n+-- C\n d\n e\n" % (i, i, i, i)
                   for i in range(20)))
    write("cmd-reduce", "hostile", b"git diff\n" + HOSTILE["invalid-utf8"] +
          HOSTILE["unterminated-osc"])


def manifest_seeds():
    d = os.path.join(root, "tests", "unit", "manifests")
    for name in sorted(os.listdir(d)):
        with open(os.path.join(d, name), "rb") as f:
            data = f.read()
        if len(data) <= CUT:
            write("manifest", name, data)
    for name in sorted(os.listdir(os.path.join(root, "plugins", "reducers"))):
        p = os.path.join(root, "plugins", "reducers", name,
                         "reducers-%s.yaml" % name)
        if os.path.exists(p):
            with open(p, "rb") as f:
                write("manifest", "reducers-" + name, f.read())
    write("manifest", "deep", b"[" * 40 + b"]" * 40)
    write("manifest", "anchors", b"a: &x [*x]\nb: *x\n")
    write("manifest", "two-docs", b"manifest: 1\n---\nmanifest: 1\n")


def req(i, method, params=None):
    m = {"jsonrpc": "2.0", "id": i, "method": method}
    if params is not None:
        m["params"] = params
    return json.dumps(m).encode()


def mcp_seeds():
    init = req(1, "initialize", {"protocolVersion": "2025-06-18",
               "capabilities": {}, "clientInfo": {"name": "f", "version": "1"}})
    inited = b'{"jsonrpc":"2.0","method":"notifications/initialized"}'
    calls = [
        req(2, "tools/list"),
        req(3, "tools/call", {"name": "pty_open", "arguments": {"name": "a"}}),
        req(4, "tools/call", {"name": "pty_send", "arguments":
            {"session_id": "a", "text": "ls\n", "wait": True}}),
        req(5, "tools/call", {"name": "pty_read", "arguments":
            {"session_id": "a", "line_range": [1, 2]}}),
        req(6, "tools/call", {"name": "pty_key", "arguments":
            {"session_id": "a", "key": "ctrl-c"}}),
        req(7, "tools/call", {"name": "pty_close", "arguments":
            {"session_id": "a"}}),
        req(8, "tools/call", {"name": "pty_list", "arguments": {}}),
        req(9, "tools/call", {"name": "diagnostics"}),
        req(10, "logging/setLevel", {"level": "debug"}),
        req(11, "ping"),
        req("s", "tools/call", {"name": "nope", "arguments": 3}),
        b'{"jsonrpc":"2.0","method":"notifications/cancelled",'
        b'"params":{"requestId":3}}',
    ]
    session = b"\n".join([init, inited] + calls) + b"\n"
    write("mcp", "session", session)
    write("mcp", "session-crlf", session.replace(b"\n", b"\r\n"))
    write("mcp", "before-init", b"\n".join(calls[:3]) + b"\n")
    write("mcp", "broken", b'{"jsonrpc":"2.0","id":1,"method":"ping"\n[]\n42\n'
          b'{"jsonrpc":"2.0","id":null,"method":"ping"}\n\xff\xfe\n   \n'
          b'{"jsonrpc":"2.0","id":1.5,"method":"x"}\n{"id":1,"result":{}}\n'
          b'{"jsonrpc":"2.0","id":2,"method":"ping","params":[1]}\nno newline')
    # Issue 37: JSON beyond jansson's limits, answered with its own id.
    write("mcp", "beyond-limits", init + b"\n" + inited + b"\n"
          b'{"jsonrpc":"2.0","id":3,"method":"ping","params":{"s":"\\u0000"}}\n'
          b'{"jsonrpc":"2.0","method":"ping","params":{"n":9223372036854775808},"id":"x"}\n'
          b'{"jsonrpc":"2.0","\\u0069d":4,"method":"ping","params":{"n":-1e999}}\n'
          b'{"jsonrpc":"2.0","id":9223372036854775808,"method":"ping"}\n'
          b'{"jsonrpc":"2.0","id":5,"s":"\\u0000",}\n'
          + req(6, "tools/call", {"name": "pty_read", "arguments":
                {"session_id": "a", "lines": 2}}).replace(b"2}", b"2.0}")
          + b"\n")
    write("mcp", "too-large", b"\x01" + b'{"jsonrpc":"2.0","id":1,"method":"'
          + b"m" * 2000 + b'"}\n' + req(2, "ping") + b"\n")
    write("mcp", "long-line-1mb", init + b"\n" + req(2, "tools/call", {
        "name": "pty_send", "arguments": {"session_id": "a",
                                          "text": "x" * (1 << 20)}}) + b"\n")


def schema_seeds():
    # The first byte picks the schema: a tool's (0..7) or the input's (8).
    args = [
        {"name": "s1", "shell": "bash", "cols": 120, "rows": 40},
        {"session_id": "pty-abc", "text": "ls\n", "wait": True,
         "until": "$ ", "timeout": 3},
        {"session_id": "x", "line_range": [1, 10], "full": False},
        {"session_id": "x", "key": "ctrl-c"},
        {"session_id": "x"}, {}, {}, {"ms": 10},
        {"session_id": 3, "extra": None, "text": ["a"]},
    ]
    for i, a in enumerate(args):
        write("schema", "tool-%d" % i, bytes([i]) + json.dumps(a).encode())
    write("schema", "own-schema", bytes([8]) + json.dumps({
        "type": "object", "properties": {"a": {"type": ["string", "null"],
        "minLength": 1, "maxLength": 3, "enum": ["ab", None]},
        "n": {"type": "integer", "minimum": -1, "maximum": 1e300},
        "l": {"type": "array", "minItems": 1, "maxItems": 2,
              "items": {"type": "number"}}},
        "required": ["a", "zz"], "additionalProperties": False}).encode() +
        b"\n" + json.dumps({"a": "ab", "n": 1, "l": [1.5]}).encode())
    write("schema", "nul-string", bytes([1]) +
          b'{"session_id":"a\\u0000b","text":"\\u0000"}')


def shell_seeds():
    texts = {
        "plain": b"echo hello",
        "multi": b"cd /tmp\nexport A='x y'\necho \"$A\" | wc -c\n",
        "crlf": b"line one\r\nline two\r\n",
        "quotes": b"printf '%s\\n' \"it's\" `date` $(id) !! 100%",
        "leading-dash": b"-n -e --\n-",
        "heredoc": b"cat <<'E'\n\\backslash\n\tE\nE\n",
        "utf8": "caf\u00e9 \u65e5\u672c \U0001f600\n".encode(),
        "controls": b"\x1b[31mred\x1b[0m\x07\x00after nul\r\x7f",
        "invalid-utf8": HOSTILE["invalid-utf8"],
        "bracketed-paste": b"\x1b[200~pasted\x1b[201~\x1b]0;t\x07\x1bP+q\x1b\\",
        "long": b"echo " + b"0123456789 " * 800 + b"\n",
    }
    for target in ("eval-posix", "pwsh", "sanitize"):
        for name, data in texts.items():
            write(target, name, data)


def main():
    reducer_seeds()
    cmd_seeds()
    manifest_seeds()
    mcp_seeds()
    schema_seeds()
    shell_seeds()
    os.makedirs(os.path.join(here, "crashes"), exist_ok=True)


if __name__ == "__main__":
    main()
