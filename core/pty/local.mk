# core/pty: sources are added here.
