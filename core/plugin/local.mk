# core/plugin: sources are added here.
