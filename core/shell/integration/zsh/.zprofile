# Aiterm shell integration for zsh: login shells read this after .zshenv.
# It sources the user's .zprofile (see .zshenv).

if (( __aiterm_user_zdotdir_set )); then
	ZDOTDIR=$__aiterm_user_zdotdir
else
	unset ZDOTDIR
fi
if [[ -r ${ZDOTDIR:-$HOME}/.zprofile ]]; then
	source "${ZDOTDIR:-$HOME}/.zprofile"
fi
__aiterm_user_zdotdir_set=${+ZDOTDIR}
__aiterm_user_zdotdir=${ZDOTDIR-}
ZDOTDIR=$__aiterm_zsh_dir
