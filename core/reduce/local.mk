# core/reduce: sources are added here.
