#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat_flags.sh - perfkit stat -B/--no-big-num (thousands' separators
# from the locale, as perf 6.1 prints them), --summary after -I (table, CSV
# with and without the summary column, JSON), and --pre/--post around each
# -r run, --metric-only, and --topdown's refusals, side by side with perf
# where it runs here.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
have_perf() { command -v perf >/dev/null; }
# 2000 fresh pages touched: well over a thousand page faults.
cat >"$tmp/touch.py" <<'PY'
import mmap
m = mmap.mmap(-1, 2000 * 4096)
for i in range(0, 2000 * 4096, 4096):
    m[i] = 1
PY
# The count column of page-faults in the table.
pf() { printf '%s\n' "$1" | awk '$2 == "page-faults" { print $1 }'; }

# -B: a bare Debian 12 has only C and C.UTF-8, which group nothing; build
# en_US.UTF-8 (the locale sources ship with libc) to see separators.
mkdir -p "$tmp/loc"
if localedef -i en_US -f UTF-8 "$tmp/loc/en_US.UTF-8" >/dev/null 2>&1 ||
	[ -d "$tmp/loc/en_US.UTF-8" ]; then
	export LOCPATH=$tmp/loc
	LC_ALL=en_US.UTF-8 run stat -e page-faults -- python3 "$tmp/touch.py"
	mine=$(pf "$err")
	check "the table groups thousands under en_US.UTF-8 by default (got $mine)" \
		sh -c 'printf "%s" "$1" | grep -Eq "^[0-9]{1,3}(,[0-9]{3})+$"' sh "$mine"
	LC_ALL=en_US.UTF-8 run stat -B -e page-faults -- python3 "$tmp/touch.py"
	check "-B groups them too" sh -c 'printf "%s" "$1" | grep -q ,' sh "$(pf "$err")"
	LC_ALL=en_US.UTF-8 run stat --no-big-num -e page-faults -- python3 "$tmp/touch.py"
	mine_no=$(pf "$err")
	check "--no-big-num prints the bare number (got $mine_no)" \
		sh -c 'printf "%s" "$1" | grep -Eq "^[0-9]{4,}$"' sh "$mine_no"
	LC_ALL=en_US.UTF-8 run stat -x, -e page-faults -- python3 "$tmp/touch.py"
	check "CSV never groups" sh -c 'printf "%s\n" "$1" | grep -Eq "^[0-9]{4,},,page-faults,"' sh "$err"
	LC_ALL=en_US.UTF-8 run stat -e task-clock -- python3 "$tmp/touch.py"
	contains "the decimal point stays '.' in en_US" "$err" " msec task-clock"
	check "... and the clock has two decimals" \
		sh -c 'printf "%s\n" "$1" | grep -Eq "^ +[0-9,]+\.[0-9]{2} msec task-clock"' sh "$err"
	if have_perf; then
		theirs=$(pf "$(LC_ALL=en_US.UTF-8 perf stat -e page-faults -- python3 "$tmp/touch.py" 2>&1)")
		check "perf groups the same way ($theirs)" \
			sh -c 'printf "%s" "$1" | grep -Eq "^[0-9]{1,3}(,[0-9]{3})+$"' sh "$theirs"
		theirs=$(pf "$(LC_ALL=en_US.UTF-8 perf stat --no-big-num -e page-faults -- python3 "$tmp/touch.py" 2>&1)")
		check "perf --no-big-num prints the bare number too ($theirs)" \
			sh -c 'printf "%s" "$1" | grep -Eq "^[0-9]{4,}$"' sh "$theirs"
	else
		skip "perf groups the same way" "perf is not installed"
		skip "perf --no-big-num prints the bare number too" "perf is not installed"
	fi
	unset LOCPATH
else
	for d in "default grouping" "-B" "--no-big-num" "CSV" "decimal point" "two decimals" "perf" "perf"; do
		skip "$d under en_US.UTF-8" "localedef cannot build en_US.UTF-8 here"
	done
fi
LC_ALL=C run stat -e page-faults -- python3 "$tmp/touch.py"
check "under C nothing is grouped, as with perf" sh -c 'printf "%s" "$1" | grep -Eq "^[0-9]{4,}$"' sh "$(pf "$err")"
run stat -B -x, -e page-faults -- true
expect_rc "-B with -x is a usage error" 2
contains "... in perf's words" "$err" "-B option not supported with -x"

