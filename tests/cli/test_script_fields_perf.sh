#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_script_fields_perf.sh - script -F against perf 6.1 on the same
# file: trace with no type prefix on software events (perf warns "'trace'
# not valid for software events. Ignoring." for each type trace is not
# valid for, in its own type words, and prints the lines), and the fields
# perf accepts that print nothing on a file without AUX-synthesized or
# guest samples (callindent, synth, metric, machine_pid, vcpu: alone,
# a blank line per sample); perf's warning when a later -F overrides an
# earlier one.  Small fixed-period user-only recordings, perfkit's and
# perf's; and fields with no symbol in them (ip, dso, ...) on -g and
# DWARF recordings, which perfkit prints without reading symbol tables.
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
	# A -F that replaces what an earlier one asked for: perf's "Overriding
	# previous field request for ... events." on stderr, in its type words
	# (a typed -F when that type was set, even by an edit; an untyped one
	# without + or - when any type was), then the last -F's fields; none
	# for an edit or another type.  perf's synth: type word is taken too.
	perf record -q -e cpu-clock:u -c 1000000 -o perf-sw.data -- "$PERFKIT_WORKLOAD" hot 50 >/dev/null 2>&1
	for file in sw.data perf-sw.data; do
		for args in "-F comm -F tid" "-F sw:ip -F sw:comm" "-F comm -F sw:ip" "-F sw:ip -F comm" \
			"-F sw:+ip -F sw:comm" "-F +comm -F sw:ip" "-F hw:ip -F hw:comm -F trace:ip -F trace:comm" \
			"-F raw:ip -F break:ip -F raw:comm -F break:comm" "-F synth:ip -F synth:comm" \
			"-F ip -F comm -F tid" "-F comm -F +ip" "-F sw:comm -F hw:ip"; do
			# shellcheck disable=SC2086 # the options are words
			perf script -i "$file" $args >perf.out 2>perf.err
			# shellcheck disable=SC2086
			"$PERFKIT" script -i "$file" $args >ours.out 2>ours.err
			check "$file $args: lines and messages as perf's ($(grep -c Overriding perf.err) overriding)" \
				bash -c "test -s perf.out && cmp -s perf.out ours.out && cmp -s perf.err ours.err"
		done
	done
	# Fields a map alone gives, which perfkit prints without loading a
	# symbol table: call chains with kernel frames (-g) and DWARF-unwound
	# ones (no inlined frames), perf's lines still.
	perf record -q -e cpu-clock -c 1000000 -g -o g.data -- "$PERFKIT_WORKLOAD" pages 20000 >/dev/null 2>&1
	perf record -q -e cpu-clock:u -c 1000000 --call-graph dwarf -o dw.data -- "$PERFKIT_WORKLOAD" hot 50 \
		>/dev/null 2>&1
	for file in g.data dw.data; do
		for args in "-F ip --no-inline" "-F ip,dso --no-inline" "-F comm,tid,time,ip,dso,period --no-inline" \
			"-F ip,sym --no-inline"; do
			# shellcheck disable=SC2086
			perf script -i "$file" $args >perf.out 2>/dev/null
			# shellcheck disable=SC2086
			"$PERFKIT" script -i "$file" $args >ours.out 2>/dev/null
			check "$file $args: perf's lines ($(wc -l <perf.out))" \
				bash -c "test -s perf.out && cmp -s perf.out ours.out"
		done
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
