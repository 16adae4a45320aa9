# tests/pkg: the Debian packaging check (issue 19).  Not in make check:
# ./quickstart check runs tests/pkg/check.sh as a stage of its own.
EXTRA_DIST += tests/pkg/check.sh tests/pkg/mcp-smoke.py \
	tests/pkg/oot-reducer.c tests/pkg/oot-reducer.yaml \
	debian/changelog debian/control debian/copyright debian/rules \
	debian/source/format debian/aiterm.install \
	debian/aiterm-mux-tmux.install debian/aiterm-reducers.install \
	debian/aiterm-harness-claude.install debian/aiterm-harness-codex.install \
	debian/aiterm-harness-cursor.install debian/aiterm-harness-grok.install \
	debian/aiterm-harness-gemini.install \
	debian/libaiterm-plugin-dev.install \
	debian/aiterm-harness-claude.links debian/aiterm-harness-codex.links \
	debian/aiterm-harness-cursor.links
