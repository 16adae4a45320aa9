# Plugins: one folder each, each with its own local.mk.  PLUGIN_MANIFESTS
# lists the manifests to copy beside the built modules (see all-local).
PLUGIN_MANIFESTS =
include $(srcdir)/plugins/mux-tmux/local.mk
include $(srcdir)/plugins/reducers/local.mk
include $(srcdir)/plugins/harness-lib/local.mk
include $(srcdir)/plugins/harness-claude/local.mk
include $(srcdir)/plugins/harness-codex/local.mk
include $(srcdir)/plugins/harness-grok/local.mk
include $(srcdir)/plugins/harness-cursor/local.mk
include $(srcdir)/plugins/harness-gemini/local.mk
include $(srcdir)/plugins/mux-psmux/local.mk
