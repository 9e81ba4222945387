#!/bin/sh
# SPDX-License-Identifier: MIT
# The flame graph and speedscope exports in headless Chromium (Debian's
# chromium, driven by puppeteer-core from npm, installed into the build
# tree), hovered, clicked and searched, with screenshots checked
# (browser.mjs).  Skipped, saying so, only when chromium cannot start.
tools="$PERFKIT_TOOLS_DIR"
mods="$tools/npm/node_modules"
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
	echo "1..0 # SKIP chromium is not installed (scripts/deps.sh installs it)"
	exit 0
fi
if [ ! -f "$mods/puppeteer-core/package.json" ] || [ ! -f "$mods/speedscope/package.json" ]; then
	mkdir -p "$tools/npm"
	HOME="$tools" npm install --silent --no-audit --no-fund --prefix "$tools/npm" \
		puppeteer-core@25 speedscope@1.25 >&2 ||
		{ echo "Bail out! npm could not install puppeteer-core and speedscope into $tools/npm"; exit 1; }
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$PERFKIT_EXPORT_SYNTH" flamegraph "$d/flame.svg" && "$PERFKIT_EXPORT_SYNTH" flamegraph "$d/icicle.svg" icicle &&
	"$PERFKIT_EXPORT_SYNTH" speedscope "$d/profile.speedscope.json" ||
	{ echo "Bail out! export_synth failed"; exit 1; }
HOME="$d" node "$PERFKIT_SRCDIR/tests/export/browser.mjs" "$chromium" "$mods" "$d/flame.svg" "$d/icicle.svg" \
	"$d/profile.speedscope.json"
