#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_flags3.sh - more of perf report 6.1's flags in perfkit
# report, each against perf on the same file: -g on a file without call
# chains (perf's error lines, no table, status 0; in a pipe-mode stream
# the table, -g ignored), --hierarchy, -k/--vmlinux and --ignore-vmlinux, and the
# flags that leave perf's table as it is (-m, --demangle,
# --demangle-kernel, --raw-trace, --time-quantum) with their errors.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

"$PERFKIT" record -F 999 -o mine.data -- "$W" hot 50 >/dev/null 2>&1
run report -i mine.data --stdio -k no-such-file
expect_rc "-k of a file that is not there: exit 1" 1
contains "with perf's words" "$err" "Invalid file: no-such-file"
run report -i mine.data --stdio --time-quantum 0
expect_rc "--time-quantum 0: exit 2" 2
contains "with perf's words" "$err" "time quantum cannot be 0"
run report -i mine.data --stdio --time-quantum 5x
expect_rc "--time-quantum with a unit perf lacks: exit 2" 2
contains "with perf's words" "$err" "Cannot parse time quantum \`5x'"
run report -i mine.data --stdio --hierarchy --sort tid
expect_rc "--hierarchy with a key it does not take yet: exit 2" 2
run report -i mine.data --stdio --hierarchy -F overhead,sym
expect_rc "--hierarchy with -F: exit 2" 2
contains "... naming -F" "$err" "--hierarchy does not take -F yet"
# Every entry under a parent adds up to it: the comm level is the sum of its DSOs.
run report -i mine.data --stdio -q --hierarchy --sort comm,dso
# (a comm's line is indented 3 or 4 spaces by its percentage, a DSO's 6 or 7)
top=$(printf '%s\n' "$out" | awk '{ n = match($0, /[^ ]/) - 1 } n <= 4 { sub(/%/, "", $1); print $1; exit }')
sum=$(printf '%s\n' "$out" | awk '{ n = match($0, /[^ ]/) - 1 } n <= 4 && NR > 1 { exit } n >= 6 { sub(/%/, "", $1); s += $1 } END { printf "%.2f", s }')
check "--hierarchy: the first comm's DSOs add up to it ($sum of $top, within rounding)" \
	awk -v a="$top" -v b="$sum" 'BEGIN { d = a - b; exit !(a > 0 && d < 0.05 && d > -0.05) }'

run report -i mine.data --stdio -q --time-quantum '5 us'
check "--time-quantum '5 us' (perf's space before the unit): the same rows" \
	test -n "$out" -a "$out" = "$("$PERFKIT" report -i mine.data --stdio -q 2>/dev/null)"

if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
	done_testing
	exit
fi

perf record -q -e cpu-clock -F 999 -o plain.data -- "$W" hot 50 >/dev/null 2>&1
perf record -q -e cpu-clock -F 999 -o - -- "$W" hot 50 >pipe.data 2>/dev/null
perf record -q -g -e cpu-clock -F 999 -o graph.data -- "$W" hot 50 >/dev/null 2>&1

# -g without call chains: stdout, stderr and status each as perf's.
for f in plain mine; do
	for g in "-g caller" "-g graph,5" "-g" "-q -g caller" "--header -g caller" "--call-graph=callee"; do
		# shellcheck disable=SC2086 # the flags are words
		perf report -i "$f.data" --stdio $g >theirs.out 2>theirs.err
		theirs_rc=$?
		# shellcheck disable=SC2086
		"$PERFKIT" report -i "$f.data" --stdio $g >ours.out 2>ours.err
		ours_rc=$?
		if [ "$theirs_rc" = "$ours_rc" ] && cmp -s theirs.out ours.out && cmp -s theirs.err ours.err &&
			grep -q '^Selected -g or --branch-history.$' ours.err; then
			ok "$f.data: report $g without call chains: perf's lines and status $ours_rc"
		else
			not_ok "$f.data: report $g without call chains: perf's lines and status"
			diag "status $theirs_rc/$ours_rc" "$(diff theirs.out ours.out | head -5)" \
				"$(diff theirs.err ours.err | head -5)"
		fi
	done
done
# In a pipe-mode stream perf ignores -g and prints the table.
for g in "-g caller" "-g graph,5" "--no-children -g caller"; do
	# shellcheck disable=SC2086 # the flags are words
	same_as_perf pipe.data $g
done
same_as_perf plain.data -g none

# -k's file, --ignore-vmlinux (which drops even -k's in perf 6.1), and the
# flags whose table is the same.  (Without Children: perf breaks the ties
# of the Children table by heap addresses.)
for f in graph plain; do
	for extra in "-k /bin/true" "-k /bin/true --ignore-vmlinux" --ignore-vmlinux "-m --demangle" \
		"--demangle-kernel --raw-trace --time-quantum 10ms" "--modules --time-quantum 1s"; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf "$f.data" --no-children -g none $extra
	done
done
same_as_perf graph.data --no-children -k /bin/true -g caller --percent-limit 5

# --hierarchy: a level per sort key, each the sum below it, in perf's
# order (siblings by period, then by key; unresolved symbols by address).
# several commands and objects: the shell, the workload, ls in the kernel
perf record -q -e cpu-clock -F 999 -o mixed.data -- sh -c "\"$W\" hot 20; \"$W\" hotb 20; ls -R /usr/lib >/dev/null" >/dev/null 2>&1
for f in plain mixed mine; do
	for extra in "" "--sort dso,sym" "--sort sym,comm" "--sort dso,comm,sym" "--percent-limit 1" \
		"--percent-limit 0.3 --sort comm,dso" -q "--stdio-color=always" "-n --show-total-period" \
		"-n --percent-limit 2" "--show-total-period -q --sort dso,comm,sym" "--sort pid,dso" \
		"--sort cpu,comm -n" "--sort dso,cpu,sym" "--sort comm,pid,sym"; do
		# shellcheck disable=SC2086 # the flags are words
		same_as_perf "$f.data" --hierarchy $extra
	done
done
same_as_perf graph.data --hierarchy -g none --no-children
same_as_perf graph.data --no-children --sort dso,sym -k /bin/true

done_testing
