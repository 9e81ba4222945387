#!/bin/sh
# SPDX-License-Identifier: MIT
# dwarf-modes.sh - CPU time of report and script on a deep, many-process
# `--call-graph dwarf` profile, perfkits and perf side by side in one run:
# perf records `gcc -O2 -c` of the first N of the library's sources (as
# bench/compile-memory.sh), then every mode perf runs in reasonable time
# (its defaults with inlined frames run addr2line on cc1 for a quarter
# of an hour, so `--no-inline` throughout) is timed with `perf stat -r
# RUNS -e task-clock` for each perfkit given and for perf, and each
# perfkit's time is given as a ratio to perf's.  Before timing, each
# perfkit's output of every mode is compared with the first one's (the
# script stops when they differ).
# usage: bench/dwarf-modes.sh [NR-SOURCES [RUNS [PERFKIT...]]]
#        (defaults: 12, 5, build/src/cli/perfkit)
set -eu
NR=${1:-12}
RUNS=${2:-5}
[ $# -gt 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- build/src/cli/perfkit
SRC=$(cd "$(dirname "$0")/.." && pwd)
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$SRC/bench/compile-profile.sh"
compile_profile "$SRC" "$NR" "$dir"
echo "gcc.data: $(stat -c %s "$dir/gcc.data") bytes, $NR sources; load average $(cut -d' ' -f1-3 /proc/loadavg)"
modes="report --stdio --no-inline|report --stdio --no-inline --no-children|report --stdio --no-inline -g none|report --stdio --no-inline --no-children -g none|script --no-inline"
echo "$modes" | tr '|' '\n' >"$dir/modes"
# the same bytes from every perfkit
while IFS= read -r m; do
	for p in "$@"; do
		# shellcheck disable=SC2086
		"$p" $m -i "$dir/gcc.data" 2>/dev/null | md5sum >>"$dir/sum.$(echo "$m" | md5sum | cut -c1-8)"
	done
done <"$dir/modes"
for f in "$dir"/sum.*; do
	[ "$(sort -u "$f" | wc -l)" -eq 1 ] || { echo "the perfkits print different bytes" >&2; exit 1; }
done
# task-clock in ms, mean of RUNS
cpu() {
	perf stat -x, -e task-clock -r "$RUNS" "$@" 2>&1 >/dev/null | grep task-clock | cut -d, -f1
}
echo "| mode | perf | $(for p in "$@"; do printf '%s | ratio | ' "$p"; done)"
echo "| --- | ---: | $(for _ in "$@"; do printf -- '---: | ---: | '; done)"
while IFS= read -r m; do
	# shellcheck disable=SC2086
	tp=$(cpu perf $m -i "$dir/gcc.data")
	line="| \`$m\` | $(printf '%.1f ms' "$tp") |"
	for p in "$@"; do
		# shellcheck disable=SC2086
		t=$(cpu "$p" $m -i "$dir/gcc.data")
		line="$line $(printf '%.1f ms' "$t") | $(printf '%.2fx' "$(echo "$t / $tp" | bc -l)") |"
	done
	echo "$line"
done <"$dir/modes"
