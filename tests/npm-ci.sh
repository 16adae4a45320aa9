# tests/npm-ci.sh: sourced by the node suites' run.sh (tests/mcp,
# tests/clients).  npm_ci_locked NAME SRC DST PKG... copies SRC's
# package.json and package-lock.json to DST (the source tree may be
# read-only: distcheck) and runs `npm ci --ignore-scripts` there, skipped
# while DST/node_modules matches the lock (a stamp holds the lock's
# sha256) and holds every PKG.  --ignore-scripts: no install script from
# the registry runs.  Exits 99 (a broken set-up) when it cannot.

npm_ci_locked() {
	name=$1 src=$2 dst=$3
	shift 3
	mkdir -p "$dst"
	if test "$(cd "$src" && pwd -P)" != "$(cd "$dst" && pwd -P)"; then
		for f in package.json package-lock.json; do
			if ! cmp -s "$src/$f" "$dst/$f"; then
				# The copy of a read-only source file is read-only too.
				rm -f "$dst/$f"
				cp "$src/$f" "$dst/$f"
				chmod u+w "$dst/$f"
			fi
		done
	fi
	stamp=$dst/node_modules/.aiterm-lock-sha256
	want=$(node -e 'process.stdout.write(require("crypto").createHash("sha256").update(require("fs").readFileSync(process.argv[1])).digest("hex"))' "$dst/package-lock.json")
	have=
	if test -f "$stamp"; then
		have=$(cat "$stamp")
		for pkg in "$@"; do
			test -f "$dst/node_modules/$pkg/package.json" || have=
		done
	fi
	test "$have" = "$want" && return 0
	if ! command -v npm >/dev/null 2>&1; then
		echo "$name: npm is not installed; cannot install $*" >&2
		exit 99
	fi
	echo "$name: npm ci in $dst"
	if ! (cd "$dst" && npm ci --no-audit --no-fund --prefer-offline \
	    --ignore-scripts); then
		echo "$name: npm ci failed" >&2
		exit 99
	fi
	printf '%s\n' "$want" >"$stamp"
}
