# Aiterm shell integration for zsh: the interactive startup file.
#
# It sources the user's .zshrc (see .zshenv), gives ZDOTDIR back to the
# user, turns the history file off, and installs hooks that print OSC 133 marks, which terminals do not
# display:
#
#   ESC ] 133 ; D ; <status> [; aiterm=<token>] BEL   command done
#   ESC ] 133 ; A [; aiterm=<token>] BEL              prompt start
#   ESC ] 133 ; C [; aiterm=<token>] BEL              command start
#
# D is printed at every prompt but the first, with the status the last
# command left; the precmd hook goes first in precmd_functions so $? is
# still that status.  <token> comes from AITERM_SHELL_TOKEN, which is then
# removed from the environment.  Nothing is typed at the prompt.

if (( __aiterm_user_zdotdir_set )); then
	ZDOTDIR=$__aiterm_user_zdotdir
else
	unset ZDOTDIR
fi
unset __aiterm_zsh_dir __aiterm_user_zdotdir_set __aiterm_user_zdotdir
if [[ -r ${ZDOTDIR:-$HOME}/.zshrc ]]; then
	source "${ZDOTDIR:-$HOME}/.zshrc"
fi

# No history file: what is typed into an Aiterm session stays in the
# shell's memory and is never written to the user's HISTFILE (not at
# exit, nor by INC_APPEND_HISTORY or SHARE_HISTORY after each command).
unset HISTFILE
SAVEHIST=0

typeset -g __aiterm_mark_tail=${AITERM_SHELL_TOKEN:+;aiterm=$AITERM_SHELL_TOKEN}
unset AITERM_SHELL_TOKEN
typeset -gi __aiterm_prompts=0

__aiterm_precmd() {
	local __aiterm_status=$?
	if (( __aiterm_prompts )); then
		builtin printf '\033]133;D;%s%s\007' $__aiterm_status \
		    "$__aiterm_mark_tail"
	fi
	__aiterm_prompts=1
	builtin printf '\033]133;A%s\007' "$__aiterm_mark_tail"
	return $__aiterm_status
}

__aiterm_preexec() {
	builtin printf '\033]133;C%s\007' "$__aiterm_mark_tail"
}

typeset -ga precmd_functions preexec_functions
precmd_functions=(__aiterm_precmd ${precmd_functions:#__aiterm_precmd})
preexec_functions=(${preexec_functions:#__aiterm_preexec} __aiterm_preexec)
