# tests/abi: the plugin boundary (issue 31).  plugin-symbols.sh: every
# built plugin needs nothing from the program that loads it and exports
# its descriptor alone.
TESTS += tests/abi/plugin-symbols.sh
EXTRA_DIST += tests/abi/plugin-symbols.sh
