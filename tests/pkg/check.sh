#!/usr/bin/env bash
# tests/pkg/check.sh: the Debian packaging works (issue 19).  Not part of
# make check; ./quickstart check runs it as a stage of its own.
#
#  1. dpkg-buildpackage -us -uc -b in a temporary copy of the tree;
#  2. lintian reports no error (its whole output is shown);
#  3. the server and exactly two plugins (aiterm, aiterm-mux-tmux,
#     aiterm-harness-claude) are installed with dpkg into a scratch root
#     (dpkg --root: its own dpkg database, nothing installed on this
#     machine); aiterm-mcp --list-plugins and aiterm-setup --json see
#     exactly those plugins (harness-claude ships receiver-claude too);
#  4. a harness is whole in its package (issue 31): with every package
#     installed, dpkg --root --purge aiterm-harness-codex leaves no file
#     whose path names codex (no hook program, plugin, manifest or run
#     backend); the server lists the other plugins; aiterm-hook codex-queue
#     says aiterm-hook-codex is not installed, aiterm-hook claude-pre still
#     runs aiterm-hook-claude, aiterm run has no codex backend left; then
#     the other harnesses and the reducers are removed again;
#  5. dpkg --root -r aiterm-harness-claude: the server lists mux-tmux
#     alone and still opens a terminal, runs a command and reads its
#     output over MCP (tests/pkg/mcp-smoke.py);
#  6. libaiterm-plugin-dev: a plugin built against the installed header
#     and .pc only, outside the tree, is loaded by the packaged server;
#  7. its test kit: doc/examples/harness-mycli's unit tests build against
#     the packaged aiterm-plugin-test.pc alone and pass on its recordings.
#
# The scratch root holds only the packages; the shared libraries they
# need (libjansson, libuv, ...) are this machine's, which is why dpkg is
# told --force-depends, and the scratch server is pointed at the scratch
# plugin directory with AITERM_SYSTEM_PLUGINDIR (the path built in is the
# same one without the scratch prefix).  Needs: dpkg-dev, debhelper,
# lintian, fakeroot, python3, tmux, cc, and the build dependencies.
set -euo pipefail

here=$(cd "$(dirname "$0")/../.." && pwd)
jobs=${JOBS:-2}
t0=$(date +%s)
say() { printf '==> pkg: %s (%ss)\n' "$*" "$(($(date +%s) - t0))" >&2; }
fail() { printf 'FAIL: pkg: %s\n' "$*" >&2; exit 1; }

for tool in dpkg-buildpackage dh lintian fakeroot python3 tmux cc; do
	command -v "$tool" >/dev/null 2>&1 ||
		fail "$tool is not installed (./quickstart check installs it)"
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/aiterm-pkg.XXXXXX")
root=$tmp/root
state=$tmp/state
cleanup() {
	# Our private tmux server only, by its socket.
	if [ -S "$state/tmux.sock" ]; then
		tmux -S "$state/tmux.sock" kill-server 2>/dev/null || :
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT

say "copying the tree to $tmp/aiterm"
mkdir "$tmp/aiterm"
if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$here" && git ls-files -co --exclude-standard -z |
		tar --null -cf - -T -) | tar -xf - -C "$tmp/aiterm"
else
	(cd "$here" && tar --exclude='./build*' --exclude=./b \
		--exclude=./debian/.debhelper -cf - .) | tar -xf - -C "$tmp/aiterm"
fi

say "dpkg-buildpackage -us -uc -b"
(cd "$tmp/aiterm" && dpkg-buildpackage -us -uc -b -j"$jobs") \
	>"$tmp/build.log" 2>&1 || { tail -n 60 "$tmp/build.log" >&2;
	fail "dpkg-buildpackage failed"; }
grep -E '^(PASS|FAIL|SKIP|ERROR): ' "$tmp/build.log" >&2 || :

