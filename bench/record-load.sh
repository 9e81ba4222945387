#!/bin/sh
# SPDX-License-Identifier: MIT
# record-load.sh - perfkit record against perf record under load, side by
# side in one run: both sample the same busy process (-p PID) at a high
# rate with call chains for the same few seconds.  Reported per tool: its
# own CPU time (user + sys) and peak memory (max RSS, from GNU time: the
# recorder alone, the workload is not its child), the samples in the file
# and the samples lost (the LOST records' counts, read back by perf report
# --stats from each file).  Issue 4's targets: perfkit's CPU and memory at
# most half of perf's, no loss with frame pointers, and at most a tenth of
# perf's loss with DWARF stacks.  Each file is deleted and synced before the
# next run, so no run pays for the previous one's writeback.
# usage: bench/record-load.sh [PERFKIT] [SECONDS] [FREQ]
#        (defaults: build/src/cli/perfkit, 4, 100000)
set -eu
PERFKIT=${1:-build/src/cli/perfkit}
SECS=${2:-4}
FREQ=${3:-100000}
WORKLOAD=${PERFKIT_WORKLOAD:-build/tests/perfkit-workload}
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }
dir=$(mktemp -d)
trap 'kill "$busy" 2>/dev/null; rm -rf "$dir"' EXIT
"$WORKLOAD" hot 600000 >/dev/null 2>&1 &
busy=$!
sleep 0.2

# one TOOL MODE: record the busy process for SECS seconds; print a row.
one() {
	tool=$1 mode=$2 f="$dir/$1-$2.data"
	case $mode in fp) cg="-g" ;; dwarf) cg="--call-graph dwarf" ;; esac
	if [ "$tool" = perfkit ]; then cmd="$PERFKIT record"; else cmd="perf record"; fi
	# shellcheck disable=SC2086
	/usr/bin/time -f "%U %S %M" -o "$dir/time" $cmd -q -F "$FREQ" $cg -p "$busy" -o "$f" -- sleep "$SECS" \
		>/dev/null 2>"$dir/err" || true
	set -- $(cat "$dir/time" | tail -1)
	cpu=$(echo "$1 + $2" | bc)
	rss=$3
	stats=$(perf report -i "$f" --stats 2>/dev/null)
	samples=$(printf '%s\n' "$stats" | awk '/SAMPLE events:/ { print $3; exit }')
	lost=$(perf script -i "$f" --show-lost-events -F event 2>/dev/null | awk '/PERF_RECORD_LOST / { n += $NF } END { print n + 0 }')
	# The next run starts with no dirty pages of this one to write back.
	rm -f "$f"
	sync
	echo "$tool $mode $cpu $rss ${samples:-0} ${lost:-0}"
}

# Page-cache pages the machine never touched before can cost ten times more
# to write the first time (a virtual machine's host backs guest memory
# lazily: measured here, 470 MB/s the first time, 5.7 GB/s after).  Both
# tools write gigabytes with DWARF stacks, so touch that much first, or
# whichever runs first pays for it.
dd if=/dev/zero of="$dir/warm" bs=1M count=3000 2>/dev/null
rm -f "$dir/warm"
rows=""
sync
for mode in fp dwarf; do
	rows="$rows$(one perf $mode)
$(one perfkit $mode)
"
done
printf '%s' "$rows" | awk -v secs="$SECS" -v freq="$FREQ" '
	{ cpu[$1 $2] = $3; rss[$1 $2] = $4; smp[$1 $2] = $5; lost[$1 $2] = $6 }
	END {
		printf "record -F %s -p BUSY -- sleep %s, one run each:\n", freq, secs
		printf "%-8s %-6s %9s %10s %9s %9s %7s\n", "tool", "mode", "CPU s", "max RSS MB", "samples", "lost", "lost %"
		split("perf perfkit", tools, " "); split("fp dwarf", modes, " ")
		for (m = 1; m <= 2; m++) for (t = 1; t <= 2; t++) {
			k = tools[t] modes[m]
			tot = smp[k] + lost[k]
			printf "%-8s %-6s %9.2f %10.1f %9d %9d %6.2f%%\n", tools[t], modes[m], cpu[k], rss[k] / 1024, smp[k], lost[k], tot ? 100 * lost[k] / tot : 0
		}
		for (m = 1; m <= 2; m++) {
			a = "perfkit" modes[m]; b = "perf" modes[m]
			printf "%s: perfkit / perf  CPU %.2fx  memory %.2fx\n", modes[m], cpu[b] ? cpu[a] / cpu[b] : 0, rss[b] ? rss[a] / rss[b] : 0
		}
	}'