# --summary: the totals after the intervals.
run stat -I 100 --summary -e page-faults,task-clock -- sleep 0.25
expect_rc "-I --summary runs" 0
check "the intervals come first" sh -c 'printf "%s\n" "$1" | head -1 | grep -q "^#           time"' sh "$err"
contains "then perf's table header" "$err" "Performance counter stats for 'sleep 0.25':"
contains "and the elapsed time" "$err" "seconds time elapsed"
ivals=$(printf '%s\n' "$err" | awk '$1 ~ /^[0-9]+[.][0-9]+$/ && $3 == "page-faults" { s += $2 } END { print s + 0 }')
total=$(printf '%s\n' "$err" | awk '/^ +[0-9]+ +page-faults/ { print $1 }')
check "the summary's page faults are the intervals' sum ($ivals = $total)" test "$ivals" = "$total"
run stat -I 100 -e page-faults -- sleep 0.15
check "without --summary no table follows the intervals" \
	sh -c '! printf "%s\n" "$1" | grep -q "Performance counter stats"' sh "$err"

run stat -x, -I 100 --summary -e page-faults,task-clock -- sleep 0.15
sum_lines=$(printf '%s\n' "$err" | grep -c '^         summary,')
check "CSV: one 'summary' line per event (got $sum_lines)" test "$sum_lines" -eq 2
mine_fields=$(printf '%s\n' "$err" | awk -F, '$1 ~ /summary/ && $4 == "page-faults" { print NF }')
run stat -x, -I 100 --summary --no-csv-summary -e page-faults -- sleep 0.15
check "--no-csv-summary: the totals start with the count" \
	sh -c 'printf "%s\n" "$1" | grep -Eq "^[0-9]+,,page-faults,"' sh "$err"
run stat -j -I 100 --summary -e page-faults -- sleep 0.15
check "JSON: the last object is the totals, without an interval key" \
	python3 -c 'import json,sys; d=json.loads(sys.argv[1].splitlines()[-1]); assert "interval" not in d and d["event"] == "page-faults"' "$err"
run stat --summary -e page-faults -- true
expect_rc "--summary without -I is a usage error" 2
if have_perf; then
	theirs=$(perf stat -x, -I 100 --summary -e page-faults,task-clock -- sleep 0.15 2>&1 |
		awk -F, '$1 ~ /summary/ && $4 == "page-faults" { print NF }')
	check "CSV summary lines have perf's fields ($mine_fields = $theirs)" test "$mine_fields" = "$theirs"
else
	skip "CSV summary lines have perf's fields" "perf is not installed"
fi

# --pre / --post: around every run, in order.
log=$tmp/log
run stat -r 3 --pre "echo pre >>$log" --post "echo post >>$log" -e page-faults -- sh -c "echo cmd >>$log"
expect_rc "-r 3 --pre --post runs" 0
check "pre, command, post, three times over" \
	test "$(tr '\n' ' ' <"$log")" = "pre cmd post pre cmd post pre cmd post "
contains "the table says three runs" "$err" "(3 runs)"
rm -f "$log"
run stat -r 3 --pre "echo pre >>$log; exit 3" -e page-faults -- sh -c "echo cmd >>$log"
expect_rc "a failing --pre stops stat with status 1" 1
contains "... naming it and its status" "$err" "--pre 'echo pre >>$log; exit 3' failed (exit status 3)"
check "... before the command ever ran" test "$(cat "$log")" = "pre"
rm -f "$log"
run stat -r 3 --post "echo post >>$log; exit 4" -e page-faults -- sh -c "echo cmd >>$log"
expect_rc "a failing --post stops stat with status 1" 1
check "... after the first run" test "$(tr '\n' ' ' <"$log")" = "cmd post "
check "... whose counts are printed" sh -c 'printf "%s\n" "$1" | grep -Eq "^ +[0-9]+ +page-faults"' sh "$err"
if have_perf; then
	rm -f "$log"
	perf stat -r 2 --pre "echo pre >>$log" --post "echo post >>$log" -e page-faults -- sh -c "echo cmd >>$log" 2>/dev/null
	check "perf runs them in the same order" test "$(tr '\n' ' ' <"$log")" = "pre cmd post pre cmd post "
else
	skip "perf runs them in the same order" "perf is not installed"
fi
# --metric-only: no counts, only figures.  Here no hardware counts, so no
# figure is shown (rates and CPUs utilized never are): what is left is
# perf's frame, and an empty column for each event that did not count.
nosec() { printf '%s\n' "$1" | grep -v 'seconds'; }
run stat --metric-only -e page-faults,task-clock -- true
expect_rc "--metric-only runs" 0
check "no counts and no rates are printed" sh -c '! printf "%s\n" "$1" | grep -Eq "page-faults|task-clock|/sec|CPUs"' sh "$err"
mine_sw=$(nosec "$err")
run stat --metric-only -e instructions,cycles,branch-misses,page-faults -- true
vline=$(printf '%s\n' "$err" | sed -n 5p)
check "one empty 21-wide column per event that did not count (3 here)" test "${#vline}" -eq 63
hline=$(printf '%s\n' "$err" | sed -n 4p)
check "... under an empty headings line: perf heads no plain event" test -z "$hline"
run stat --metric-only -x, -e instructions,cycles,page-faults -- true
mine_csv=$(printf '%s\n' "$err" | sed -n 2p)
check "CSV: an empty field for each" test "$mine_csv" = ",,"
run stat --metric-only -j -e instructions,cycles,page-faults -- true
mine_json=$(printf '%s\n' "$err" | sed -n 2p)
check "JSON: an empty metric-value for each" test "$mine_json" = '{"metric-value" : ""}{"metric-value" : ""}'
check "JSON: the headings parse as one object" \
	python3 -c 'import json,sys; json.loads(sys.argv[1].splitlines()[0])' "$err"
