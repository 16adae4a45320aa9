# plugins/mux-tmux
