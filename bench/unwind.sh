#!/bin/sh
# SPDX-License-Identifier: MIT
# unwind.sh - DWARF unwinding, perfkit's library against perf script, side
# by side on the same file: perf records the unwind-target workload (a call
# chain built without frame pointers) with --call-graph dwarf, then each
# tool unwinds every sample and prints its frames (`perf script -F ip
# --no-inline`: perf repeats a frame for each function inlined there;
# bench/unwind-file.c for perfkit), RUNS times each.  Reported: the samples,
# each tool's best wall time and time per sample, the ratio, and whether the
# two printed the same frames.  Issue 10's target: at most 0.1x perf's time.
# usage: bench/unwind.sh [BUILD] [SAMPLES_HZ] [RUNS]
#        (defaults: build, 20000, 5)
set -eu
BUILD=${1:-build}
HZ=${2:-20000}
RUNS=${3:-5}
SRC=$(cd "$(dirname "$0")/.." && pwd)
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
trap '[ -n "${KEEP:-}" ] || rm -rf "$dir"' EXIT
cc -O2 -I"$SRC/include" -o "$dir/unwind-file" "$SRC/bench/unwind-file.c" \
	-L"$BUILD" -lperfkit -Wl,-rpath,"$(cd "$BUILD" && pwd)"
perf record -q --call-graph dwarf -e task-clock:u -F "$HZ" -o "$dir/u.data" -- \
	"$BUILD/tests/unit/unwind/perfkit-unwind-target" 1000000000 >/dev/null 2>&1
# best of RUNS wall times of a command, in seconds
best() {
	b=""
	for _ in $(seq "$RUNS"); do
		t0=$(date +%s.%N)
		"$@" >"$dir/out" 2>/dev/null
		t=$(echo "$(date +%s.%N) - $t0" | bc)
		[ -z "$b" ] || [ "$(echo "$t < $b" | bc)" = 1 ] && b=$t
	done
	echo "$b"
}
tp=$(best perf script -F ip --no-inline -i "$dir/u.data")
sed 's/ (inlined)$//' "$dir/out" >"$dir/perf.txt"
tk=$(best "$dir/unwind-file" "$dir/u.data")
cp "$dir/out" "$dir/perfkit.txt"
n=$(grep -c '^$' "$dir/perfkit.txt" | awk '{ print int($1 / 2) }')
same=no
cmp -s "$dir/perf.txt" "$dir/perfkit.txt" && same=yes
printf '%-8s %10s %12s\n' tool seconds us/sample
printf '%-8s %10.3f %12.2f\n' perf "$tp" "$(echo "$tp * 1000000 / $n" | bc -l)"
printf '%-8s %10.3f %12.2f\n' perfkit "$tk" "$(echo "$tk * 1000000 / $n" | bc -l)"
printf 'samples %s, perfkit/perf %.3f, same frames: %s\n' "$n" "$(echo "$tk / $tp" | bc -l)" "$same"
