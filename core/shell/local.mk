# core/shell: sources are added here.
