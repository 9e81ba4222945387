#!/bin/sh
# SPDX-License-Identifier: MIT
# perfkit diff's differential flame graph in headless Chromium
# (browser-diff.mjs), with puppeteer-core installed into the build tree
# as test_browser.sh installs it (this test runs alone, so the two never
# install at once); skipped, saying so, only when chromium is missing.
tools="$PERFKIT_TOOLS_DIR"
mods="$tools/npm/node_modules"
chromium=$(command -v chromium || true)
if [ -z "$chromium" ]; then
	echo "1..0 # SKIP chromium is not installed (scripts/deps.sh installs it)"
	exit 0
fi
if [ ! -f "$mods/puppeteer-core/package.json" ]; then
	mkdir -p "$tools/npm"
	HOME="$tools" npm install --silent --no-audit --no-fund --prefix "$tools/npm" puppeteer-core@25 >&2 ||
		{ echo "Bail out! npm could not install puppeteer-core into $tools/npm"; exit 1; }
fi
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
"$PERFKIT_DIFF_SYNTH" "$d/diff.svg" || { echo "Bail out! diff_synth failed"; exit 1; }
HOME="$d" node "$PERFKIT_SRCDIR/tests/export/browser-diff.mjs" "$chromium" "$mods" "$d/diff.svg"
