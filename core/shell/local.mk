# core/shell: pure builders and parsers for what is typed into a shell and
# read back from it, and the shell integration scripts.
core_libaiterm_la_SOURCES += \
	core/shell/base64.c core/shell/base64.h \
	core/shell/dialect.c core/shell/dialect.h \
	core/shell/launch.c core/shell/launch.h \
	core/shell/osc133.c core/shell/osc133.h \
	core/shell/posix-eval.c core/shell/posix-eval.h \
	core/shell/pwsh.c core/shell/pwsh.h \
	core/shell/repl-prompt.c core/shell/repl-prompt.h \
	core/shell/sanitize.c core/shell/sanitize.h \
	core/shell/sentinel.c core/shell/sentinel.h \
	core/shell/utf8.c core/shell/utf8.h

# The integration scripts, installed where shell_integration_argv() is
# pointed at: $(pkgdatadir)/shell.
shellintdir = $(pkgdatadir)/shell
dist_shellint_DATA = \
	core/shell/integration/aiterm.bash \
	core/shell/integration/aiterm.sh \
	core/shell/integration/aiterm.fish
shellintzshdir = $(shellintdir)/zsh
dist_shellintzsh_DATA = \
	core/shell/integration/zsh/.zshenv \
	core/shell/integration/zsh/.zprofile \
	core/shell/integration/zsh/.zshrc
EXTRA_DIST += core/shell/integration/README.md
