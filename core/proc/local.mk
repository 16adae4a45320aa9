# core/proc: sources are added here.
