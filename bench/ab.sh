#!/bin/sh
# SPDX-License-Identifier: MIT
# ab.sh - the CPU time (task-clock) of two perfkit binaries on one command,
# interleaved: ROUNDS rounds of `perf stat -r RUNS` of the old binary, then
# the new one, so that a change of load on a shared machine hits both
# alike.  Prints one line per round (old ms, new ms, new/old) and the
# medians.  On a machine without a hardware PMU this is the CPU figure to
# read; instructions (callgrind) miss stalls, and a cpu-clock profile
# (see PERFORMANCE.md, perf12) says where the time goes.
# usage: bench/ab.sh OLD NEW -- ARGS...   e.g.
#        bench/ab.sh /tmp/old build/src/cli/perfkit -- report -i fp.data --stdio --no-children
#        (ROUNDS=3 RUNS=20 by default)
set -eu
if [ $# -lt 3 ] || [ "$3" != "--" ]; then
	echo "usage: $0 OLD NEW -- ARGS..." >&2
	exit 2
fi
old=$1 new=$2
shift 3
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-20}
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# the mean task-clock in ms of RUNS runs of binary $1 with the arguments
ms() {
	b=$1
	shift
	perf stat -r "$RUNS" -x, -e task-clock -o "$dir/s" -- "$b" "$@" >/dev/null 2>&1 || true
	awk -F, '/task-clock/ { print $1 }' "$dir/s"
}
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	o=$(ms "$old" "$@")
	n=$(ms "$new" "$@")
	echo "$o $n" | awk '{ printf "old %.2f ms  new %.2f ms  new/old %.3f\n", $1, $2, $2 / $1 }'
	echo "$o $n" >>"$dir/all"
	i=$((i + 1))
done
sort -n -k1,1 "$dir/all" | awk '{ o[NR] = $1 } END { m = o[int((NR + 1) / 2)]; printf "median old %.2f ms", m }'
sort -n -k2,2 "$dir/all" | awk '{ n[NR] = $2 } END { m = n[int((NR + 1) / 2)]; printf "  new %.2f ms\n", m }'