want="aiterm aiterm-harness-claude aiterm-harness-codex aiterm-harness-cursor
aiterm-harness-gemini aiterm-harness-grok aiterm-mux-tmux aiterm-reducers
libaiterm-plugin-dev"
got=$(cd "$tmp" && ls ./*.deb | sed 's|^\./||; s|_.*||' | grep -v -- '-dbgsym$' |
	sort | tr '\n' ' ')
[ "$got" = "$(echo $want | tr ' ' '\n' | sort | tr '\n' ' ')" ] ||
	fail "the binary packages are '$got', not '$want'"
echo "packages: $got" >&2

say "lintian"
lintian --fail-on error --display-level '>=warning' \
	"$tmp"/aiterm_*.changes 2>&1 | grep -v 'running with root privileges' \
	>&2 || :
lintian --fail-on error "$tmp"/aiterm_*.changes >/dev/null 2>&1 ||
	fail "lintian reports errors"
echo "lintian: no error" >&2

arch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
plugindir=$root/usr/lib/$arch/aiterm/plugins
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates" \
	"$root/var/lib/dpkg/triggers" "$state"
: >"$root/var/lib/dpkg/status"
: >"$root/var/lib/dpkg/available"
deb() { echo "$tmp/$1"_*.deb; }
dpkg_root() { dpkg --root="$root" --force-depends --log=/dev/null "$@" \
	>"$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log" >&2;
	fail "dpkg $*"; }; }

# The server binaries, pointed at the scratch root.
export AITERM_SYSTEM_PLUGINDIR=$plugindir AITERM_PLUGIN_PATH= AITERM_PLUGINS=
export AITERM_SHELL_DIR=$root/usr/share/aiterm/shell
export HOME=$tmp/home AITERM_STATE_DIR=$state XDG_STATE_HOME=
mkdir "$HOME"
mcp=$root/usr/bin/aiterm-mcp

# listed: the sorted names of the plugins in --list-plugins' JSON on
# stdin; fails when one did not load.
listed() {
	python3 -c 'import json, sys
ps = json.load(sys.stdin)["plugins"]
bad = [p["name"] + ": " + p.get("error", "?") for p in ps if not p["loaded"]]
if bad:
    sys.exit("not loaded: " + "; ".join(bad))
print(" ".join(sorted(p["name"] for p in ps)))'
}

# expect WHAT GOT WANT
expect() {
	[ "$2" = "$3" ] || fail "$1 shows '$2', not '$3'"
	echo "$1: $2" >&2
}

say "dpkg --root: aiterm, aiterm-mux-tmux, aiterm-harness-claude"
dpkg_root -i "$(deb aiterm)" "$(deb aiterm-mux-tmux)" \
	"$(deb aiterm-harness-claude)"
dpkg --root="$root" -l | sed -n 's/^ii  //p' | awk '{print "  " $1, $2}' >&2
[ -f "$root/usr/share/man/man1/aiterm-mcp.1.gz" ] ||
	fail "aiterm-mcp(1) is not installed"
expect "aiterm-mcp --list-plugins" \
	"$("$mcp" --list-plugins | listed)" \
	"harness-claude mux-tmux receiver-claude"
# The shell front door is in the server's package and runs from there.
expect "aiterm --version" "$("$root/usr/bin/aiterm" --version)" \
	"aiterm $(sed -n 's/^AC_INIT(\[aiterm\], *\[\([^]]*\)\].*/\1/p' \
	"$here/configure.ac")"
# aiterm-setup: --dry-run writes nothing; no client is installed in this
# HOME, so it exits 1 (NO_CLIENT_FOUND) after its checks: the plugins are
# among what it reports of Aiterm.
"$root/usr/bin/aiterm-setup" --json --dry-run --server "$mcp" \
	>"$tmp/setup.json" 2>"$tmp/setup.err" || :
# Its terminal test runs through the scratch server too.
expect "aiterm-setup --json" "$(python3 -c 'import json, sys
a = json.load(open(sys.argv[1]))["aiterm"]
print(" ".join(sorted(p["name"] for p in a["plugins"] if p["loaded"])),
      "/ terminal test", a["terminal_test"]["probe"])' "$tmp/setup.json")" \
	"harness-claude mux-tmux receiver-claude / terminal test passed"

say "dpkg --root: every harness and the reducers; --purge aiterm-harness-codex"
dpkg_root -i "$(deb aiterm-harness-codex)" "$(deb aiterm-harness-cursor)" \
	"$(deb aiterm-harness-gemini)" "$(deb aiterm-harness-grok)" \
	"$(deb aiterm-reducers)"
reducers="reducers-build reducers-files reducers-git reducers-pkg reducers-sys reducers-tests reducers-trace"
expect "aiterm-mcp --list-plugins (all)" "$("$mcp" --list-plugins | listed)" \
	"harness-claude harness-codex harness-cursor harness-gemini harness-grok mux-tmux receiver-claude receiver-codex receiver-cursor $reducers"
for f in usr/bin/aiterm-hook-codex usr/share/aiterm/backends/codex.yaml; do
	[ -e "$root/$f" ] || fail "aiterm-harness-codex did not install /$f"
done
dpkg_root --purge aiterm-harness-codex
# Not a path under the root names codex: its programs, plugins,
# manifests, run backend, docs and dpkg's files of it are gone.
left=$(cd "$root" && find . -ipath '*codex*' | sort)
[ -z "$left" ] || fail "after purging aiterm-harness-codex: $left"
echo "files naming codex after the purge: none" >&2
expect "aiterm-mcp --list-plugins (no codex)" \
	"$("$mcp" --list-plugins | listed)" \
	"harness-claude harness-cursor harness-gemini harness-grok mux-tmux receiver-claude receiver-cursor $reducers"
hook=$root/usr/bin/aiterm-hook
rc=0
"$hook" codex-queue --state-dir "$state" d0123456789abcdef \
	>"$tmp/hook.out" 2>"$tmp/hook.err" || rc=$?
expect "aiterm-hook codex-queue (exit, stderr)" "$rc $(cat "$tmp/hook.err")" \
	"1 aiterm-hook: no hook program for 'codex-queue': aiterm-hook-codex is not installed (package aiterm-harness-codex)"
"$hook" --help >"$tmp/hook.out" || fail "aiterm-hook --help exited non-zero"
expect "aiterm-hook --help (programs)" \
	"$(sed -n 's/^  \([a-z0-9]*\)-\*\t.*/\1/p' "$tmp/hook.out" | tr '\n' ' ')" \
	"claude cursor "
echo '{"tool_use_id":"toolu_pkg","session_id":"pkg-session"}' |
	"$hook" claude-pre --state-dir "$state" ||
	fail "aiterm-hook claude-pre exited non-zero"
[ -f "$state/claude-parent-hooks/toolu_pkg.pre.json" ] ||
	fail "aiterm-hook claude-pre did not run aiterm-hook-claude"
echo "aiterm-hook claude-pre: ran aiterm-hook-claude" >&2
rc=0
AITERM_BACKEND_DIR=$root/usr/share/aiterm/backends \
	"$root/usr/bin/aiterm" run --backend codex -- hi \
	>"$tmp/run.out" 2>"$tmp/run.err" || rc=$?
if [ "$rc" -eq 0 ] || ! grep -q "no backend 'codex'" "$tmp/run.err"; then
	fail "aiterm run --backend codex: exit $rc, $(cat "$tmp/run.err")"
fi
echo "aiterm run --backend codex: no backend 'codex'" >&2
dpkg_root -r aiterm-harness-cursor aiterm-harness-gemini aiterm-harness-grok \
	aiterm-reducers

say "dpkg --root -r aiterm-harness-claude"
dpkg_root -r aiterm-harness-claude
for f in harness-claude.yaml receiver-claude.yaml; do
	[ ! -e "$plugindir/$f" ] || fail "$f is still there after removal"
done
expect "aiterm-mcp --list-plugins" "$("$mcp" --list-plugins | listed)" \
	"mux-tmux"
python3 "$here/tests/pkg/mcp-smoke.py" "$mcp" "$state" >&2 ||
	fail "the server does not work after a plugin package was removed"

say "libaiterm-plugin-dev: a plugin built outside the tree"
dpkg_root -i "$(deb libaiterm-plugin-dev)"
pc="PKG_CONFIG_PATH=$root/usr/lib/$arch/pkgconfig PKG_CONFIG_SYSROOT_DIR=$root"
cflags=$(env $pc pkg-config --cflags aiterm-plugin)
# pkgconf puts the sysroot in front of the path, as it does for -I.
expect "pkg-config --variable=pluginexecdir" \
	"$(env $pc pkg-config --variable=pluginexecdir aiterm-plugin)" \
	"$plugindir"
mkdir "$tmp/oot"
cc -std=c11 -Wall -Wextra -Werror -shared -fPIC $cflags \
	-o "$tmp/oot/oot_reducer.so" "$here/tests/pkg/oot-reducer.c" ||
	fail "the plugin does not build against the installed header"
cp "$here/tests/pkg/oot-reducer.yaml" "$tmp/oot/"
expect "aiterm-mcp --list-plugins (AITERM_PLUGIN_PATH=oot)" \
	"$(AITERM_PLUGIN_PATH=$tmp/oot "$mcp" --list-plugins | listed)" \
	"mux-tmux oot-reducer"

say "libaiterm-plugin-dev: the test kit (issue 39)"
# The example harness's unit tests against the packaged kit alone: the
# fake host and the fixture runner on the example's own recordings.
for f in plugin-test.h harness-util.h; do
	[ -f "$root/usr/include/aiterm/$f" ] || fail "aiterm/$f is not packaged"
done
cp -R "$here/doc/examples/harness-mycli" "$tmp/kit"
chmod -R u+w "$tmp/kit"
# shellcheck disable=SC2046
(cd "$tmp/kit" && cc -std=c11 -Wall -Wextra -Werror \
	$(env $pc pkg-config --cflags aiterm-plugin-test) -o test-mycli \
	test-mycli.c mycli.c $(env $pc pkg-config --libs aiterm-plugin-test) &&
	./test-mycli fixtures/mycli-1.2.3 >&2) ||
	fail "harness-mycli's unit tests do not build or pass with the packaged kit"

say "passed"
echo "pkg: 7 checks passed in $(($(date +%s) - t0)) s"
