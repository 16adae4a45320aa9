# tests/unit/red-corpus: RED-FAITHFUL over the fixture corpus on the read
# path (command reducer plugins of the build tree, else generic stages).
check_PROGRAMS += tests/unit/check_red_corpus
TESTS += tests/unit/check_red_corpus
tests_unit_check_red_corpus_SOURCES = tests/unit/check_red_corpus.c
tests_unit_check_red_corpus_CFLAGS = $(unit_cflags) \
	-DFIXTURES_DIR='"$(FIXTURES)/reduce"'
tests_unit_check_red_corpus_LDADD = $(unit_ldadd)