run stat --metric-only -I 100 -e instructions,page-faults -- sleep 0.15
mine_iv=$(printf '%s\n' "$err" | awk 'NR == 2 { sub(/^ +[0-9.]+/, ""); print }')
check "-I: the headings start with perf's '#           time'" \
	sh -c 'printf "%s\n" "$1" | head -1 | grep -q "^#           time "' sh "$err"
run stat --metric-only -r 2 -e page-faults -- true
expect_rc "--metric-only with -r is refused" 2
contains "... in perf's words" "$err" "--metric-only is not supported with -r"
run stat --metric-only --per-thread -e page-faults -- true
contains "--metric-only with --per-thread: perf's words" "$err" "--metric-only is not supported with --per-thread"
run stat --metric-only -a -A -e page-faults -- true
expect_rc "--metric-only with -A runs (test_stat_metric_only_split.sh)" 0
if have_perf; then
	theirs=$(nosec "$(perf stat --metric-only -e page-faults,task-clock -- true 2>&1)")
	check "without figures, the layout is perf's line for line" test "$mine_sw" = "$theirs"
	theirs=$(perf stat --metric-only -e instructions,cycles,branch-misses,page-faults -- true 2>&1 | sed -n 5p)
	check "the empty columns are perf's" test "$vline" = "$theirs"
	theirs=$(perf stat --metric-only -e instructions,cycles,branch-misses,page-faults -- true 2>&1 | sed -n 4p)
	check "the (empty) headings line is perf's" test "$hline" = "$theirs"
	theirs=$(perf stat --metric-only -x, -e instructions,cycles,page-faults -- true 2>&1 | sed -n 2p)
	check "the CSV line is perf's" test "$mine_csv" = "$theirs"
	theirs=$(perf stat --metric-only -j -e instructions,cycles,page-faults -- true 2>&1 | sed -n 2p)
	check "the JSON line is perf's" test "$mine_json" = "$theirs"
	theirs=$(perf stat --metric-only -I 100 -e instructions,page-faults -- sleep 0.15 2>&1 |
		awk 'NR == 2 { sub(/^ +[0-9.]+/, ""); print }')
	check "-I: each interval's line is perf's" test "$mine_iv" = "$theirs"
else
	for d in layout columns headings CSV JSON -I; do skip "--metric-only $d as perf's" "perf is not installed"; done
fi
# --topdown: perf 6.1 computes it from the core PMU's topdown events,
# system-wide only.  This machine has no core PMU: perf's refusal.
run stat --topdown -e page-faults -- true
expect_rc "--topdown without -a: exit status 1" 1
contains "... in perf's words" "$err" "top down event configuration requires system-wide mode (-a)"
run stat --td-level 1 -e page-faults -- true
expect_rc "--td-level without --topdown is a usage error" 2
mkdir -p "$tmp/none/bus/event_source/devices/software"
echo 1 >"$tmp/none/bus/event_source/devices/software/type"
PERFKIT_SYSFS_ROOT=$tmp/none run stat -a --topdown -- true
expect_rc "no topdown events: exit status 1" 1
contains "... with perf's message" "$err" "System does not support topdown"
# perf's level check: level 2 needs the level-2 perf-metrics events
# (topdown-br-mispredict, Sapphire Rapids on); a Skylake has level 1 only.
PERFKIT_SYSFS_ROOT=$PERFKIT_FIXTURES/sysfs/intel run stat -a --topdown --td-level 2 -- true
expect_rc "--td-level 2 on a Skylake (fixture): exit status 1" 1
contains "... with perf's message and the level there is" "$err" "Invalid top-down metrics level. The max level is 1."
if have_perf && [ ! -d /sys/bus/event_source/devices/cpu ]; then
	run stat -a --topdown -- true
	theirs=$(perf stat -a --topdown -- true 2>&1)
	check "here, the same refusal as perf ($theirs)" test "$err" = "$theirs"
else
	skip "here, the same refusal as perf" "no perf, or this machine has a core PMU"
fi
done_testing
