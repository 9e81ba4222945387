#!/bin/sh
# SPDX-License-Identifier: MIT
# turns.sh - the CPU time (task-clock) of several programs on one command
# line, taking turns: ROUNDS rounds, each running every program once with
# ARGS under `perf stat`, so that a change of load on a shared machine
# hits them alike; prints each program's median and minimum.  `perf`
# itself may be one of them (its subcommand takes the same arguments:
# `report -i F --stdio ...`, `script -i F`), which is how PERFORMANCE.md's
# perfkit / perf medians are taken.  On a machine without a hardware PMU
# this is the CPU figure to read (see ab.sh).
# usage: bench/turns.sh ROUNDS PROGRAM... -- ARGS...   e.g.
#        bench/turns.sh 15 /tmp/old build/src/cli/perfkit perf -- report -i fp.data --stdio -g none
set -eu
usage() {
	echo "usage: $0 ROUNDS PROGRAM... -- ARGS..." >&2
	exit 2
}
[ $# -ge 3 ] || usage
rounds=$1
shift
progs=
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
	progs="$progs $1"
	shift
done
if [ $# -eq 0 ] || [ -z "$progs" ]; then
	usage
fi
shift
command -v perf >/dev/null || { echo "needs perf: apt-get install linux-perf" >&2; exit 1; }
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
r=0
while [ "$r" -lt "$rounds" ]; do
	i=0
	for p in $progs; do
		perf stat -x, -e task-clock -o "$dir/s" -- "$p" "$@" >/dev/null 2>&1 || true
		awk -F, '/task-clock/ { print $1 }' "$dir/s" >>"$dir/t.$i"
		i=$((i + 1))
	done
	r=$((r + 1))
done
i=0
for p in $progs; do
	sort -n "$dir/t.$i" | awk -v p="$p" '{ a[NR] = $1 }
		END { printf "%-40s median %8.2f ms  min %8.2f ms  (%d runs)\n", p, a[int((NR + 1) / 2)], a[1], NR }'
	i=$((i + 1))
done
