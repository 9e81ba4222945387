#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_stat.sh - perfkit script on `perf stat record` files prints
# the counts of every STAT_ROUND as perf script 6.1 does, byte for byte on
# the same file: a workload and -a, several events and a group, -I rounds,
# and the aggregation modes in which perf prints each round's growth
# scaled by enabled/running (-A, --per-core).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

# same_as_perf FILE ARGS...: perfkit script prints what perf script prints
# (something) and exits as it does.
same_as_perf() {
	local file=$1 theirs ours rt ro
	shift
	theirs=$(set -o pipefail; perf script -i "$file" "$@" 2>/dev/null); rt=$?
	ours=$(set -o pipefail; "$PERFKIT" script -i "$file" "$@" 2>"$tmp/err"); ro=$?
	if [ "$theirs" = "$ours" ] && [ -n "$ours" ] && [ "$rt" = "$ro" ]; then
		ok "$file: script $* equals perf's ($(printf '%s\n' "$ours" | wc -l) lines)"
	else
		not_ok "$file: script $* equals perf's (exit $ro, perf $rt)"
		diag "$(diff <(printf '%s\n' "$theirs") <(printf '%s\n' "$ours") | head -20)" "$(cat "$tmp/err")"
	fi
}

# record NAME ARGS...: perf stat record -o NAME.data ARGS.
record() {
	local name=$1
	shift
	perf stat record -o "$name.data" "$@" >/dev/null 2>&1 ||
		diag "perf stat record $* failed"
}

record work -e task-clock,page-faults,context-switches -- "$W" pages 50
record sys -a -e task-clock,page-faults -- "$W" pages 50
record group -a -e '{task-clock,context-switches}' -- "$W" pages 50
record interval -I 100 -e task-clock,page-faults,cs -- "$W" clock 300
record no_aggr -I 100 -A -a -e task-clock,page-faults -- "$W" clock 300
record per_core -I 100 --per-core -a -e task-clock -- "$W" clock 250

for f in work sys group interval no_aggr per_core; do
	same_as_perf $f.data
done
same_as_perf no_aggr.data -D
same_as_perf work.data --header

# What every file shows, whatever the counts: the column header once,
# then a line per event and CPU of each round.
run script -i work.data
contains "work.data: the column header" "$out" \
	"CPU   THREAD             VAL             ENA             RUN            TIME EVENT"
check "work.data: one line per event of the final round" \
	test "$(printf '%s\n' "$out" | grep -cE ' (task-clock|page-faults|context-switches)$')" -eq 3
run script -i interval.data
check "interval.data: at least two rounds of three events" \
	test "$(printf '%s\n' "$out" | grep -cE ' (task-clock|page-faults|cs)$')" -ge 6
check "interval.data: the header is printed once" \
	test "$(printf '%s\n' "$out" | grep -c '^CPU ')" -eq 1

echo "1..$tap_n"
exit $tap_fail
