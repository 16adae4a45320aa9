/*
 * The echo of text typed into a program that is not a shell (a REPL;
 * issue 34).  The terminal shows each typed line again, after the
 * program's prompt ("... " before python's continuation lines): the model
 * wrote those lines, and a result that repeats them costs it tokens for
 * nothing.  A shell's echo never reaches a result (it comes before the
 * command's start mark).
 */
#ifndef AITERM_PTY_ECHO_H
#define AITERM_PTY_ECHO_H

#include <stddef.h>

/*
 * How many bytes at the head of out (stripped text, lines ending in LF)
 * are the echo of every line of typed, in order: the first as typed,
 * after a REPL prompt or none (its prompt came before the text was
 * typed), each other one after a REPL prompt (shell/repl-prompt.h),
 * trailing blanks aside.  0 unless all of them are there: output between
 * echoed lines (two statements, each run as it came) keeps everything.
 */
size_t	echo_typed_len(const char *out, size_t len, const char *typed);

#endif
