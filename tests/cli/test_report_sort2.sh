#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# test_report_sort2.sh - perf 6.1's later report --sort keys (report-sort2.c,
# hist-keys2.c): time (samples grouped by their time rounded down to
# --time-quantum, 100ms by default; "sec.usec", "sec.nsec" with --ns),
# socket (the file's CPU_TOPOLOGY socket of the sample's CPU, -1 without
# one), symbol_size, trace (a tracepoint sample's fields as perf script
# prints them, "N/A" for other events; the default order of a file of
# tracepoints only), and the "IPC [IPC Coverage]"
# column perf adds (its ipc_null key, entries apart by symbol) to any
# --sort naming "symbol"; cgroup (the path a CGROUP record gave the
# sample's cgroup id, "N/A" without one); the weight keys (this VM has
# no PMU: its weights are 0, and perf's x86 drops the pipeline stage keys
# from --sort).
# Compared with perf report on the same files (fixed-period, user-only
# recordings: the tables cannot depend on where the samples land, only on
# the file both read), and checked for what must hold of any file.
. "$(dirname "$0")/tap.sh"
: "${PERFKIT_WORKLOAD:?PERFKIT_WORKLOAD must name the workload binary}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
W=$PERFKIT_WORKLOAD

. "$(dirname "$0")/report-perf.sh"

"$PERFKIT" record -e cpu-clock:u -c 1000000 -o k.data -- "$W" hot 100 >/dev/null 2>&1
if ! command -v perf >/dev/null; then
	skip "comparisons with perf report" "perf is not installed"
else
	perf record -q -e cpu-clock:u -c 1000000 -o u.data -- "$W" hot 100 >/dev/null 2>&1
	perf record -q -e cpu-clock:u -c 1000000 --sample-cpu -o c.data -- "$W" hotb 100 >/dev/null 2>&1
	for f in u.data k.data c.data; do
		same_as_perf "$f" --sort time
		same_as_perf "$f" --sort socket
		same_as_perf "$f" --sort symbol_size
		same_as_perf "$f" --sort symbol
	done
	same_as_perf c.data --sort socket,cpu,comm -n
	same_as_perf c.data --sort dso,symbol,time --ns
	same_as_perf c.data --sort comm,symbol_size,dso
	same_as_perf c.data --sort symbol_size --children
	same_as_perf c.data -F overhead,time,socket
	same_as_perf c.data -F overhead,sym,symbol_size --sort symbol_size
	same_as_perf c.data -F +time --sort symbol
	# every sched_switch of the workload: each sample's fields, whatever they
	# are (a sleep after it: 20 ms of a hot loop were sometimes switched
	# out never, and the file had no tracepoint sample)
	perf record -q -e sched:sched_switch -e cpu-clock:u -c 1 -o t.data -- sh -c "\"$W\" hot 20; sleep 0.01" \
		>/dev/null 2>&1
	same_as_perf t.data --sort trace
	same_as_perf t.data --sort comm,trace -n
	same_as_perf t.data -F overhead,trace,comm
	# perf makes a trace text only to compare two samples: one sample
	# prints cut to the header, identical ones (one entry) whole
	# damaged tracing data (its "tracing" magic overwritten): every row
	# N/A, with a warning saying why
	python3 - t.data td.data <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
