# Aiterm shell integration for dash and other POSIX sh.
#
# Aiterm starts the shell with ENV pointing at this file, which every
# interactive POSIX shell reads at startup; the user's own ENV, if any, is
# passed in AITERM_USER_ENV, sourced here and put back in ENV for child
# shells.  dash has no prompt hook, but it expands parameters in PS1 each
# time it prints the prompt (dash 0.5.11 and later), in the shell itself,
# so PS1 is prefixed with OSC 133 marks, which terminals do not display:
#
#   ESC ] 133 ; D ; $? [; aiterm=<token>] BEL   command done (not before
#                                                the first prompt)
#   ESC ] 133 ; A [; aiterm=<token>] BEL        prompt start
#
# ${__aiterm_prompted+...} leaves D out at the first prompt, and
# ${__aiterm_prompted=} then sets that variable and expands to nothing.
# <token> comes from AITERM_SHELL_TOKEN, which is then unset.  Nothing is
# typed at the prompt.

if [ -n "${AITERM_USER_ENV-}" ]; then
	ENV=$AITERM_USER_ENV
	export ENV
	if [ -r "$AITERM_USER_ENV" ]; then
		. "$AITERM_USER_ENV"
	fi
else
	unset ENV
fi
unset AITERM_USER_ENV
# No history file, for a sh that keeps one (dash does not).
unset HISTFILE

__aiterm_esc=$(printf '\033')
__aiterm_bel=$(printf '\007')
__aiterm_tail=${AITERM_SHELL_TOKEN:+;aiterm=$AITERM_SHELL_TOKEN}
unset AITERM_SHELL_TOKEN
PS1='${__aiterm_prompted+'"${__aiterm_esc}]133;D;"'$?'"${__aiterm_tail}${__aiterm_bel}"'}${__aiterm_prompted=}'"${__aiterm_esc}]133;A${__aiterm_tail}${__aiterm_bel}${PS1-\$ }"
unset __aiterm_esc __aiterm_bel __aiterm_tail
