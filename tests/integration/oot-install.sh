# tests/integration/oot-install.sh: sourced by the out-of-tree plugin
# tests (oot-plugin.sh, oot-harness.sh) with $name and $tmp set.  Installs
# the build into $tmp/inst (DESTDIR) and sets what a third party builds
# with: PKG_CONFIG_PATH (exported), $cflags from the installed
# aiterm-plugin.pc, $plugdir (the installed plugin folder) and $server
# (the installed aiterm-mcp).  Exits 99 when the install fails.
inst=$tmp/inst
${MAKE:-make} -s -C "$top_builddir" install DESTDIR="$inst" >"$tmp/install.log" 2>&1 || {
	cat "$tmp/install.log" >&2
	echo "$name: make install DESTDIR failed" >&2
	exit 99
}
pc=$(find "$inst" -name aiterm-plugin.pc | head -n 1)
test -n "$pc" || { echo "$name: aiterm-plugin.pc not installed" >&2; exit 1; }
prefix=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config --variable=prefix aiterm-plugin)
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
cflags=$(pkg-config --define-variable=prefix="$inst$prefix" --cflags aiterm-plugin)
plugdir=$(pkg-config --define-variable=prefix="$inst$prefix" --variable=pluginexecdir aiterm-plugin)
case $cflags in *"$inst"*) ;; *) echo "$name: cflags '$cflags' do not point into DESTDIR" >&2; exit 1 ;; esac
server=$inst$prefix/bin/aiterm-mcp