off, size = struct.unpack_from('<QQ', b, 40)
feats = int.from_bytes(b[72:104], 'little')
assert feats & 2, 'no TRACING_DATA'
at = off + size + 16 * bin(feats & 1).count('1')	# its section: bit 1's entry
sec, = struct.unpack_from('<Q', b, at)
assert b[sec + 3:sec + 10] == b'tracing'
b[sec + 3:sec + 10] = b'XXXXXXX'
open(sys.argv[2], 'wb').write(b)
PY
	run report -i td.data --stdio -q --sort trace
	contains "damaged tracing data: a warning" "$err" "the trace key's rows are N/A"
	check "... and N/A rows" test -n "$out" -a -z "$(printf '%s\n' "$out" | sed '/^$/d' | grep -v 'N/A$')"
	for n in 1 3; do
		python3 "$(dirname "$0")/trace-craft.py" t.data t$n.data $n >/dev/null
		same_as_perf t$n.data --sort trace
		same_as_perf t$n.data --sort comm,trace -n
		same_as_perf t$n.data -F overhead,trace,comm
		# the trace level of a hierarchy: texts of one-sample groups cut
		same_as_perf t$n.data --no-children --hierarchy --sort comm,trace -n
		same_as_perf t$n.data --no-children --hierarchy --sort sym,trace --percent-limit 3
	done
	same_as_perf t.data --no-children --hierarchy --sort trace,comm
	# perf's default order for a file of tracepoints only is trace (its
	# get_default_sort_order), with call chains or without, -p's parent
	# after it; --sort or a strict -F names the keys as ever, and a file
	# with any other event keeps comm,dso,sym: t.data's cpu-clock, or the
	# dummy event perf record -a adds.
	perf record -q -e sched:sched_switch -e sched:sched_process_exit -c 1 -o tp.data -- \
		"$W" pingpong 50 >/dev/null 2>&1
	perf record -q -g -e sched:sched_switch -e sched:sched_process_exit -c 1 -o tpg.data -- \
		"$W" pingpong 50 >/dev/null 2>&1
	perf record -q -a -e sched:sched_process_exit -o tpa.data -- "$W" pingpong 50 >/dev/null 2>&1
	"$PERFKIT" record -e sched:sched_switch -e sched:sched_process_exit -c 1 -o ktp.data -- \
		"$W" pingpong 50 >/dev/null 2>&1
	for f in tp.data ktp.data; do
		same_as_perf $f
		same_as_perf $f -n --show-total-period
		same_as_perf $f -F +sample
		same_as_perf $f -F overhead,comm
		same_as_perf $f --sort pid
	done
	same_as_perf tpg.data
	same_as_perf tpg.data --no-children
	same_as_perf tpg.data -g none
	same_as_perf tpg.data -G
	same_as_perf tpg.data -p schedule
	same_as_perf tpa.data
	same_as_perf t.data
	perf record -q --all-cgroups -e cpu-clock -c 1000000 -o g.data -- "$W" hot 20 >/dev/null 2>&1
	same_as_perf g.data --sort cgroup,comm
	same_as_perf g.data -F overhead,cgroup,sym
	same_as_perf u.data --sort cgroup
	perf record -q -W -e cpu-clock:u -c 1000000 -o w.data -- "$W" hot 20 >/dev/null 2>&1
	same_as_perf w.data --sort weight,local_weight,comm
	same_as_perf w.data --sort ins_lat,local_ins_lat -n
	same_as_perf w.data --sort p_stage_cyc,local_p_stage_cyc,sym
	same_as_perf w.data --sort p_stage_cyc
	same_as_perf w.data -F overhead,weight,local_p_stage_cyc,ins_lat
	# weights as hierarchy levels: by the sample's value, a weight's cell
	# of its entry's own samples (a crafted copy with varied weights)
	if python3 "$(dirname "$0")/rawfield-craft.py" weight w.data wc.data >/dev/null 2>&1; then
		for args in "weight,comm" "local_weight,sym" "sym,weight -n" "comm,local_ins_lat" "ins_lat,local_ins_lat"; do
			# shellcheck disable=SC2086
			same_as_perf wc.data --hierarchy --sort $args
		done
	else
		not_ok "rawfield-craft.py weight: a copy with varied weights"
	fi
	same_as_perf w.data --hierarchy --sort comm,weight
	same_as_perf u.data --sort time,comm
	same_as_perf u.data --sort comm,time --time-quantum 10ms
	same_as_perf u.data --sort time --ns --time-quantum 1ms
	same_as_perf u.data --sort 'ti so' -n
	same_as_perf u.data --sort dso,time,socket --time-quantum 1s
	same_as_perf u.data --sort socket,comm --socket-filter -1
fi

# Every row's time is a multiple of the quantum, and the rows' times differ.
rows=$("$PERFKIT" report -i k.data --stdio -q --sort time --time-quantum 1s | sed '/^$/d')
check "time: rows" test -n "$rows"
check "time: each a whole second with a 1s quantum" \
	test -z "$(printf '%s\n' "$rows" | grep -Ev '^ +[0-9.]+%  [0-9]+\.000000$')"
check "time: one row per second" test -z "$(printf '%s\n' "$rows" | awk '{print $2}' | sort | uniq -d)"
rows=$("$PERFKIT" report -i k.data --stdio -q --ns --sort time --time-quantum 1ms | sed '/^$/d')
check "time --ns: nanoseconds, whole milliseconds" \
	test -n "$rows" -a -z "$(printf '%s\n' "$rows" | grep -Ev '^ +[0-9.]+%  [0-9]+\.[0-9]{3}000000$')"
hdr=$("$PERFKIT" report -i k.data --stdio --sort time,comm | grep '^# Overhead' | sed 's/ *$//')
check "time: perf's 12-wide column" test "$hdr" = "# Overhead  Time          Command"

# socket: -1 for samples without a CPU, one row, printed as perf prints
# it; with CPUs, a socket of the file's topology (this machine's, >= 0).
rows=$("$PERFKIT" report -i k.data --stdio -q --sort socket | sed '/^$/d')
check "socket: one row of -1 without CPUs" test "$rows" = "   100.00%    -001"
"$PERFKIT" record -e cpu-clock:u -c 1000000 --sample-cpu -o kc.data -- "$W" hot 100 >/dev/null 2>&1
rows=$("$PERFKIT" report -i kc.data --stdio -q --sort socket | sed '/^$/d')
check "socket: with CPUs, sockets from 0" \
	test -n "$rows" -a -z "$(printf '%s\n' "$rows" | grep -Ev '^ +[0-9.]+%  +[0-9]{3,}$')"

