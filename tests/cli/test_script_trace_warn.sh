#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_trace_warn.sh - script -F trace (no type prefix) on a file
# of software events: perf 6.1 warns "'trace' not valid for software
# events. Ignoring." for each type trace is not valid for, in its own
# type words, and prints the lines; the same lines and warnings as perf on
# the same file.  A small fixed-period user-only recording.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

"$PERFKIT" record -q -e cpu-clock:u -c 1000000 -o sw.data -- "$PERFKIT_WORKLOAD" hot 50 >/dev/null 2>&1
run script -i sw.data -F comm,tid,trace
expect_rc "-F comm,tid,trace on software events: exit 0" 0
contains "perf's warning for software events" "$err" "'trace' not valid for software events. Ignoring."
check "one warning per type trace is not valid for (7, as perf)" \
	test "$(grep -c "^'trace' not valid for .* events. Ignoring.$" <<<"$err")" -eq 7
check "the lines printed: comm and tid" grep -qE '^ +perfkit-workloa +[0-9]+ $' <<<"$out"
if command -v perf >/dev/null; then
	for f in comm,tid,trace +trace -trace trace; do
		perf script -i sw.data -F "$f" >perf.out 2>perf.err
		"$PERFKIT" script -i sw.data -F "$f" >ours.out 2>ours.err
		check "-F $f: the lines as perf's" cmp -s perf.out ours.out
		check "-F $f: the warnings as perf's" cmp -s perf.err ours.err
	done
else
	skip "comparisons with perf script" "perf is not installed"
fi
done_testing
