# tests/skips.sh: what a test runner does with the tests it skipped.
# Sourced by tests/mcp/run.sh and fuzz/run.sh (POSIX sh).
#
# A skip has a name and a reason: "no-sshd: /usr/sbin/sshd is not
# installed" (a name is [a-z0-9-]+; a reason without one is named
# "unnamed").  A skip fails its runner unless AITERM_ALLOW_SKIPS allows
# its name: a comma- or blank-separated list of names, or "all"
# (README, "Tests").  Every skip is also appended to $AITERM_SKIP_LOG,
# when set, as "<where>\t<name>\t<reason>": ./quickstart check prints
# their count in its summary.
#
# The names in use: no-<program> for a program that is not installed
# (no-sshd, no-python3, a shell: no-fish ...; the REPLs of
# tests/mcp/pty-repl.test.cjs: no-node, no-sqlite3, no-psql, and no-initdb
# when PostgreSQL's server, initdb and pg_ctl, is absent), not-root for
# what only root can do.
#
#   skips_check WHERE FILE    FILE holds one reason a line; prints the
#                             count and each skip, returns 1 when one
#                             is not allowed

# Is the skip name $1 allowed by AITERM_ALLOW_SKIPS?
skips_allowed() {
	for a in $(printf '%s' "${AITERM_ALLOW_SKIPS-}" | tr ',' ' '); do
		if [ "$a" = all ] || [ "$a" = "$1" ]; then return 0; fi
	done
	return 1
}

# The name of a skip reason: its part before ": ", else "unnamed".
skips_name() {
	case $1 in
	*": "*) n=${1%%": "*} ;;
	*) n= ;;
	esac
	case $n in
	'' | *[!a-z0-9-]* | -*) echo unnamed ;;
	*) echo "$n" ;;
	esac
}

skips_check() {
	where=$1
	count=$(grep -c . "$2" 2>/dev/null || :)
	count=${count:-0}
	echo "$where: $count skipped"
	[ "$count" -gt 0 ] || return 0
	bad=
	while IFS= read -r reason; do
		[ -n "$reason" ] || continue
		name=$(skips_name "$reason")
		if skips_allowed "$name"; then
			echo "  skipped (allowed by AITERM_ALLOW_SKIPS): $reason"
		else
			echo "  skipped, NOT allowed: $reason"
			bad="$bad $name"
		fi
		if [ -n "${AITERM_SKIP_LOG-}" ]; then
			printf '%s\t%s\t%s\n' "$where" "$name" "$reason" \
			    >>"$AITERM_SKIP_LOG"
		fi
	done <"$2"
	if [ -n "$bad" ]; then
		echo "$where: FAIL: skips not allowed:$bad (set AITERM_ALLOW_SKIPS=<names> to allow them; README, \"Tests\")"
		return 1
	fi
	return 0
}
