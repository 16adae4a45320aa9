#!/usr/bin/env python3
"""bench/tmux-baseline.py (issue 17, load): plain tmux, no Aiterm.

The time one control-mode client waits for one `display-message -p -t
=<session>: '#{pane_pid}'`, and for one `list-panes -a` with the format
mux-tmux lists sessions with, on a private tmux server (its own socket in a
temporary folder, -f /dev/null, automatic-rename off as Aiterm sets it)
holding 50 and then 500 detached `sh` sessions: the floor under Aiterm's
pty_observe and round trip, which send one to three such commands each,
and under pty_list, which sends one list-panes -a.

    python3 bench/tmux-baseline.py [--counts=50,500] [--runs=200]

It prints figures; it is not a test.  Each tmux server is ended by its PID.
"""
import os
import signal
import subprocess
import sys
import tempfile
import time

args = dict(a[2:].split("=", 1) for a in sys.argv[1:] if a.startswith("--") and "=" in a)
COUNTS = [int(x) for x in args.get("counts", "50,500").split(",")]
RUNS = int(args.get("runs", "200"))
# What mux-tmux's list asks every pane for (plugins/mux-tmux/tmux-pane.c).
LIST_FORMAT = ("#{session_name}:#{session_created}\t#{pid}\t#{pane_pid}\t#{pane_dead}\t"
               "#{pane_dead_status}\t#{pane_dead_signal}\t#{pane_width}\t#{pane_height}\t"
               "#{cursor_x}\t#{cursor_y}\t#{pane_current_command}")


def one(n, folder):
    sock = os.path.join(folder, "tmux-%d.sock" % n)
    tmux = ["tmux", "-S", sock, "-f", "/dev/null"]
    subprocess.run(tmux + ["new-session", "-d", "-s", "s0", "sh"], check=True)
    pid = int(subprocess.run(tmux + ["display-message", "-p", "#{pid}"],
                             capture_output=True, text=True, check=True).stdout)
    try:
        subprocess.run(tmux + ["set", "-g", "automatic-rename", "off"], check=True)
        for i in range(1, n):
            subprocess.run(tmux + ["new-session", "-d", "-s", "s%d" % i, "sh"], check=True)
        ctl = subprocess.Popen(tmux + ["-C"], stdin=subprocess.PIPE,
                               stdout=subprocess.PIPE, bufsize=0)

        def command(line):
            ctl.stdin.write((line + "\n").encode())
            while True:
                out = ctl.stdout.readline()
                if not out or out.startswith((b"%end", b"%error")):
                    return

        command("display-message -p '#{pid}'")

        def timed(line_of):
            times = []
            for k in range(RUNS):
                t0 = time.perf_counter()
                command(line_of(k))
                times.append((time.perf_counter() - t0) * 1000)
            times.sort()
            return times[len(times) // 2], times[len(times) * 9 // 10]

        one = timed(lambda k: "display-message -p -t '=s%d:' '#{pane_pid}'" % ((k * 7) % n))
        every = timed(lambda k: "list-panes -a -F '%s'" % LIST_FORMAT)
        ctl.stdin.close()
        ctl.wait(timeout=10)
        return one, every
    finally:
        os.kill(pid, signal.SIGKILL)


def main():
    with tempfile.TemporaryDirectory(prefix="aiterm-tmux-baseline-") as folder:
        first = None
        for n in COUNTS:
            (p50, p90), (l50, l90) = one(n, folder)
            ratio = "" if first is None else "; %.1fx and %.1fx the first" % (p50 / first[0], l50 / first[1])
            first = first or (p50, l50)
            print("%d sessions: display-message p50 %.3f ms, p90 %.3f ms; "
                  "list-panes -a p50 %.3f ms, p90 %.3f ms%s" % (n, p50, p90, l50, l90, ratio))


main()
