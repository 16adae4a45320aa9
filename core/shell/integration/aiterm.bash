# Aiterm shell integration for bash.
#
# Aiterm starts bash as `bash --rcfile <this file>`, so bash reads this
# file instead of ~/.bashrc (/etc/bash.bashrc, where bash is built to read
# it, is still read first).  It sources ~/.bashrc, turns the history file
# off, then installs a prompt hook that prints OSC 133 marks, which terminals do not display:
#
#   ESC ] 133 ; D ; <status> [; aiterm=<token>] BEL   command done
#   ESC ] 133 ; A [; aiterm=<token>] BEL              prompt start
#   ESC ] 133 ; C [; aiterm=<token>] BEL              command start (PS0)
#
# D is printed at every prompt but the first, with the status the last
# command left.  <token> comes from AITERM_SHELL_TOKEN, which is then
# removed from the environment.  Nothing is typed at the prompt.

if [ -r "$HOME/.bashrc" ]; then
	. "$HOME/.bashrc"
fi

# No history file: what is typed into an Aiterm session stays in the
# shell's memory (the up arrow still works) and is never written to
# ~/.bash_history or wherever the user's files point HISTFILE, not even
# when the session is killed (SIGHUP) at pty_close.  Unset after the
# user's files, so that a HISTFILE set there does not count; with it
# unset, `history -a` in a PROMPT_COMMAND writes nothing either.
unset HISTFILE

__aiterm_mark_tail=${AITERM_SHELL_TOKEN:+;aiterm=$AITERM_SHELL_TOKEN}
unset AITERM_SHELL_TOKEN
__aiterm_prompts=0

__aiterm_precmd() {
	local __aiterm_status=$?
	if [ "$__aiterm_prompts" != 0 ]; then
		builtin printf '\033]133;D;%s%s\007' "$__aiterm_status" \
		    "$__aiterm_mark_tail"
	fi
	__aiterm_prompts=1
	builtin printf '\033]133;A%s\007' "$__aiterm_mark_tail"
	return "$__aiterm_status"
}

# Run first, so that $? is still the command's status; it returns that
# status again for whatever PROMPT_COMMAND held before (string or, since
# bash 5.1, array).
case $(declare -p PROMPT_COMMAND 2>/dev/null) in
'declare -a'*)
	PROMPT_COMMAND=(__aiterm_precmd "${PROMPT_COMMAND[@]}")
	;;
*)
	PROMPT_COMMAND="__aiterm_precmd${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
	;;
esac

# PS0 (bash 4.4 and later) is printed after a command is read, before it
# runs.  The mark is put in as raw bytes (the token is [A-Za-z0-9_.-]).
PS0="$(builtin printf '\033]133;C%s\007' "$__aiterm_mark_tail")${PS0-}"
