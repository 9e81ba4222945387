#!/bin/sh
# SPDX-License-Identifier: MIT
# compile-memory.sh - peak memory and CPU time of report and script on a
# deep, many-process `--call-graph dwarf` profile: perf records `gcc -O2
# -c` of the first N of the library's sources (each its own cc1 process, chains tens
# of frames deep through cc1 and libc), then each perfkit given (an older
# one and this one, say) and perf run every mode once in turn, ROUNDS
# rounds: peak resident size (GNU time's %M) and CPU time (user + system)
# of each, the median over the rounds.  The issue's bar is a peak under
# 64 MB whatever the file.  perf runs only `--no-inline` (with inlined
# frames, its default, it runs addr2line on cc1 for a quarter of an hour).
# usage: bench/compile-memory.sh [NR-SOURCES [ROUNDS [PERFKIT...]]]
#        (defaults: 12, 3, build/src/cli/perfkit)
set -eu
NR=${1:-12}
ROUNDS=${2:-3}
[ $# -gt 2 ] && shift 2 || set --
[ $# -gt 0 ] || set -- build/src/cli/perfkit
SRC=$(cd "$(dirname "$0")/.." && pwd)
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
. "$SRC/bench/compile-profile.sh"
compile_profile "$SRC" "$NR" "$dir"
echo "gcc.data: $(stat -c %s "$dir/gcc.data") bytes, $NR sources"
modes="report --stdio|report --stdio --no-children|report --stdio --no-inline|script"
# one run: "KB cpu-seconds"
run() {
	/usr/bin/time -f '%M %U %S' -o "$dir/t" "$@" >/dev/null 2>&1 || true
	awk '{ printf "%d %.3f\n", $1, $2 + $3 }' "$dir/t"
}
: >"$dir/all"
for r in $(seq "$ROUNDS"); do
	echo "$modes" | tr '|' '\n' | while IFS= read -r m; do
		for p in "$@"; do
			# shellcheck disable=SC2086
			echo "$p|$m|$(run "$p" $m -i "$dir/gcc.data")" >>"$dir/all"
		done
		case $m in
		*no-inline*)
			# shellcheck disable=SC2086
			echo "perf|$m|$(run perf $m -i "$dir/gcc.data")" >>"$dir/all" ;;
		esac
	done
done
echo "| program | mode | peak (median) | CPU (median) |"
echo "| --- | --- | ---: | ---: |"
python3 - "$dir/all" <<'EOF'
import statistics, sys
runs = {}
for line in open(sys.argv[1]):
    prog, mode, fig = line.rstrip("\n").split("|")
    kb, cpu = fig.split()
    runs.setdefault((prog, mode), []).append((int(kb), float(cpu)))
for (prog, mode), v in runs.items():
    kb = statistics.median(x[0] for x in v)
    cpu = statistics.median(x[1] for x in v)
    print(f"| {prog} | `{mode}` | {kb / 1024:.1f} MB | {cpu:.2f} s |")
EOF
