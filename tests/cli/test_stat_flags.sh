#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat_flags.sh - perfkit stat -B/--no-big-num (thousands' separators
# from the locale, as perf 6.1 prints them), --summary after -I (table, CSV
# with and without the summary column, JSON), and --pre/--post around each
# -r run, side by side with perf where it runs here.
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
done_testing
