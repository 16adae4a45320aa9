# Aiterm shell integration for zsh: the first file read.
#
# Aiterm starts zsh with ZDOTDIR pointing at this folder, and the user's
# own ZDOTDIR, if any, in AITERM_USER_ZDOTDIR.  Each startup file here
# sources the user's file of the same name at top level (so its typeset
# and setopt work as usual), with ZDOTDIR set to the user's folder while
# it runs.  .zshrc then hands ZDOTDIR back to the user for good (so
# .zlogin, .zlogout and child shells are the user's) and installs the
# hooks.  A shell that is not interactive gets ZDOTDIR back here.

__aiterm_zsh_dir=$ZDOTDIR
if (( ${+AITERM_USER_ZDOTDIR} )); then
	ZDOTDIR=$AITERM_USER_ZDOTDIR
else
	unset ZDOTDIR
fi
unset AITERM_USER_ZDOTDIR
if [[ -r ${ZDOTDIR:-$HOME}/.zshenv ]]; then
	source "${ZDOTDIR:-$HOME}/.zshenv"
fi
# What the user's files leave in ZDOTDIR is the user's ZDOTDIR.
__aiterm_user_zdotdir_set=${+ZDOTDIR}
__aiterm_user_zdotdir=${ZDOTDIR-}
if [[ -o interactive ]]; then
	ZDOTDIR=$__aiterm_zsh_dir
else
	unset __aiterm_zsh_dir __aiterm_user_zdotdir_set __aiterm_user_zdotdir
fi
