# core/tools: sources are added here.
