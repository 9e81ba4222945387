#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_stat_tool.sh - perf's tool events in perfkit stat -e: duration_time,
# user_time and system_time counted the way perf 6.1 counts them (wall time,
# and the command's CPU time from its rusage, in ns), in perf's table, CSV
# and JSON, side by side with perf, and in perfkit list.
. "$(dirname "$0")/tap.sh"

tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
# field CSV EVENT N: field N of EVENT's line in perf's CSV.
field() { printf '%s\n' "$1" | awk -F, -v e="$2" -v n="$3" '$3 == e { print $n }'; }
# A workload that burns user CPU time: about 0.1 s of Python arithmetic.
burn=(python3 -c 'sum(i * i for i in range(1500000))')

run stat -x, -e duration_time,user_time,system_time,task-clock -- "${burn[@]}"
expect_rc "tool events in -e count" 0
dur=$(field "$err" duration_time 1)
user=$(field "$err" user_time 1)
clk=$(field "$err" task-clock 1)
check "duration_time has perf's ns unit and 7 CSV fields" \
	sh -c 'printf "%s\n" "$1" | awk -F, "\$3 == \"duration_time\" && \$2 == \"ns\" && NF == 7 { f = 1 } END { exit !f }"' sh "$err"
# user_time is the command's rusage, so it cannot exceed its CPU time by
# more than rusage's microsecond rounding, and a CPU-bound command spends
# most of its CPU time in user space.
check "user_time ($user ns) is most of the command's task-clock ($clk msec)" \
	python3 -c "u = float('$user'); c = float('$clk') * 1e6; assert 0.5 * c <= u <= c * 1.1 + 2e6, (u, c)"
# Wall time covers the CPU time of a single-threaded command.
check "duration_time ($dur ns) covers task-clock" \
	python3 -c "assert float('$dur') >= float('$clk') * 1e6 * 0.99"
# duration_time and "seconds time elapsed" measure the same stretch.
run stat -e duration_time -- sleep 0.2
el=$(printf '%s\n' "$err" | awk '/seconds time elapsed/ { print $1 }')
d=$(printf '%s\n' "$err" | awk '$3 == "duration_time" { print $1 }')
check "duration_time ($d ns) is the elapsed time ($el s), at least the 0.2 s slept" \
	python3 -c "d = float('$d'); e = float('$el') * 1e9; assert d >= 2e8 and abs(d - e) <= 0.05 * e, (d, e)"
contains "the table shows ns in the unit column" "$err" " ns   duration_time"

# A process that is not our child has no rusage for us: perf shows
# user_time as <not counted>, and so do we.
sleep 30 &
spid=$!
"$PERFKIT" stat -x, -e duration_time,user_time -p "$spid" >"$tmp/p.out" 2>"$tmp/p.err" &
bg=$!
i=0
until ls -l "/proc/$bg/fd" 2>/dev/null | grep -q 'anon_inode:\[perf_event\]' || [ $i -ge 1000 ]; do
	i=$((i + 1)); sleep 0.01
done
kill "$spid"; wait "$bg"; wait "$spid" 2>/dev/null
contains "-p: user_time is <not counted>, as in perf" "$(cat "$tmp/p.err")" "<not counted>,ns,user_time,0,"

run stat -j -e duration_time -- true
json_line=$(printf '%s\n' "$err" | grep duration_time)
check "-j: duration_time has unit ns" python3 -c "
import json, sys; d = json.loads(sys.argv[1]); assert d['unit'] == 'ns' and float(d['counter-value']) > 0, d" "$json_line"

run stat -e '{duration_time,task-clock}' -- true
expect_rc "a tool event inside a {group} is refused" 1
contains "... saying why" "$err" "measured by the tool, not the kernel"

run stat -I 100 --interval-count 2 -e duration_time,user_time -- sleep 5
uc=$(printf '%s\n' "$err" | grep -c '<not counted> ns   user_time')
dc=$(printf '%s\n' "$err" | awk '$3 == "ns" && $4 == "duration_time" && $2 > 0' | wc -l)
check "-I: each interval has a duration_time and a <not counted> user_time ($dc, $uc)" \
	test "$dc" -eq 2 -a "$uc" -eq 2

run stat -a -A -e duration_time,cpu-clock -- true
check "-A: duration_time on the first CPU only, as perf shows it" \
	test "$(printf '%s\n' "$err" | grep -c duration_time)" -eq 1

run list tool
contains "perfkit list tool names duration_time as a Tool event" "$out" "duration_time                                      [Tool event]"

if command -v perf >/dev/null; then
	# The same three lines as perf list, in perf's order.
	mine=$(printf '%s\n' "$out" | grep '\[Tool event\]')
	theirs=$(perf list 2>/dev/null | grep '\[Tool event\]')
	check "perfkit list's tool events are perf list's" test "$mine" = "$theirs"
	pcsv=$(perf stat -x, -e duration_time,user_time,system_time -- "${burn[@]}" 2>&1 >/dev/null)
	run stat -x, -e duration_time,user_time,system_time -- "${burn[@]}"
	shape() { printf '%s\n' "$1" | awk -F, '{ v = $1 ~ /^[0-9]+$/ || $1 == "<not counted>" ? "N" : $1; print v, $2, $3, NF }'; }
	check "CSV lines have perf's shape (unit, name, fields, <not counted>)" \
		test "$(shape "$err")" = "$(shape "$pcsv")"
else
	skip "perfkit list's tool events are perf list's" "perf is not installed"
	skip "CSV lines have perf's shape" "perf is not installed"
fi
# user_time is the workload's rusage user time, its waited-for children's
# included, as perf counts it: checked against what the workload itself
# reads of its rusage just before it exits, in the same run (two runs'
# user times differ by half on a loaded machine).
wrap=(python3 -c 'import resource as r, subprocess as s, sys
s.run(sys.argv[1:])
print(int((r.getrusage(r.RUSAGE_SELF).ru_utime + r.getrusage(r.RUSAGE_CHILDREN).ru_utime) * 1e9))' "${burn[@]}")
run stat -x, -e user_time -- "${wrap[@]}"
mu=$(field "$err" user_time 1)
check "user_time is the workload's own rusage ($mu vs $out ns)" \
	python3 -c "a, b = float('$mu'), float('$out'); assert b > 0 and abs(a - b) <= 0.1 * b + 2e7, (a, b)"
done_testing
