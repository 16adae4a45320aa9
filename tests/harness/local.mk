# tests/harness: the agent tools (AGT-*) on the real agent CLIs of
# tests/clients' lock file, in private tmux servers against mock models;
# and the recorded screens and transcripts (fixtures/, one folder per CLI
# version) that tests/unit/check_harness reads.  Not part of make check
# (it runs real CLIs); ./quickstart check runs `make check-harness`.
EXTRA_DIST += tests/harness

check-harness: all
	$(AM_TESTS_ENVIRONMENT) $(SHELL) $(srcdir)/tests/harness/run.sh </dev/null
.PHONY: check-harness