# symbol_size: hot_a's size is its ELF symbol's; the IPC column follows.
size=$(readelf -sW "$W" | awk '$8 == "hot_a" && $4 == "FUNC" { print $3; exit }')
row=$("$PERFKIT" report -i k.data --stdio -q --sort sym,symbol_size --symbols hot_a | sed '/^$/d; /^# symbol: /d')
check "symbol_size: the ELF size of hot_a ($size)" test -n "$size" -a -n "$row"
check "symbol_size: ... printed, then perf's IPC column" \
	test "$(printf '%s' "$row" | sed 's/^ *[0-9.]*%  //; s/ *$//')" = "$(printf '%11d  -      -' "$((size))")"

# trace: a tracepoint's rows name their fields as script prints them;
# another event's rows are N/A.
# pingpong: every read blocks, so there are switches whatever the load
# (a spinning workload may run 20 ms without one, as it did under ASan)
"$PERFKIT" record -e sched:sched_switch -c 1 -o kt.data -- "$W" pingpong 200 >/dev/null 2>&1
rows=$("$PERFKIT" report -i kt.data --stdio -q --sort trace | sed '/^$/d')
check "trace: rows of sched_switch's fields" test -n "$rows" -a \
	-z "$(printf '%s\n' "$rows" | grep -v 'prev_comm=.* prev_pid=.* ==> next_comm=')"
first=$("$PERFKIT" script -i kt.data -F trace | sed 's/^ *//' | sort -u | head -1)
check "trace: a field text of script's is a row" test -n "$first" -a \
	-n "$(printf '%s\n' "$rows" | grep -F -- "$first")"
rows=$("$PERFKIT" report -i k.data --stdio -q --sort trace | sed '/^$/d')
check "trace: N/A for a cpu-clock file" test "$rows" = "   100.00%  N/A"
# cgroup: with --all-cgroups every row names a path; without, N/A.
"$PERFKIT" record --all-cgroups -e cpu-clock -c 1000000 -o kg.data -- "$W" hot 20 >/dev/null 2>&1
rows=$("$PERFKIT" report -i kg.data --stdio -q --sort cgroup | sed '/^$/d')
check "cgroup: each row a cgroup path" \
	test -n "$rows" -a -z "$(printf '%s\n' "$rows" | grep -Ev '^ +[0-9.]+%  /')"
rows=$("$PERFKIT" report -i k.data --stdio -q --sort cgroup | sed '/^$/d')
check "cgroup: N/A without cgroups" test "$rows" = "   100.00%  N/A"
# weights: without WEIGHT in the samples every weight is 0, one row.
rows=$("$PERFKIT" report -i k.data --stdio -q --sort local_weight,weight | sed '/^$/d; s/ *$//')
check "weight: one row of 0s" test "$rows" = "   100.00%  0             0"
run report -i kt.data --stdio --sort trace --raw-trace
expect_rc "trace with --raw-trace: refused, exit 2" 2
# perf's default order for kt.data's tracepoints with --raw-trace is its
# trace_fields, a column per field: refused too, not comm,dso,sym.
run report -i kt.data --stdio --raw-trace
expect_rc "a file of tracepoints only with --raw-trace: refused, exit 2" 2
contains "naming perf's trace_fields" "$err" "trace_fields"
# --sort +KEYS adds to that same default order: refused alike.
run report -i kt.data --stdio --sort +pid --raw-trace
expect_rc "--sort +pid there with --raw-trace: refused, exit 2" 2
contains "naming perf's trace_fields" "$err" "trace_fields"

run report -i k.data --stdio --sort time --time-quantum 0
expect_rc "a zero quantum: exit 2" 2
# A key named again is taken once, as perf's sort dimension is: forty of
# one dropped key are one place in the order (they overflowed its table
# once: fuzz/corpus/cli/ubsan-sort-dropped-keys-past-items), and the
# table is comm's alone.
run report -i k.data --stdio --sort "$(printf 'p_stage_cyc,%.0s' $(seq 40))comm"
expect_rc "forty of one dropped key: taken once, exit 0" 0
contains "and the rows are comm's" "$out" "# Overhead  Command"
# Seventeen keys are too many.
run report -i k.data --stdio --sort comm,pid,tid,dso,sym,cpu,period,parent,srcline,srcfile,time,symbol_size,socket,trace,cgroup,weight,local_weight
expect_rc "seventeen keys: refused, exit 2" 2
contains "named as too many keys" "$err" "more than 16 --sort keys"
done_testing
