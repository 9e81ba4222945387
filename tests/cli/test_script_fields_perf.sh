#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_fields_perf.sh - script -F against perf 6.1 on the same
# file: trace with no type prefix on software events (perf warns "'trace'
# not valid for software events. Ignoring." for each type trace is not
# valid for, in its own type words, and prints the lines), and the fields
# perf accepts that print nothing on a file without AUX-synthesized or
# guest samples (callindent, synth, metric, machine_pid, vcpu: alone,
# a blank line per sample).  A small fixed-period user-only recording.
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

for f in callindent synth metric machine_pid vcpu; do
	run script -i sw.data -F "comm,tid,$f"
	check "-F comm,tid,$f is accepted (exit $rc)" test "$rc" -eq 0
	check "-F comm,tid,$f: comm and tid, nothing more" grep -qE '^ +perfkit-workloa +[0-9]+ $' <<<"$out"
	"$PERFKIT" script -i sw.data -F "$f" >blank.out 2>/dev/null
	check "-F $f alone: a blank line per sample ($(wc -l <blank.out) lines)" \
		bash -c '[ "$(wc -l <blank.out)" -gt 1 ] && ! grep -q . blank.out'
	if command -v perf >/dev/null; then
		for a in "$f" "comm,tid,$f" "+$f" "sw:ip,sym,$f"; do
			perf script -i sw.data -F "$a" >perf.out 2>perf.err
			"$PERFKIT" script -i sw.data -F "$a" >ours.out 2>ours.err
			check "-F $a: lines and messages as perf's" bash -c "cmp -s perf.out ours.out && cmp -s perf.err ours.err"
		done
	fi
done
done_testing
