# tests/abi: the plugin boundary (issue 31).  plugin-symbols.sh: every
# built plugin needs nothing from the program that loads it and exports
# its descriptor alone.
TESTS += tests/abi/plugin-symbols.sh
EXTRA_DIST += tests/abi/plugin-symbols.sh

# layers.sh: a folder of core/ includes only the layers below it
# (doc/layers.md, ADR 0030).
TESTS += tests/abi/layers.sh
EXTRA_DIST += tests/abi/layers.sh

# plugin-includes.sh: a plugin's sources include only include/, their own
# folder and the plugin helper libraries.
TESTS += tests/abi/plugin-includes.sh
EXTRA_DIST += tests/abi/plugin-includes.sh
