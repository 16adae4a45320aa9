# Aiterm shell integration for fish.
#
# Aiterm starts fish as `fish --init-command "source <this file>"`: fish
# reads the user's configuration as usual, then this file, which hooks
# fish's events to print OSC 133 marks, which terminals do not display:
#
#   ESC ] 133 ; D ; <status> [; aiterm=<token>] BEL   command done
#   ESC ] 133 ; A [; aiterm=<token>] BEL              prompt start
#   ESC ] 133 ; C [; aiterm=<token>] BEL              command start
#
# D is printed at every prompt but the first, with the status the last
# command left.  <token> comes from AITERM_SHELL_TOKEN, which is then
# erased.  Nothing is typed at the prompt.

set -g __aiterm_mark_tail
if set -q AITERM_SHELL_TOKEN; and test -n "$AITERM_SHELL_TOKEN"
	set -g __aiterm_mark_tail ";aiterm=$AITERM_SHELL_TOKEN"
end
set -e AITERM_SHELL_TOKEN
set -g __aiterm_prompts 0

# No history file: with fish_history empty, fish keeps what is typed in
# memory only and never writes it to ~/.local/share/fish/fish_history.
set -g fish_history ''

function __aiterm_prompt --on-event fish_prompt
	set -l last_status $status
	if test $__aiterm_prompts != 0
		printf '\e]133;D;%s%s\a' $last_status $__aiterm_mark_tail
	end
	set -g __aiterm_prompts 1
	printf '\e]133;A%s\a' $__aiterm_mark_tail
end

function __aiterm_preexec --on-event fish_preexec
	printf '\e]133;C%s\a' $__aiterm_mark_tail
end
