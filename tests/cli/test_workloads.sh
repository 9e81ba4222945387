#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_workloads.sh - perfkit stat on workloads whose counts are known in
# advance (tests/workloads/workload.c): the counts against the expected
# numbers, against perf stat on the same workload, and inheritance across
# fork and threads (with --no-inherit as the control).
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
W=$PERFKIT_WORKLOAD

# count TOOL EVENT ARGS... : the EVENT count TOOL's stat -x, reports for W ARGS.
count() {
	local tool=$1 ev=$2
	shift 2
	if [ "$tool" = perf ]; then
		perf stat -x, -e "$ev" -- "$W" "$@" 2>&1 >/dev/null
	else
		"$PERFKIT" stat -x, -e "$ev" -- "$W" "$@" 2>&1 >/dev/null
	fi | awk -F, -v e="$ev" '$3 == e { print $1 }'
}
count_noinherit() {
	local ev=$1
	shift
	"$PERFKIT" stat --no-inherit -x, -e "$ev" -- "$W" "$@" 2>&1 >/dev/null |
		awk -F, -v e="$ev" '$3 == e { print $1 }'
}
# within A B PCT: A and B differ by at most PCT percent of B (plus 2 for tiny counts).
within() { awk -v a="$1" -v b="$2" -v p="$3" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= b * p / 100 + 2) }'; }
have_perf=1
command -v perf >/dev/null || have_perf=0

pf=$(count perfkit page-faults pages 1000)
check "pages 1000: page-faults is 1000 plus the program's start-up ($pf)" \
	test "${pf:-0}" -ge 1000 -a "${pf:-0}" -le 1150
cs=$(count perfkit context-switches pingpong 2000)
check "pingpong 2000: about 2 context switches per round trip ($cs of ~4000)" within "${cs:-0}" 4000 10
kids=$(count perfkit page-faults children 10)
kids_alone=$(count_noinherit page-faults children 10)
check "children 10: the children's 1000 page faults are counted ($kids)" test "${kids:-0}" -ge 1000
check "--no-inherit leaves them out ($kids_alone < $kids - 900)" test "${kids_alone:-0}" -lt $((${kids:-0} - 900))
thr=$(count perfkit page-faults threads 8)
thr_alone=$(count_noinherit page-faults threads 8)
check "threads 8: the threads' 800 page faults are counted ($thr)" test "${thr:-0}" -ge 800
check "--no-inherit leaves threads created later out ($thr_alone < $thr - 700)" \
	test "${thr_alone:-0}" -lt $((${thr:-0} - 700))

if [ "$have_perf" -eq 1 ]; then
	for w in "page-faults pages 1000" "context-switches pingpong 2000" "page-faults children 10" \
		 "page-faults threads 8"; do
		set -- $w
		ours=$(count perfkit "$@")
		theirs=$(count perf "$@")
		check "$2 $3: perfkit's $1 agrees with perf stat's within 10% ($ours vs $theirs)" \
			within "${ours:-0}" "${theirs:-0}" 10
	done
else
	skip "agreement with perf stat" "perf is not installed"
fi
done_testing
