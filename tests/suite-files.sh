# tests/suite-files.sh, sourced by tests/clients/run.sh and
# tests/harness/run.sh.  suite_files DIR "NAMES" sets $files to
# DIR/<name>.test.cjs for each name of NAMES (HARNESS_TESTS,
# CLIENTS_TESTS), or to every DIR/*.test.cjs when NAMES is empty; a name
# without its file is a broken set-up (exit 99).
suite_files() {
	files=
	for t in $2; do
		if ! test -f "$1/$t.test.cjs"; then
			echo "$1: no suite $1/$t.test.cjs" >&2
			exit 99
		fi
		files="$files $1/$t.test.cjs"
	done
	test -n "$files" || files=$(echo "$1"/*.test.cjs)
}
