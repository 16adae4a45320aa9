# core/state: sources are added here.
