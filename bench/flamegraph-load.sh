#!/bin/sh
# SPDX-License-Identifier: MIT
# flamegraph-load.sh - issue 11's flame graph target: "under 2 MB and
# interactive in Chromium within a second of load".  Exports `perfkit
# report --format=flamegraph` of each perf.data given (by default two new
# recordings: the issue's 546k-sample frame-pointer file, `perfkit-workload
# hot 16500` at 20 kHz with -g, about a minute, and a wide, deep tree: the
# whole system at 2 kHz with -g for 5 s while `find /usr -name '*.h' |
# xargs cat` runs, and the widest tree perfkit's merging of narrow frames
# lets through for a million samples: flamegraph-worst.c, 10000 paths 20
# deep at the 1e-4 threshold each, written through the export API),
# prints each SVG's size and then, from
# flamegraph-load.mjs in headless Chromium, the median over RUNS loads of
# the time from navigation start to the load event, to the first hover
# answered and to the first click zoomed.  A benchmark only: no target is
# asserted.  Needs perf, chromium, node and npm (puppeteer-core is
# installed into the build tree as tests/export/test_browser.sh does).
# usage: bench/flamegraph-load.sh [PATH-TO-PERFKIT [PERF.DATA|FILE.svg...]]
#        (default build/src/cli/perfkit; HOT=4000 for a quicker first file; RUNS=5)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
[ $# -ge 1 ] && shift
WORKLOAD=${WORKLOAD:-build/tests/perfkit-workload}
HOT=${HOT:-16500}
RUNS=${RUNS:-5}
here=$(cd "$(dirname "$0")" && pwd)
tools=${PERFKIT_TOOLS_DIR:-$(dirname "$(dirname "$(dirname "$PERFKIT")")")/tests-tools}
mods=$tools/npm/node_modules
chromium=$(command -v chromium) || { echo "needs chromium: apt-get install chromium" >&2; exit 1; }
command -v node >/dev/null || { echo "needs node: apt-get install nodejs npm" >&2; exit 1; }
if [ ! -f "$mods/puppeteer-core/package.json" ]; then
	mkdir -p "$tools/npm"
	HOME="$tools" npm install --silent --no-audit --no-fund --prefix "$tools/npm" puppeteer-core@25 >&2
fi
mods=$(cd "$mods" && pwd)
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
if [ $# -eq 0 ]; then
	command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
	perf record -q -e cpu-clock -F 20000 -g -o "$dir/hot.data" -- "$WORKLOAD" hot "$HOT" >/dev/null 2>&1
	find /usr -name '*.h' -print0 2>/dev/null | xargs -0 cat >/dev/null 2>&1 &
	busy=$!
	perf record -q -a -g -F 2000 -o "$dir/wide.data" -- sleep 5 >/dev/null 2>&1
	kill "$busy" 2>/dev/null || true
	wait "$busy" 2>/dev/null || true
	build=$(dirname "$(dirname "$(dirname "$PERFKIT")")")
	cc -O2 -I"$here/../include" -o "$dir/worst" "$here/flamegraph-worst.c" "$build/libperfkit.so" \
		-Wl,-rpath,"$(cd "$build" && pwd)"
	"$dir/worst" "$dir/worst.svg"
	set -- "$dir/hot.data" "$dir/wide.data" "$dir/worst.svg"
fi
n=0
for data in "$@"; do
	n=$((n + 1))
	svg=$dir/flame$n.svg
	case $data in *.svg)
		cp "$data" "$svg"
		awk -v f="$data" -v s="$(stat -c %s "$svg")" 'BEGIN { printf "%s: %.2f MB (%d bytes)\n", f, s / 1048576, s }'
		set -- "$@" "$svg"
		continue;;
	esac
	samples=$(perf report -i "$data" --stdio --no-children -n --sort comm 2>/dev/null |
		awk '/^# Samples:/ { s = 1 } s && $2 ~ /^[0-9]+$/ { n += $2 } END { print n + 0 }')
	start=$(date +%s%N)
	"$PERFKIT" report -i "$data" --format=flamegraph -o "$svg" 2>/dev/null
	ms=$((($(date +%s%N) - start) / 1000000))
	size=$(stat -c %s "$svg")
	awk -v f="$data" -v n="$samples" -v s="$size" -v ms="$ms" 'BEGIN {
		printf "%s: %d samples -> flame%d.svg %.2f MB (%d bytes), exported in %d ms\n", f, n, '"$n"', s / 1048576, s, ms }'
	set -- "$@" "$svg"
done
shift $n
HOME="$dir" node "$here/flamegraph-load.mjs" "$chromium" "$mods" "$RUNS" "$@"
